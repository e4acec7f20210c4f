'use strict';
// Every encoding of the Standard, decoded through the JS API and checked against the
// Standard's own indexes (shared/spec/indexes), plus comparisons with Node's built-in
// TextDecoder/TextEncoder where Node is known to be right (UTF-8, UTF-16LE, and
// windows-1252 outside 0x80–0x9F, which Node 20 decodes as ISO-8859-1).
const test = require('node:test');
const assert = require('node:assert/strict');
const { TextDecoder, TextDecoderStream, TextEncoder } = require('..');
const native = require('../native.js');
const { encodings, index, rng, pipeChunks } = require('./helpers.js');

const NodeTextDecoder = globalThis.TextDecoder;
const NodeTextEncoder = globalThis.TextEncoder;
const FFFD = 0xFFFD;
const str = (cps) => {
  let s = '';
  for (let i = 0; i < cps.length; i += 4096) s += String.fromCodePoint(...cps.slice(i, i + 4096));
  return s;
};

/** [bytes, expected code points] for each encoding, built from the Standard's indexes. */
function vectors(name) {
  const b = [];
  const cps = [];
  const add = (bs, cp) => { b.push(...bs); cps.push(...[cp].flat()); };
  const lower = name.toLowerCase();
  const notSingleByte = lower === 'x-user-defined' || lower.startsWith('utf') ||
    ['gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr'].includes(lower);
  const sb = notSingleByte ? null : index(lower === 'iso-8859-8-i' ? 'iso-8859-8' : lower);
  if (sb) {
    for (let byte = 0; byte < 256; byte++) add([byte], byte < 0x80 ? byte : (sb.get(byte - 0x80) ?? FFFD));
    return [b, cps];
  }
  switch (lower) {
    case 'x-user-defined':
      for (let byte = 0; byte < 256; byte++) add([byte], byte < 0x80 ? byte : 0xF780 + byte - 0x80);
      break;
    case 'utf-8':
      for (const cp of [0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF, 0xE9, 0x20AC, 0x1F600]) {
        add([...Buffer.from(String.fromCodePoint(cp))], cp);
      }
      break;
    case 'utf-16le':
    case 'utf-16be':
      for (const cp of [0x41, 0xE9, 0x20AC, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF]) {
        const units = String.fromCodePoint(cp);
        for (let i = 0; i < units.length; i++) {
          const u = units.charCodeAt(i);
          b.push(...(lower === 'utf-16le' ? [u & 0xFF, u >> 8] : [u >> 8, u & 0xFF]));
        }
        cps.push(cp);
      }
      break;
    case 'gbk':
    case 'gb18030': {
      for (const [p, cp] of index('gb18030')) {
        const t = p % 190;
        add([Math.floor(p / 190) + 0x81, t < 0x3F ? t + 0x40 : t + 0x41], cp);
      }
      const four = (p) => [Math.floor(p / 12600) + 0x81, Math.floor((p % 12600) / 1260) + 0x30,
        Math.floor((p % 1260) / 10) + 0x81, (p % 10) + 0x30];
      // Ranges below pointer 39420 (the last entry, 189000 → U+10000, is handled below).
      const ranges = [...index('gb18030-ranges')].filter(([p]) => p < 39420).sort((x, y) => x[0] - y[0]);
      for (let i = 0; i < ranges.length; i++) {
        const [p, cp] = ranges[i];
        const end = i + 1 < ranges.length ? ranges[i + 1][0] : 39420;
        for (const q of [p, p + 1, end - 1]) {
          if (q < p || q >= end || q === 7457) continue;
          add(four(q), cp + q - p);
        }
      }
      add(four(7457), 0xE7C7);
      add(four(189000), 0x10000);
      add(four(1237575), 0x10FFFF);
      add([0x80], 0x20AC);
      add([0xFF], FFFD);
      break;
    }
    case 'big5': {
      const special = { 1133: [0xCA, 0x304], 1135: [0xCA, 0x30C], 1164: [0xEA, 0x304], 1166: [0xEA, 0x30C] };
      const idx = index('big5');
      for (const p of [...idx.keys(), 1133, 1135, 1164, 1166]) {
        const t = p % 157;
        add([Math.floor(p / 157) + 0x81, t < 0x3F ? t + 0x40 : t + 0x62], special[p] ?? idx.get(p));
      }
      break;
    }
    case 'shift_jis':
      for (const [p, cp] of index('jis0208')) {
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
      break;
    case 'euc-jp':
      for (const [p, cp] of index('jis0208')) {
        if (p < 94 * 94) add([Math.floor(p / 94) + 0xA1, (p % 94) + 0xA1], cp);
      }
      for (const [p, cp] of index('jis0212')) {
        if (p < 94 * 94) add([0x8F, Math.floor(p / 94) + 0xA1, (p % 94) + 0xA1], cp);
      }
      add([0x8E, 0xA1, 0x8E, 0xDF], [0xFF61, 0xFF9F]);
      break;
    case 'iso-2022-jp':
      add([0x1B, 0x24, 0x42], []);
      for (const [p, cp] of index('jis0208')) {
        if (p < 94 * 94) add([Math.floor(p / 94) + 0x21, (p % 94) + 0x21], cp);
      }
      add([0x1B, 0x28, 0x4A, 0x5C, 0x7E, 0x41], [0xA5, 0x203E, 0x41]);
      add([0x1B, 0x28, 0x49, 0x21, 0x5F], [0xFF61, 0xFF9F]);
      add([0x1B, 0x28, 0x42, 0x5C, 0x7E], [0x5C, 0x7E]);
      break;
    case 'euc-kr':
      for (const [p, cp] of index('euc-kr')) add([Math.floor(p / 190) + 0x81, (p % 190) + 0x41], cp);
      break;
    default:
      throw new Error(`no vectors for ${name}`);
  }
  return [b, cps];
}

const ALL = encodings().filter((e) => e.name !== 'replacement');

test('the Standard lists 39 encodings besides replacement', () => {
  assert.equal(ALL.length, 39);
});

for (const { name } of ALL) {
  test(`decode ${name}: the Standard's index through TextDecoder, whole and streamed`, async () => {
    const [byteList, cps] = vectors(name);
    const input = new Uint8Array(byteList);
    const expected = str(cps);
    assert.ok(cps.length > 0);
    const d = new TextDecoder(name);
    const whole = d.decode(input);
    if (whole !== expected) {
      const a = [...whole];
      const e = [...expected];
      const i = a.findIndex((c, k) => c !== e[k]);
      assert.fail(`${name}: first difference at scalar ${i}: got U+${a[i]?.codePointAt(0).toString(16)}, ` +
        `expected U+${e[i]?.codePointAt(0).toString(16)}`);
    }
    // Fatal mode agrees whenever the input has no errors.
    if (!cps.includes(FFFD)) assert.equal(new TextDecoder(name, { fatal: true }).decode(input), expected);
    // The same bytes in random pieces with {stream: true}.
    const next = rng(name.length * 7919 + input.length);
    let streamed = '';
    for (let i = 0; i < input.length;) {
      const n = 1 + Math.floor(next() * 7);
      streamed += d.decode(input.subarray(i, i + n), { stream: true });
      i += n;
    }
    streamed += d.decode();
    assert.equal(streamed, expected, `${name} streamed`);
    // And through TextDecoderStream, in a few chunks.
    const third = Math.ceil(input.length / 3);
    const chunks = [input.slice(0, third), input.slice(third, 2 * third), input.slice(2 * third)];
    assert.equal((await pipeChunks(new TextDecoderStream(name), chunks)).join(''), expected);
  });
}

test('single-byte encodings and x-user-defined: the Rust encoders invert the decoders (via the addon)', () => {
  for (const { name } of ALL) {
    const [byteList, cps] = vectors(name);
    if (byteList.length !== 256 || name.startsWith('UTF')) continue;
    const mapped = byteList.filter((_, i) => cps[i] !== FFFD);
    const text = str(cps.filter((cp) => cp !== FFFD));
    assert.deepEqual([...native._encodeHtml(name, text)], mapped, name);
  }
});

test('legacy multi-byte encodings: decode(encode(text)) is the text (encoders via the addon)', () => {
  const text = 'ASCII, 日本語のテキスト, 中文文本, 한국어 텍스트, ΑΒΓ, АБВ, ①②, ｱｲｳ';
  for (const label of ['shift_jis', 'euc-jp', 'iso-2022-jp', 'gbk', 'gb18030', 'big5', 'euc-kr']) {
    const bytes = native._encodeHtml(label, text);
    const back = new TextDecoder(label, { fatal: true }).decode(bytes);
    // ISO-2022-JP's encoder turns halfwidth katakana into fullwidth ones (index
    // ISO-2022-JP katakana); characters an encoding cannot represent come back as HTML
    // numeric references.
    const source = label === 'iso-2022-jp' ? text.replace('ｱｲｳ', 'アイウ') : text;
    const expected = source.replace(/[^\0-\x7F]/gu, (c) => (back.includes(c) ? c : `&#${c.codePointAt(0)};`));
    assert.equal(back, expected, label);
  }
  assert.equal(new TextDecoder('gb18030').decode(native._encodeHtml('gb18030', '\u{1F600}\u0080')), '\u{1F600}\u0080');
});

test('UTF-8: matches Node on random bytes (replacement and fatal), whole and streamed', () => {
  const next = rng(1);
  const interesting = [0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xA0, 0x9F, 0x90, 0x8F];
  for (let i = 0; i < 2000; i++) {
    const input = new Uint8Array(Math.floor(next() * 16)).map(() => interesting[Math.floor(next() * interesting.length)]);
    const expected = new NodeTextDecoder().decode(input);
    assert.equal(new TextDecoder().decode(input), expected, input.join(','));
    let nodeFatal, ourFatal;
    try { nodeFatal = new NodeTextDecoder('utf-8', { fatal: true }).decode(input); } catch (e) { nodeFatal = e.name; }
    try { ourFatal = new TextDecoder('utf-8', { fatal: true }).decode(input); } catch (e) { ourFatal = e.name; }
    assert.equal(ourFatal, nodeFatal, input.join(','));
    const ours = new TextDecoder();
    const node = new NodeTextDecoder();
    const cut = Math.floor(next() * (input.length + 1));
    assert.equal(ours.decode(input.subarray(0, cut), { stream: true }) + ours.decode(input.subarray(cut)),
      node.decode(input.subarray(0, cut), { stream: true }) + node.decode(input.subarray(cut)), input.join(','));
  }
});

test('UTF-8: ignoreBOM and BOM removal match Node', () => {
  const inputs = [[0xEF, 0xBB, 0xBF, 0x61], [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF], [0x61, 0xEF, 0xBB, 0xBF]];
  for (const ignoreBOM of [false, true]) {
    for (const b of inputs) {
      const input = new Uint8Array(b);
      assert.equal(new TextDecoder('utf-8', { ignoreBOM }).decode(input),
        new NodeTextDecoder('utf-8', { ignoreBOM }).decode(input));
    }
  }
});

test('UTF-16LE: matches Node on random bytes, odd lengths and lone surrogates', () => {
  const next = rng(2);
  const interesting = [0x00, 0x41, 0xD8, 0xDB, 0xDC, 0xDF, 0xFF, 0xFE, 0x3D, 0xDE];
  for (let i = 0; i < 2000; i++) {
    const input = new Uint8Array(Math.floor(next() * 13)).map(() => interesting[Math.floor(next() * interesting.length)]);
    assert.equal(new TextDecoder('utf-16le').decode(input), new NodeTextDecoder('utf-16le').decode(input), input.join(','));
  }
});

test('windows-1252: matches Node for 0x00–0x7F and 0xA0–0xFF; 0x80–0x9F follow the index', () => {
  const all = new Uint8Array(256).map((_, i) => i);
  const ours = new TextDecoder('windows-1252').decode(all);
  const node = new NodeTextDecoder('windows-1252').decode(all);
  assert.equal(ours.slice(0, 0x80), node.slice(0, 0x80));
  assert.equal(ours.slice(0xA0), node.slice(0xA0));
  assert.equal(ours.slice(0x80, 0xA0), '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ');
});

test('TextEncoder round trip with TextDecoder on the benchmark-like text', () => {
  const text = 'msgid "Hello"\nmsgstr "こんにちは — 你好 — Привет — \u{1F600}"\n'.repeat(100);
  const e = new TextEncoder();
  assert.equal(new TextDecoder().decode(e.encode(text)), text);
  assert.deepEqual(e.encode(text), new NodeTextEncoder().encode(text));
});
