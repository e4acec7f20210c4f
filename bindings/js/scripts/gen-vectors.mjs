// Writes the test fixtures (committed, so the tests run from the repository alone):
//
//   test/fixtures/encoding-data.json   the Standard's encodings.json and indexes, as read
//   test/fixtures/vectors.json         decode and encode vectors for every encoding
//
// from the Standard's data files (`../shared/spec/indexes` beside the repository, as in
// CI; or the directory given as the first argument). The vectors are the ones the Rust
// tests check the library against (tests/raw_indexes.rs: every index entry decoded; the
// encoders inverting them by the Standard's pointer rules), built here by a reference
// written straight from the Standard's algorithms, separately from the library:
//
//   node scripts/gen-vectors.mjs [path/to/indexes]   # then commit test/fixtures/
//   node scripts/gen-vectors.mjs --check             # fails if the fixtures are stale
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const check = args.includes('--check');
const dir = args.find((a) => !a.startsWith('--')) ?? path.resolve(root, '../../../shared/spec/indexes');
const specFile = path.resolve(dir, '../encoding.bs');

const read = (name) => fs.readFileSync(path.join(dir, name), 'utf8');

// ---- the Standard's data
const encodingsJson = JSON.parse(read('encodings.json'));
const indexNames = fs.readdirSync(dir).filter((f) => f.startsWith('index-') && f.endsWith('.txt'))
  .map((f) => f.slice(6, -4)).sort();
const indexes = {};
for (const name of indexNames) {
  const entries = [];
  for (const line of read(`index-${name}.txt`).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [pointer, codePoint] = line.trim().split(/\s+/);
    entries.push([Number(pointer), Number(codePoint)]);
  }
  indexes[name] = entries;
}
// The gb18030 encoder's table of code points it maps to two bytes (GB18030-2022).
const spec = fs.readFileSync(specFile, 'utf8');
const gbSection = spec.slice(spec.indexOf('<h4 id=gb18030-encoder'), spec.indexOf('<h3 id=big5'));
const gbTable = [...gbSection.matchAll(/<td>U\+([0-9A-F]{4})\s*<td>0x([0-9A-F]{2}) 0x([0-9A-F]{2})/g)]
  .map((m) => [parseInt(m[1], 16), [parseInt(m[2], 16), parseInt(m[3], 16)]]);
if (gbTable.length < 10) throw new Error(`gen-vectors: found only ${gbTable.length} rows of the gb18030 encoder table in ${specFile}`);

const data = { encodings: encodingsJson, indexes, gb18030EncoderTable: gbTable };
const vectors = buildVectors(data);

const outDir = path.join(root, 'test', 'fixtures');
const files = {
  'encoding-data.json': JSON.stringify(data) + '\n',
  'vectors.json': JSON.stringify(vectors) + '\n',
};
let stale = false;
for (const [name, text] of Object.entries(files)) {
  const file = path.join(outDir, name);
  if (check) {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
      console.error(`gen-vectors: ${file} is stale: run node scripts/gen-vectors.mjs`);
      stale = true;
    }
  } else {
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(file, text);
    console.log(`${file}: ${text.length} bytes`);
  }
}
if (stale) process.exit(1);

// ---------------------------------------------------------------------------------------

/** The vectors: { [name]: { decode: [{bytes, text}], encode: [{text, mode, bytes | error}] } }. */
export function buildVectors({ encodings, indexes, gb18030EncoderTable }) {
  const FFFD = 0xFFFD;
  const map = (name) => new Map(indexes[name]);
  const firstPointer = (name, exclude = () => false) => {
    const m = new Map();
    for (const [p, cp] of indexes[name]) if (!exclude(p) && !m.has(cp)) m.set(cp, p);
    return m;
  };
  const lastPointer = (name, exclude) => {
    const m = new Map();
    for (const [p, cp] of indexes[name]) if (!exclude(p)) m.set(cp, p);
    return m;
  };
  const jis0208First = firstPointer('jis0208');
  const sjisFirst = firstPointer('jis0208', (p) => p >= 8272 && p <= 8835);
  const big5Excl = (p) => p < (0xA1 - 0x81) * 157;
  const big5First = firstPointer('big5', big5Excl);
  const big5Last = lastPointer('big5', big5Excl);
  const gbFirst = firstPointer('gb18030');
  const eucKrFirst = firstPointer('euc-kr');
  const ranges = [...indexes['gb18030-ranges']].sort((a, b) => a[0] - b[0]);
  const gbTableMap = new Map(gb18030EncoderTable);
  const katakana = map('iso-2022-jp-katakana');
  const four = (p) => [Math.floor(p / 12600) + 0x81, Math.floor((p % 12600) / 1260) + 0x30,
    Math.floor((p % 1260) / 10) + 0x81, (p % 10) + 0x30];
  const isAscii = (cp) => cp < 0x80;

  const singleByte = new Set(encodings.find((g) => /single-byte/i.test(g.heading))
    .encodings.map((e) => e.name.toLowerCase()));
  const singleByteIndex = (lower) => {
    if (!singleByte.has(lower)) return null;
    return map(lower === 'iso-8859-8-i' ? 'iso-8859-8' : lower);
  };

  /** The Standard's encoder for one code point of a stateless encoding: bytes, or null (error). */
  function encodeCodePoint(lower, cp) {
    const sb = singleByteIndex(lower);
    if (sb) {
      if (isAscii(cp)) return [cp];
      for (const [p, c] of sb) if (c === cp) return [p + 0x80];
      return null;
    }
    switch (lower) {
      case 'utf-8': return [...new TextEncoder().encode(String.fromCodePoint(cp))];
      case 'utf-16le':
      case 'utf-16be': {
        const s = String.fromCodePoint(cp);
        const out = [];
        for (let i = 0; i < s.length; i++) {
          const u = s.charCodeAt(i);
          out.push(...(lower === 'utf-16le' ? [u & 0xFF, u >> 8] : [u >> 8, u & 0xFF]));
        }
        return out;
      }
      case 'x-user-defined':
        if (isAscii(cp)) return [cp];
        if (cp >= 0xF780 && cp <= 0xF7FF) return [cp - 0xF780 + 0x80];
        return null;
      case 'gbk':
      case 'gb18030': {
        if (isAscii(cp)) return [cp];
        if (cp === 0xE5E5) return null;
        if (lower === 'gbk' && cp === 0x20AC) return [0x80];
        if (gbTableMap.has(cp)) return gbTableMap.get(cp);
        const p = gbFirst.get(cp);
        if (p !== undefined) {
          const t = p % 190;
          return [Math.floor(p / 190) + 0x81, t + (t < 0x3F ? 0x40 : 0x41)];
        }
        if (lower === 'gbk') return null;
        let rp;
        if (cp === 0xE7C7) rp = 7457;
        else {
          let k = 0;
          for (let i = 0; i < ranges.length; i++) if (ranges[i][1] <= cp) k = i;
          rp = ranges[k][0] + cp - ranges[k][1];
        }
        return four(rp);
      }
      case 'big5': {
        if (isAscii(cp)) return [cp];
        const last = [0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345].includes(cp);
        const p = (last ? big5Last : big5First).get(cp);
        if (p === undefined) return null;
        const t = p % 157;
        return [Math.floor(p / 157) + 0x81, t + (t < 0x3F ? 0x40 : 0x62)];
      }
      case 'euc-jp': {
        if (isAscii(cp)) return [cp];
        if (cp === 0xA5) return [0x5C];
        if (cp === 0x203E) return [0x7E];
        if (cp >= 0xFF61 && cp <= 0xFF9F) return [0x8E, cp - 0xFF61 + 0xA1];
        if (cp === 0x2212) cp = 0xFF0D;
        const p = jis0208First.get(cp);
        if (p === undefined) return null;
        return [Math.floor(p / 94) + 0xA1, (p % 94) + 0xA1];
      }
      case 'shift_jis': {
        if (isAscii(cp) || cp === 0x80) return [cp];
        if (cp === 0xA5) return [0x5C];
        if (cp === 0x203E) return [0x7E];
        if (cp >= 0xFF61 && cp <= 0xFF9F) return [cp - 0xFF61 + 0xA1];
        if (cp === 0x2212) cp = 0xFF0D;
        const p = sjisFirst.get(cp);
        if (p === undefined) return null;
        const lead = Math.floor(p / 188);
        const t = p % 188;
        return [lead + (lead < 0x1F ? 0x81 : 0xC1), t + (t < 0x3F ? 0x40 : 0x41)];
      }
      case 'euc-kr': {
        if (isAscii(cp)) return [cp];
        const p = eucKrFirst.get(cp);
        if (p === undefined) return null;
        return [Math.floor(p / 190) + 0x81, (p % 190) + 0x41];
      }
      default:
        throw new Error(`no encoder rule for ${lower}`);
    }
  }

  /**
   * The Standard's *encode* / *encode or fail* over a string (lone surrogates → U+FFFD, as
   * USVString conversion), with ISO-2022-JP's states. mode: fatal | html | replace.
   * Returns { bytes } or { error: { codePoint, index } } (index: UTF-16 index).
   */
  function referenceEncode(lower, text, mode) {
    const queue = [];
    for (let i = 0; i < text.length;) {
      let cp = text.codePointAt(i);
      const units = cp > 0xFFFF ? 2 : 1;
      if (cp >= 0xD800 && cp <= 0xDFFF) cp = FFFD;
      queue.push([cp, i]);
      i += units;
    }
    const out = [];
    let state = 'ascii';
    const iso = lower === 'iso-2022-jp';
    // ISO-2022-JP's handler: bytes | { prepend } | { error }.
    const isoHandle = (cp) => {
      if ((state === 'ascii' || state === 'roman') && (cp === 0x0E || cp === 0x0F || cp === 0x1B)) return { error: FFFD };
      if (state === 'ascii' && isAscii(cp)) return [cp];
      if (state === 'roman' && ((isAscii(cp) && cp !== 0x5C && cp !== 0x7E) || cp === 0xA5 || cp === 0x203E)) {
        if (isAscii(cp)) return [cp];
        return cp === 0xA5 ? [0x5C] : [0x7E];
      }
      if (isAscii(cp) && state !== 'ascii') { state = 'ascii'; return { prepend: [0x1B, 0x28, 0x42] }; }
      if ((cp === 0xA5 || cp === 0x203E) && state !== 'roman') { state = 'roman'; return { prepend: [0x1B, 0x28, 0x4A] }; }
      if (cp === 0x2212) cp = 0xFF0D;
      if (cp >= 0xFF61 && cp <= 0xFF9F) cp = katakana.get(cp - 0xFF61);
      const p = jis0208First.get(cp);
      if (p === undefined) {
        if (state === 'jis0208') { state = 'ascii'; return { prepend: [0x1B, 0x28, 0x42] }; }
        return { error: cp };
      }
      if (state !== 'jis0208') { state = 'jis0208'; return { prepend: [0x1B, 0x24, 0x42] }; }
      return [Math.floor(p / 94) + 0x21, (p % 94) + 0x21];
    };
    while (queue.length) {
      const [cp, index] = queue.shift();
      let r;
      if (iso) {
        r = isoHandle(cp);
        if (r.prepend) { out.push(...r.prepend); queue.unshift([cp, index]); continue; }
      } else {
        const b = encodeCodePoint(lower, cp);
        r = b === null ? { error: cp } : b;
      }
      if (Array.isArray(r)) { out.push(...r); continue; }
      if (mode === 'fatal') return { error: { codePoint: r.error, index } };
      const repl = mode === 'html' ? [...`&#${r.error};`].map((c) => c.charCodeAt(0)) : [0x3F];
      queue.unshift(...repl.map((c) => [c, index]));
    }
    if (iso && state !== 'ascii') out.push(0x1B, 0x28, 0x42);
    return { bytes: out };
  }

  /** [bytes, code points] for each encoding's decoder, from its index. */
  function decodeVectors(lower) {
    const b = [];
    const cps = [];
    const add = (bs, cp) => { b.push(...bs); cps.push(...[cp].flat()); };
    const sb = singleByteIndex(lower);
    if (sb) {
      for (let byte = 0; byte < 256; byte++) add([byte], byte < 0x80 ? byte : (sb.get(byte - 0x80) ?? FFFD));
      return [b, cps];
    }
    switch (lower) {
      case 'x-user-defined':
        for (let byte = 0; byte < 256; byte++) add([byte], byte < 0x80 ? byte : 0xF780 + byte - 0x80);
        break;
      case 'utf-8':
        for (const cp of [0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF, 0xE9, 0x20AC, 0x1F600, 0xFEFF]) {
          add(encodeCodePoint('utf-8', cp), cp);
        }
        // Malformed: a lone continuation, a cut sequence before ASCII, a surrogate, overlong.
        add([0x80], FFFD);
        add([0xE3, 0x81, 0x41], [FFFD, 0x41]);
        add([0xED, 0xA0, 0x80], [FFFD, FFFD, FFFD]);
        add([0xC0, 0xAF], [FFFD, FFFD]);
        add([0xF4, 0x90, 0x80, 0x80], [FFFD, FFFD, FFFD, FFFD]);
        break;
      case 'utf-16le':
      case 'utf-16be':
        for (const cp of [0x41, 0xE9, 0x20AC, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0xFEFF]) {
          add(encodeCodePoint(lower, cp), cp);
        }
        // A lone low surrogate, then a lone high one before a BMP unit.
        add(lower === 'utf-16le' ? [0x00, 0xDC] : [0xDC, 0x00], FFFD);
        add(lower === 'utf-16le' ? [0x00, 0xD8, 0x41, 0x00] : [0xD8, 0x00, 0x00, 0x41], [FFFD, 0x41]);
        break;
      case 'gbk':
      case 'gb18030': {
        for (const [p, cp] of indexes.gb18030) {
          const t = p % 190;
          add([Math.floor(p / 190) + 0x81, t < 0x3F ? t + 0x40 : t + 0x41], cp);
        }
        const rs = ranges.filter(([p]) => p < 39420);
        for (let i = 0; i < rs.length; i++) {
          const [p, cp] = rs[i];
          const end = i + 1 < rs.length ? rs[i + 1][0] : 39420;
          for (const q of new Set([p, p + 1, end - 1])) {
            if (q < p || q >= end || q === 7457) continue;
            add(four(q), cp + q - p);
          }
        }
        add(four(7457), 0xE7C7);
        add(four(189000), 0x10000);
        add(four(1237575), 0x10FFFF);
        add([0x80], 0x20AC);
        add([0xFF], FFFD);
        add([0x81, 0x22], [FFFD, 0x22]);
        break;
      }
      case 'big5': {
        const special = { 1133: [0xCA, 0x304], 1135: [0xCA, 0x30C], 1164: [0xEA, 0x304], 1166: [0xEA, 0x30C] };
        const idx = map('big5');
        for (const p of [...idx.keys(), 1133, 1135, 1164, 1166]) {
          const t = p % 157;
          add([Math.floor(p / 157) + 0x81, t < 0x3F ? t + 0x40 : t + 0x62], special[p] ?? idx.get(p));
        }
        add([0x81, 0x22], [FFFD, 0x22]);
        break;
      }
      case 'shift_jis':
        for (const [p, cp] of indexes.jis0208) {
          if (p >= 8836 && p <= 10715) continue;
          const lead = Math.floor(p / 188);
          const t = p % 188;
          add([lead < 0x1F ? lead + 0x81 : lead + 0xC1, t < 0x3F ? t + 0x40 : t + 0x41], cp);
        }
        for (const p of [8836, 9000, 10715]) {
          const lead = Math.floor(p / 188);
          const t = p % 188;
          add([lead + 0xC1, t < 0x3F ? t + 0x40 : t + 0x41], 0xE000 + p - 8836);
        }
        add([0x80, 0xA1, 0xDF, 0xA0], [0x80, 0xFF61, 0xFF9F, FFFD]);
        add([0x82, 0x22], [FFFD, 0x22]);
        break;
      case 'euc-jp':
        for (const [p, cp] of indexes.jis0208) if (p < 94 * 94) add([Math.floor(p / 94) + 0xA1, (p % 94) + 0xA1], cp);
        for (const [p, cp] of indexes.jis0212) if (p < 94 * 94) add([0x8F, Math.floor(p / 94) + 0xA1, (p % 94) + 0xA1], cp);
        add([0x8E, 0xA1, 0x8E, 0xDF], [0xFF61, 0xFF9F]);
        add([0xA1, 0x22], [FFFD, 0x22]);
        break;
      case 'iso-2022-jp':
        add([0x1B, 0x24, 0x42], []);
        for (const [p, cp] of indexes.jis0208) if (p < 94 * 94) add([Math.floor(p / 94) + 0x21, (p % 94) + 0x21], cp);
        add([0x1B, 0x28, 0x4A, 0x5C, 0x7E, 0x41], [0xA5, 0x203E, 0x41]);
        add([0x1B, 0x28, 0x49, 0x21, 0x5F], [0xFF61, 0xFF9F]);
        add([0x1B, 0x28, 0x42, 0x5C, 0x7E], [0x5C, 0x7E]);
        break;
      case 'euc-kr':
        for (const [p, cp] of indexes['euc-kr']) add([Math.floor(p / 190) + 0x81, (p % 190) + 0x41], cp);
        add([0x81, 0x22], [FFFD, 0x22]);
        break;
      case 'replacement':
        add([0x41, 0x42], FFFD);
        break;
      default:
        throw new Error(`no decode vectors for ${lower}`);
    }
    return [b, cps];
  }

  const str = (cps) => {
    let s = '';
    for (let i = 0; i < cps.length; i += 4096) s += String.fromCodePoint(...cps.slice(i, i + 4096));
    return s;
  };
  const b64 = (bytes) => Buffer.from(bytes).toString('base64');
  // Text every encoder must meet: ASCII, Latin, CJK, Cyrillic, an astral character, a lone
  // surrogate, characters each legacy encoding lacks, and ISO-2022-JP's escape byte.
  const SAMPLES = [
    'plain ASCII, 0-9 ~\\',
    'A\u00E9\u20AC\u4E2D\u0416\u00A5\u203E\u2212\uFF76z',
    'x\uD83D\uDE00y\uD800z\uDFFF',
    '\u65E5\u672C\u8A9E\u00E9\u65E5\u001B\u0041\uFF61\u3000',
    '\uE5E5\u20AC\u0080\uE7C7\uFE10\uE78D\u00CA\u0304',
  ];

  const result = {};
  for (const group of encodings) {
    for (const { name } of group.encodings) {
      const lower = name.toLowerCase();
      const [bytes, cps] = decodeVectors(lower);
      const entry = { name, decode: { bytes: b64(bytes), text: str(cps), malformed: cps.includes(FFFD) }, encode: [] };
      if (lower !== 'replacement') {
        // Every code point the decoder produces (each once) through the encoder, in one string.
        const seen = new Set();
        const text = [];
        for (const cp of cps) {
          if (cp === FFFD || seen.has(cp)) continue;
          if (lower === 'iso-2022-jp' ? (cp === 0x1B || cp === 0x0E || cp === 0x0F)
            : encodeCodePoint(lower, cp) === null) continue;
          seen.add(cp);
          text.push(cp);
        }
        for (const mode of ['fatal']) {
          const s = str(text);
          const r = referenceEncode(lower, s, mode);
          entry.encode.push({ text: s, mode, ...(r.bytes ? { bytes: b64(r.bytes) } : { error: r.error }) });
        }
        for (const s of SAMPLES) {
          for (const mode of ['fatal', 'html', 'replace']) {
            const r = referenceEncode(lower, s, mode);
            entry.encode.push({ text: s, mode, ...(r.bytes ? { bytes: b64(r.bytes) } : { error: r.error }) });
          }
        }
      }
      result[name] = entry;
    }
  }
  return result;
}
