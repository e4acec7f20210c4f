// Speed in Node (V8), in one run, as ratios: textcodec's wasm core against iconv-lite,
// @exodus/bytes and Node's built-in TextDecoder (devDependencies), on ~4 MB inputs made from
// the benchmark corpus (bench-corpus/ at the repository root: python3 scripts/make-corpus.py)
// encoded in each encoding; a 24-byte call; first-call latency; exactness of each on the
// test vectors. `node bench/node.mjs [--json out.json] [--quick]`.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tc from '../src/index.js';

const require = createRequire(import.meta.url);
const iconv = require('iconv-lite');
const exodusMulti = require('@exodus/bytes/multi-byte.js');
const exodusSingle = require('@exodus/bytes/single-byte.js');
const exodusEncoding = require('@exodus/bytes/encoding.js');
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// The native addon (bindings/node), when it has been built there: its TextDecoder.
const addon = fs.existsSync(path.resolve(root, '../node/textcodec.node')) ? require('../../node/index.js') : null;
const corpus = path.resolve(root, '../../bench-corpus');
const quick = process.argv.includes('--quick');
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;
const SIZE = 4 << 20;

const CASES = [
  ['Shift_JIS', 'ja'], ['EUC-JP', 'ja'], ['ISO-2022-JP', 'ja'], ['GBK', 'zh_Hans'], ['gb18030', 'zh_Hans'],
  ['Big5', 'zh_Hant'], ['EUC-KR', 'ko'], ['KOI8-R', 'ru'], ['windows-1251', 'ru'], ['windows-1252', 'fr'],
  ['ISO-8859-7', 'el'], ['windows-1255', 'he'], ['UTF-16LE', 'ja'], ['UTF-8', 'ja'],
];

function input(encoding, lang) {
  const text = fs.readFileSync(path.join(corpus, `${lang}.text.txt`), 'utf8');
  const once = tc.encode(text, encoding, { errors: 'replace' });
  const reps = Math.ceil(SIZE / once.length);
  const bytes = new Uint8Array(once.length * reps);
  for (let i = 0; i < reps; i++) bytes.set(once, i * once.length);
  return bytes;
}

/** Best MB/s of several timed batches (after a warm-up), over `bytes` bytes per call. */
function speed(fn, bytes) {
  fn();
  let best = Infinity;
  const rounds = quick ? 3 : 7;
  for (let r = 0; r < rounds; r++) {
    const t = process.hrtime.bigint();
    let n = 0;
    do { fn(); n++; } while (Number(process.hrtime.bigint() - t) < 2e8);
    best = Math.min(best, Number(process.hrtime.bigint() - t) / n);
  }
  return bytes / best * 1e3; // bytes per ns → MB/s
}

const lower = (e) => e.toLowerCase();
function peers(encoding) {
  const e = lower(encoding);
  const out = {};
  const single = tc.lookup(e).singleByte;
  try {
    const d = single ? exodusSingle.createSinglebyteDecoder(e, true) : exodusMulti.createMultibyteDecoder(e, true);
    out.exodusDecode = (b) => d(b);
  } catch {
    try { const td = new exodusEncoding.TextDecoder(e); out.exodusDecode = (b) => td.decode(b); } catch {}
  }
  try {
    const enc = single ? exodusSingle.createSinglebyteEncoder(e) : exodusMulti.createMultibyteEncoder(e);
    out.exodusEncode = (s) => enc(s);
  } catch {}
  if (iconv.encodingExists(e)) {
    out.iconvDecode = (b) => iconv.decode(Buffer.from(b.buffer, b.byteOffset, b.length), e);
    out.iconvEncode = (s) => iconv.encode(s, e);
  }
  try { const td = new TextDecoder(e); out.nodeDecode = (b) => td.decode(b); } catch {}
  if (addon) { const td = new addon.TextDecoder(e); out.addonDecode = (b) => td.decode(b); }
  return out;
}

const rows = [];
for (const [encoding, lang] of CASES) {
  const bytes = input(encoding, lang);
  const text = tc.decode(bytes, encoding);
  const p = peers(encoding);
  const row = { encoding, bytes: bytes.length };
  const td = new tc.TextDecoder(encoding);
  row.decode = speed(() => tc.decode(bytes, encoding), bytes.length);
  row.textDecoder = speed(() => td.decode(bytes), bytes.length);
  if (p.iconvDecode) row.iconvDecode = speed(() => p.iconvDecode(bytes), bytes.length);
  if (p.exodusDecode) row.exodusDecode = speed(() => p.exodusDecode(bytes), bytes.length);
  if (p.nodeDecode) row.nodeDecode = speed(() => p.nodeDecode(bytes), bytes.length);
  if (p.addonDecode) row.addonDecode = speed(() => p.addonDecode(bytes), bytes.length);
  if (encoding !== 'UTF-16LE' || true) {
    row.encode = speed(() => tc.encode(text, encoding, { errors: 'replace' }), bytes.length);
    if (p.iconvEncode) row.iconvEncode = speed(() => p.iconvEncode(text), bytes.length);
    if (p.exodusEncode) { try { p.exodusEncode(text); row.exodusEncode = speed(() => p.exodusEncode(text), bytes.length); } catch {} }
  }
  rows.push(row);
  const f = (x) => (x === undefined ? '—' : x.toFixed(0));
  const r = (a, b) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);
  console.log(`${encoding.padEnd(13)} decode ${f(row.decode)} MB/s (TextDecoder ${f(row.textDecoder)}) | iconv-lite ${f(row.iconvDecode)} ${r(row.decode, row.iconvDecode)} | @exodus/bytes ${f(row.exodusDecode)} ${r(row.decode, row.exodusDecode)} | Node ${f(row.nodeDecode)} ${r(row.decode, row.nodeDecode)} | addon ${f(row.addonDecode)} ${r(row.decode, row.addonDecode)}` +
    ` || encode ${f(row.encode)} | iconv-lite ${f(row.iconvEncode)} ${r(row.encode, row.iconvEncode)} | @exodus/bytes ${f(row.exodusEncode)} ${r(row.encode, row.exodusEncode)}`);
}

// Encoding text as written: the corpus text itself, not its round trip through the
// encoding, so it holds characters the encoding lacks (Japanese text's U+2014, Russian
// text's « » in KOI8-R…), each replaced by `?` (iconv-lite's default). M code units/s
// per legacy encoding: textcodec against iconv-lite.
const asWritten = [];
for (const [encoding, lang] of CASES) {
  if (encoding.startsWith('UTF') || encoding === 'ISO-2022-JP') continue;
  const once = fs.readFileSync(path.join(corpus, `${lang}.text.txt`), 'utf8');
  const text = once.repeat(Math.ceil((SIZE / 2) / once.length));
  const lacking = [...once].filter((c) => {
    try { tc.encode(c, encoding); return false; } catch { return true; }
  }).length;
  const p = peers(encoding);
  const row = { encoding, characters: text.length, lackingPerCopy: lacking };
  row.encode = speed(() => tc.encode(text, encoding, { errors: 'replace' }), text.length);
  if (p.iconvEncode) row.iconvEncode = speed(() => p.iconvEncode(text), text.length);
  asWritten.push(row);
}
console.log(`encode of the text as written (characters the encoding lacks become ?), M code units/s, textcodec / iconv-lite (~2 M units, the corpus text repeated): ${asWritten.map((r) =>
  `${r.encoding} ${r.encode.toFixed(0)} / ${r.iconvEncode?.toFixed(0) ?? '—'} ${r.iconvEncode ? (r.encode / r.iconvEncode).toFixed(2) + '×' : ''} (${r.lackingPerCopy} lacking per copy)`).join('; ')}`);

// A 24-byte call (Shift_JIS: ASCII and kana), ns per call.
const small = tc.encode('CSV行: 日本語テキスト', 'shift_jis').subarray(0, 24);
function perCall(fn) {
  for (let i = 0; i < 1e5; i++) fn();
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < 2e5; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 2e5);
  }
  return best;
}
const ps = peers('shift_jis');
const tdSmall = new tc.TextDecoder('shift_jis');
const smallRow = {
  decode: perCall(() => tc.decode(small, 'shift_jis')),
  textDecoder: perCall(() => tdSmall.decode(small)),
  iconv: perCall(() => ps.iconvDecode(small)),
  exodus: perCall(() => ps.exodusDecode(small)),
  node: perCall(() => ps.nodeDecode(small)),
  addon: ps.addonDecode ? perCall(() => ps.addonDecode(small)) : undefined,
  encode: perCall(() => tc.encode('CSV行: 日本語', 'shift_jis')),
  iconvEncode: perCall(() => ps.iconvEncode('CSV行: 日本語')),
  exodusEncode: perCall(() => ps.exodusEncode('CSV行: 日本語')),
};
console.log(`24-byte Shift_JIS decode, ns/call: textcodec decode ${smallRow.decode.toFixed(0)}, TextDecoder ${smallRow.textDecoder.toFixed(0)}, iconv-lite ${smallRow.iconv.toFixed(0)}, @exodus/bytes ${smallRow.exodus.toFixed(0)}, Node ${smallRow.node.toFixed(0)}, addon ${smallRow.addon?.toFixed(0) ?? '—'}`);
console.log(`11-character Shift_JIS encode, ns/call: textcodec ${smallRow.encode.toFixed(0)}, iconv-lite ${smallRow.iconvEncode.toFixed(0)}, @exodus/bytes ${smallRow.exodusEncode.toFixed(0)}`);

// First call: a fresh process loads the module and decodes Shift_JIS once (median of 5).
// The ES module probe runs from a file, as an application's module does: `node
// --input-type=module -e` also starts the ES module loader inside the timed region
// (about 3.5 ms more on the Zen 4 VM), which a CommonJS `-e` probe does not pay.
const firstCall = {};
const probeDir = path.join(root, 'bench', '.cache');
fs.mkdirSync(probeDir, { recursive: true });
const probeFile = path.join(probeDir, 'first-call-probe.mjs');
const probes = {
  // The package as Node resolves it ("node" condition: dist/index.mjs, src/ in one file).
  textcodec: `const t0 = performance.now(); const m = await import('textcodec'); m.decode(new Uint8Array([0x93, 0xFA]), 'shift_jis');`,
  'textcodec (CommonJS)': `const t0 = performance.now(); const m = require(${JSON.stringify(path.join(root, 'dist/index.cjs'))}); m.decode(new Uint8Array([0x93, 0xFA]), 'shift_jis');`,
  'iconv-lite': `const t0 = performance.now(); const m = require('iconv-lite'); m.decode(Buffer.from([0x93, 0xFA]), 'shift_jis');`,
  '@exodus/bytes': `const t0 = performance.now(); const m = require('@exodus/bytes/multi-byte.js'); m.createMultibyteDecoder('shift_jis')(new Uint8Array([0x93, 0xFA]));`,
};
for (const [name, code] of Object.entries(probes)) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const esm = code.includes('await import');
    const script = `${code} console.log(performance.now() - t0);`;
    if (esm) fs.writeFileSync(probeFile, script);
    const out = execFileSync(process.execPath, esm ? [probeFile] : ['-e', script], { cwd: root, encoding: 'utf8' });
    times.push(Number(out.trim()));
  }
  times.sort((a, b) => a - b);
  firstCall[name] = times[2];
}
console.log(`first call (load + first Shift_JIS decode), ms: ${Object.entries(firstCall).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);

// Where textcodec's first calls go (fresh processes, median of 9 per step): the import, the
// first decode of a short Shift_JIS input (the core's first decode compiles the decoder
// loop and builds Shift_JIS's tables), then in the same process the first GBK and
// windows-1252 decodes and the first Shift_JIS encode.
const split = `const t0 = performance.now(); const m = await import('textcodec');
const t1 = performance.now(); m.decode(new Uint8Array([0x93, 0xFA, 0x41]), 'shift_jis');
const t2 = performance.now(); m.decode(new Uint8Array([0xC4, 0xE3, 0x41]), 'gbk');
const t3 = performance.now(); m.decode(new Uint8Array([0x80, 0x41]), 'windows-1252');
const t4 = performance.now(); m.encode('日本語', 'shift_jis');
const t5 = performance.now(); console.log([t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4].join(' '));`;
const steps = [];
fs.writeFileSync(probeFile, split);
for (let i = 0; i < 9; i++) {
  const out = execFileSync(process.execPath, [probeFile], { cwd: root, encoding: 'utf8' });
  out.trim().split(' ').map(Number).forEach((t, k) => (steps[k] ??= []).push(t));
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const firstSplit = Object.fromEntries(['import', 'Shift_JIS decode', 'GBK decode', 'windows-1252 decode', 'Shift_JIS encode'].map((k, i) => [k, median(steps[i])]));
firstCall.split = firstSplit;
console.log(`textcodec's first calls, ms (median of 9 processes): ${Object.entries(firstSplit).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);

// Exactness on the test vectors: encodings whose decode vector (replacement mode) and whose
// encode vectors (all fatal/html/replace ones each peer can express) come out right.
const vectors = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/vectors.json'), 'utf8'));
const exact = { textcodec: [0, 0], 'iconv-lite': [0, 0], '@exodus/bytes': [0, 0], 'Node TextDecoder': [0, 0] };
const totals = [0, 0];
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
for (const [name, v] of Object.entries(vectors)) {
  if (name === 'replacement') continue;
  const bytes = Buffer.from(v.decode.bytes, 'base64');
  const u8 = new Uint8Array(bytes);
  totals[0]++;
  const p = peers(name);
  const tryDecode = (fn) => { try { return fn(u8) === v.decode.text; } catch { return false; } };
  if (tryDecode((b) => tc.decode(b, name, { bom: 'keep' }))) exact.textcodec[0]++;
  if (p.iconvDecode && tryDecode((b) => iconv.decode(Buffer.from(b), name, { stripBOM: false }))) exact['iconv-lite'][0]++;
  if (p.exodusDecode && tryDecode(p.exodusDecode)) exact['@exodus/bytes'][0]++;
  if (p.nodeDecode && tryDecode((b) => new TextDecoder(name, { ignoreBOM: true }).decode(b))) exact['Node TextDecoder'][0]++;
  // Encoding: the full-text fatal vector (every decodable code point, no errors).
  const full = v.encode.find((e) => e.mode === 'fatal' && e.bytes && e.text.length > 50);
  if (!full) continue;
  totals[1]++;
  const want = [...Buffer.from(full.bytes, 'base64')];
  const tryEncode = (fn) => { try { return same([...fn(full.text)], want); } catch { return false; } };
  if (tryEncode((s) => tc.encode(s, name))) exact.textcodec[1]++;
  if (p.iconvEncode && tryEncode(p.iconvEncode)) exact['iconv-lite'][1]++;
  if (p.exodusEncode && tryEncode(p.exodusEncode)) exact['@exodus/bytes'][1]++;
}
console.log(`exactness (encodings fully right: decode of ${totals[0]} / encode of ${totals[1]}): ${Object.entries(exact).map(([k, [d, e]]) => `${k} ${d}/${e}`).join(', ')}`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ node: process.version, backend: tc.backend, rows, small: smallRow, asWritten, firstCall, exact, totals }, null, 1));
