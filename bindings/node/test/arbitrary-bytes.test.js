'use strict';
// Arbitrary bytes through every class the module exports (TextDecoder, TextDecoderStream,
// TextEncoder, TextEncoderStream, detect, and the addon's legacy encoder _encodeHtml),
// compared with one-shot references: the module's own whole-input decode, the Standard's
// indexes, and Node's built-in classes where those follow the Standard. The inputs are not
// valid text with chosen junk but every byte value, NULs, lone trail bytes after every byte
// value, valid text cut, shortened and lengthened at every position, and seeded random
// bytes and UTF-16 code units (lone surrogates included).
//
// .ci/extra.d/node.sh runs this file once per forced kernel level (TEXTCODEC_KERNEL), so
// each level's SIMD kernels see the same inputs; with TEXTCODEC_NODE_DIGEST=path it writes
// a digest of every one-shot result per section, which the script compares across levels
// (a kernel bug shared by the whole-input and the streamed paths shows up there).
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const { TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream, detect } = require('..');
const native = require('../native.js');
const { encodings, index, rng, pipeChunks } = require('./helpers.js');

const NodeTextDecoder = globalThis.TextDecoder;
const NodeTextEncoder = globalThis.TextEncoder;

// TEXTCODEC_ARBITRARY_SCALE=n (default 1) multiplies the random inputs and samples n
// times, for longer runs by hand; CI runs the defaults.
const SCALE = Math.max(1, Number.parseInt(process.env.TEXTCODEC_ARBITRARY_SCALE ?? '1', 10) || 1);
const STRIDE = Math.max(1, Math.round(31 / SCALE));
// TEXTCODEC_ARBITRARY_SEED=n (default 0) draws other random inputs, for runs by hand.
const SEED = Number.parseInt(process.env.TEXTCODEC_ARBITRARY_SEED ?? '0', 10) || 0;

// The SIMD kernel level the addon runs at (every failure message names it).
const KERNEL = native._kernelInfo().active;

// ---------------------------------------------------------------------------------------
// Encodings

const NAMES = encodings().map((e) => e.name.toLowerCase());
const DECODABLE = NAMES.filter((n) => n !== 'replacement');
const MULTI_BYTE = ['gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr'];
const UTF = ['utf-8', 'utf-16le', 'utf-16be'];
const SINGLE_BYTE = DECODABLE.filter((n) => !UTF.includes(n) && !MULTI_BYTE.includes(n) &&
  n !== 'x-user-defined');

// Node's built-in TextDecoder is an independent reference only where it follows the
// Standard. Excluded, each checked against encoding.bs and the Standard's indexes:
// - ibm866: ICU rotates 0x1A, 0x1C, 0x7F (IBM's control layout); the Standard decodes
//   every byte below 0x80 as ASCII.
// - koi8-u: ICU's KOI8-U decodes 0xAE/0xBE as box drawing; the index maps ў/Ў (KOI8-RU).
// - windows-874: ICU maps 0xDB–0xDE and 0xFC–0xFF to private use; the index leaves them
//   unassigned (errors).
// - windows-1252: Node decodes it as ISO-8859-1 (0x80–0x9F become C1 controls, not €‚ƒ…).
// - windows-1253: ICU decodes 0xAA as U+00AA; the index leaves it unassigned.
// - windows-1255: ICU leaves 0xCA unassigned; the index maps it to U+05BA.
// - iso-8859-16, x-user-defined: not supported by Node.
// - gbk: ICU's windows-936 decodes 0xFF as U+F8F5 and re-emits the digit of a lead and digit
//   cut by the end of input (C2 35 → U+FFFD 5); the Standard's gb18030 decoder, which GBK
//   uses, gives one error for both.
// - big5, euc-jp, shift_jis, euc-kr: ICU's tables and error recovery differ (Big5's HKSCS
//   pairs decode to private use, EUC-KR lacks the index's Unified Hangul Code pairs, the
//   EUC bytes 0x80–0xA0 decode as C1 controls, Shift_JIS 0x80 is an error and an ASCII
//   byte after an unmapped pair's lead is swallowed, not decoded again).
// - iso-2022-jp: ICU consumes an invalid escape sequence whole; the Standard emits one
//   error and decodes its bytes again (ESC $ ( → U+FFFD $ ().
// gb18030 is kept from ICU 73 on, whose converter follows GB18030-2022 as the index does
// (every two- and four-byte sequence was compared with Node 20's ICU 78).
const NODE_AGREES = new Set(['utf-8', 'utf-16le', 'utf-16be', 'iso-8859-2', 'iso-8859-3',
  'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8', 'iso-8859-8-i',
  'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'koi8-r', 'macintosh',
  'windows-1250', 'windows-1251', 'windows-1254', 'windows-1256', 'windows-1257',
  'windows-1258', 'x-mac-cyrillic']);
if (Number.parseInt(process.versions.icu ?? '0', 10) >= 73) NODE_AGREES.add('gb18030');
const nodeSupports = (name) => {
  try {
    return new NodeTextDecoder(name).encoding === name;
  } catch {
    return false;
  }
};

/** The Standard's decode table of a single-byte encoding (or x-user-defined): 256 code points, null for errors. */
function singleByteTable(name) {
  const table = [];
  if (name === 'x-user-defined') {
    for (let b = 0; b < 256; b++) table.push(b < 0x80 ? b : 0xF780 + b - 0x80);
    return table;
  }
  const idx = index(name === 'iso-8859-8-i' ? 'iso-8859-8' : name);
  for (let b = 0; b < 256; b++) table.push(b < 0x80 ? b : (idx.get(b - 0x80) ?? null));
  return table;
}

/** gb18030's four-byte sequence for U+FFFD, from the ranges index (the only byte sequence of a legacy encoding that decodes to U+FFFD). */
const GB18030_FFFD = (() => {
  let best = null;
  for (const [p, cp] of index('gb18030-ranges')) {
    if (cp <= 0xFFFD && (best === null || cp > best[1])) best = [p, cp];
  }
  const p = best[0] + 0xFFFD - best[1];
  return [Math.floor(p / 12600) + 0x81, Math.floor((p % 12600) / 1260) + 0x30,
    Math.floor((p % 1260) / 10) + 0x81, (p % 10) + 0x30];
})();

// ---------------------------------------------------------------------------------------
// Small tools

/** Deterministic choices from a seed (helpers.js's xorshift32), shifted by SEED. */
function prng(seed) {
  const next = rng(seed + SEED * 0x9E3779B1);
  const int = (n) => Math.floor(next() * n);
  return { int, chance: (p) => next() < p, pick: (list) => list[int(list.length)] };
}

const hex = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('hex');
/** Hex for messages: whole up to 256 bytes, else the start and the length. */
const hexAt = (u8) => (u8.length <= 256 ? hex(u8) : `${hex(u8.subarray(0, 256))}… (${u8.length} bytes)`);
const units = (s) => [...s].map((c) => c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')).join(' ');

/** Where two strings first differ, with a little context, for failure messages. */
function difference(expected, got) {
  if (typeof expected !== 'string' || typeof got !== 'string') return `expected ${expected}, got ${got}`;
  let i = 0;
  while (i < expected.length && expected[i] === got[i]) i++;
  const from = Math.max(0, i - 6);
  return `first difference at unit ${i}: expected [${units(expected.slice(from, i + 6))}], ` +
    `got [${units(got.slice(from, i + 6))}] (lengths ${expected.length}/${got.length})`;
}

/** Collects failures so one run reports each kind of disagreement, not only the first. */
function findings(title) {
  const list = [];
  let more = 0;
  return {
    add(message) {
      if (list.length < 12) list.push(message);
      else more++;
    },
    assertNone() {
      if (list.length) assert.fail(`${title}:\n  ${list.join('\n  ')}${more ? `\n  … and ${more} more` : ''}`);
    },
  };
}

const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const PAD = Buffer.from('The quick brown fox jumps over the lazy dog 0123456789.\n');
const pad = (n) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = PAD[i % PAD.length];
  return out;
};

/**
 * The same bytes as one of the buffer source types the API takes: a Uint8Array at offset
 * 0 or at an odd offset inside a larger buffer (kernels must not assume alignment), an
 * ArrayBuffer, a DataView, a Buffer, or a SharedArrayBuffer (copied by the module).
 */
function asSource(bytes, p) {
  switch (p.int(12)) {
    case 0: case 6: case 7: return bytes;
    case 1: case 8: case 9: {
      const offset = 1 + p.int(15);
      const big = new Uint8Array(offset + bytes.length + p.int(9)).fill(0xEE);
      big.set(bytes, offset);
      return big.subarray(offset, offset + bytes.length);
    }
    case 2: return bytes.slice().buffer;
    case 3: {
      const offset = 1 + p.int(7);
      const big = new Uint8Array(offset + bytes.length + 3).fill(0xEE);
      big.set(bytes, offset);
      return new DataView(big.buffer, offset, bytes.length);
    }
    case 4: case 10: return Buffer.from(bytes);
    case 5: {
      const shared = new SharedArrayBuffer(bytes.length);
      new Uint8Array(shared).set(bytes);
      return shared;
    }
    default: return new Uint8Array(bytes); // a copy: the only view of its own buffer
  }
}

/**
 * Random chunk boundaries over `length` bytes: empty chunks, single bytes, short runs, and
 * long ones (longer for long inputs, so that they take some tens of chunks, not hundreds);
 * now and then the whole input as one chunk.
 */
function chunking(length, p) {
  if (p.chance(0.08)) return [[0, length]];
  const cuts = [];
  const long = Math.max(90, length >> 3);
  for (let at = 0; at < length;) {
    const r = p.int(10);
    const n = r < 1 ? 0 : r < 4 ? 1 : r < 7 ? 2 + p.int(3) : 5 + p.int(long);
    cuts.push([at, Math.min(length, at + n)]);
    at += n;
  }
  if (p.chance(0.2)) cuts.push([length, length]);
  return cuts;
}

/** Streamed decode; the last chunk goes without {stream: true} half of the time, else decode() ends it. */
function decodeStreamed(decoder, bytes, cuts, p) {
  let out = '';
  const lastWithData = cuts.length > 0 && p.chance(0.5);
  cuts.forEach(([a, z], k) => {
    // An empty chunk is sometimes no argument at all (undefined: no bytes).
    const source = a === z && p.chance(0.5) ? undefined : asSource(bytes.subarray(a, z), p);
    out += lastWithData && k === cuts.length - 1 ? decoder.decode(source) : decoder.decode(source, { stream: true });
  });
  if (!lastWithData) out += decoder.decode();
  return out;
}

/** A decode that reports a thrown TypeError as null (anything else is rethrown). */
function attempt(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TypeError) return null;
    throw e;
  }
}

/**
 * Runs `fn` with stack traces off: most arbitrary inputs make the fatal decoders throw, and
 * capturing a stack for each TypeError would dominate the run time. The findings are
 * asserted after, with stack traces back on.
 */
function quietly(fn) {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const countFFFD = (s) => {
  let n = 0;
  for (let i = s.indexOf('\uFFFD'); i !== -1; i = s.indexOf('\uFFFD', i + 1)) n++;
  return n;
};

const find = (bytes, pattern, step = 1) => {
  let n = 0;
  outer: for (let i = 0; i + pattern.length <= bytes.length; i += step) {
    for (let k = 0; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer;
    n++;
  }
  return n;
};

let gb18030Pointers = null;

/**
 * How many U+FFFD a gb18030 (or GBK) input encodes literally: its four bytes parsed as one
 * sequence. They can be another sequence's tail (81 84 is a pair), so this follows the
 * decoder's structure (encoding.bs, the gb18030 decoder): which bytes form a sequence and
 * which are restored to the queue. It needs the index only to know which pairs decode.
 */
function gb18030LiteralFFFD(bytes) {
  gb18030Pointers ??= new Set(index('gb18030').keys());
  const restored = [];
  let first = 0;
  let second = 0;
  let third = 0;
  let count = 0;
  for (let i = 0; restored.length > 0 || i < bytes.length;) {
    const byte = restored.length > 0 ? restored.shift() : bytes[i++];
    if (third) {
      if (byte >= 0x30 && byte <= 0x39) {
        if ([first, second, third, byte].join() === GB18030_FFFD.join()) count++;
      } else {
        restored.unshift(second, third, byte);
      }
      first = second = third = 0;
    } else if (second) {
      if (byte >= 0x81 && byte <= 0xFE) third = byte;
      else {
        restored.unshift(second, byte);
        first = second = 0;
      }
    } else if (first) {
      if (byte >= 0x30 && byte <= 0x39) second = byte;
      else {
        const inRange = (byte >= 0x40 && byte <= 0x7E) || (byte >= 0x80 && byte <= 0xFE);
        const pointer = (first - 0x81) * 190 + byte - (byte < 0x7F ? 0x40 : 0x41);
        if (!(inRange && gb18030Pointers.has(pointer)) && byte < 0x80) restored.unshift(byte);
        first = 0;
      }
    } else if (byte >= 0x81 && byte <= 0xFE) {
      first = byte;
    }
  }
  return count;
}

/**
 * How many U+FFFD the input encodes literally (valid sequences for U+FFFD). UTF-8's
 * EF BF BD always decodes as one (EF is never a trail byte); UTF-16's unit FFFD sits at an
 * even offset; gb18030 has a four-byte sequence; no index of the Standard maps a pointer
 * to U+FFFD (checked below).
 */
function literalFFFD(name, bytes) {
  switch (name) {
    case 'utf-8': return find(bytes, [0xEF, 0xBF, 0xBD]);
    case 'utf-16le': return find(bytes, [0xFD, 0xFF], 2);
    case 'utf-16be': return find(bytes, [0xFF, 0xFD], 2);
    case 'gbk':
    case 'gb18030': return gb18030LiteralFFFD(bytes);
    default: return 0;
  }
}

/** Whether fatal mode must throw: the replacement decode has a U+FFFD the input did not encode. */
const fatalMustThrow = (name, bytes, replaced) => countFFFD(replaced) > literalFFFD(name, bytes);

/** UTF-8 of a JavaScript string after USVString conversion (lone surrogates → U+FFFD), written here as the reference. */
function utf8Of(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xDC00 && next <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (next - 0xDC00);
        i++;
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xC0 | (cp >> 6), 0x80 | (cp & 0x3F));
    else if (cp < 0x10000) out.push(0xE0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F));
    else out.push(0xF0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3F), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F));
  }
  return Uint8Array.from(out);
}

/** The string as USVString conversion leaves it (lone surrogates → U+FFFD). */
const usv = (s) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** Random UTF-16 code units: ASCII (NUL included), two- and three-byte characters, pairs, lone leads and trails. */
function randomText(p, length) {
  const out = [];
  while (out.length < length) {
    const r = p.int(20);
    if (r < 7) out.push(p.int(0x80));
    else if (r < 10) out.push(0x80 + p.int(0x780));
    else if (r < 13) out.push(p.chance(0.5) ? 0x800 + p.int(0xD800 - 0x800) : 0xE000 + p.int(0x2000));
    else if (r < 15) out.push(0xD800 + p.int(0x400), 0xDC00 + p.int(0x400));
    else if (r < 17) out.push(0xD800 + p.int(0x400));
    else if (r < 19) out.push(0xDC00 + p.int(0x400));
    else out.push(p.pick([0x00, 0x80, 0xFFFD, 0xFEFF, 0xFFFF, 0xDBFF, 0xDC00, 0xE5E5, 0xA5, 0x203E, 0xFF76]));
  }
  let s = '';
  for (let i = 0; i < out.length; i += 4096) s += String.fromCharCode(...out.slice(i, i + 4096));
  return s;
}

// ---------------------------------------------------------------------------------------
// Inputs

// Bytes that steer the legacy decoders' state machines: NUL, ISO-2022-JP's escapes and
// shifts, gb18030's digits, UTF-8/UTF-16 leads and trails, EUC-JP's single shifts, BOM bytes.
const SPECIAL = [0x00, 0x0E, 0x0F, 0x1B, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x30, 0x39, 0x5C,
  0x7E, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0xA0, 0xA1, 0xBB, 0xBF, 0xC0, 0xC2, 0xD8, 0xDC, 0xDF,
  0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFD, 0xFE, 0xFF];
const SAMPLE_TEXT = 'Aé€ÿ\u0080 日本語 中文 한국어 Ωπ Жж ♥ \u{1F600} ｱｲ ¥‾ \uFFFD ';

/** Valid text in the encoding (with a BOM for the UTF ones), rich in its own characters. */
function sample(name, p) {
  const high = new Uint8Array(160).map(() => 0x80 + p.int(0x80));
  const own = [...new TextDecoder(name).decode(high)].filter((c) => c !== '\uFFFD').slice(0, 40).join('');
  // A single-byte encoding's sample is its own characters: the shared text would be
  // mostly numeric references there.
  const text = (SINGLE_BYTE.includes(name) || name === 'x-user-defined' ? 'A\u0080 ' : SAMPLE_TEXT) + own;
  if (name === 'utf-8') return concat([0xEF, 0xBB, 0xBF], utf8Of(text));
  if (name === 'utf-16le' || name === 'utf-16be') {
    const out = [name === 'utf-16le' ? 0xFF : 0xFE, name === 'utf-16le' ? 0xFE : 0xFF];
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      out.push(...(name === 'utf-16le' ? [u & 0xFF, u >> 8] : [u >> 8, u & 0xFF]));
    }
    return Uint8Array.from(out);
  }
  return Uint8Array.from(native._encodeHtml(name, text));
}

function randomBytes(p, validSample) {
  const length = p.chance(0.03) ? 1000 + p.int(4000) : p.int(p.chance(0.5) ? 24 : 300);
  const out = [];
  const mode = p.int(4);
  while (out.length < length) {
    if (mode === 0) out.push(p.int(256));
    else if (mode === 1) {
      // ASCII runs long enough for the vector kernels, broken by a few steering bytes.
      out.push(...pad(p.int(80)).map((b, i) => (b + i * p.int(3)) & 0x7F));
      for (let k = 1 + p.int(3); k > 0; k--) out.push(p.chance(0.6) ? p.pick(SPECIAL) : 0x80 + p.int(0x80));
    } else if (mode === 2) out.push(p.chance(0.5) ? p.pick(SPECIAL) : 0x80 + p.int(0x80));
    else {
      // Pieces of valid text glued with junk.
      const a = p.int(validSample.length);
      out.push(...validSample.subarray(a, a + p.int(40)));
      if (p.chance(0.7)) out.push(p.chance(0.5) ? p.pick(SPECIAL) : p.int(256));
    }
  }
  return Uint8Array.from(out.slice(0, length));
}

/** Every input for one encoding; `sample` is the valid text the cut inputs come from. */
function corpus(name, seed) {
  const p = prng(seed);
  const inputs = [];
  const add = (b) => inputs.push(b instanceof Uint8Array ? b : Uint8Array.from(b));
  const every = (f) => Array.from({ length: 256 }, (_, b) => f(b)).flat();
  // Every byte value alone, all of them in a row both ways, doubled, after a NUL.
  for (let b = 0; b < 256; b++) add([b]);
  add(every((b) => b));
  add(every((b) => 255 - b));
  add(every((b) => [b, b]));
  add(every((b) => [0x00, b]));
  // NULs, and the NUL + lone continuation byte that hot-pair kernels once took for a pair.
  add([0x00]);
  add(new Uint8Array(100));
  add(concat([0x00, 0x80], pad(64)));
  // Literal U+FFFD (UTF-8, UTF-16, gb18030), whole, cut, doubled and after bytes that can
  // take its first byte into another sequence.
  for (const literal of [[0xEF, 0xBF, 0xBD], [0xFD, 0xFF], [0xFF, 0xFD], GB18030_FFFD]) {
    add(literal);
    add(literal.slice(0, -1));
    add([...literal, ...literal]);
    for (const b of [0x00, 0x81, 0x84, 0xD8, 0xE0, 0xFE]) add([b, ...literal, 0x61]);
  }
  // BOMs, whole and cut.
  for (const bom of [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]]) {
    add(bom);
    add([...bom, 0x61, 0x00]);
    add(bom.slice(0, -1));
  }
  // A lone trail byte after every byte value: bare, and inside ASCII text long enough for
  // the vector kernels, with the legacy encodings' trail ranges too (0xA1, 0x40, 0x30).
  for (let b = 0; b < 256; b++) {
    add([b, 0x80]);
    add(concat(pad(b % 67), [b, 0x80], pad(5), [b, 0xBF, 0x00, b, 0x80, b, 0xA1, b, 0x40, b, 0x30, 0x30],
      pad(40), [b]));
  }
  // Valid text cut, shortened and lengthened at every position.
  const valid = sample(name, p);
  add(valid);
  for (let i = 0; i <= valid.length; i++) {
    add(valid.subarray(0, i));
    if (i < valid.length) add(concat(valid.subarray(0, i), valid.subarray(i + 1)));
    add(concat(valid.subarray(0, i), [[0x80, 0xFF, 0x00, 0x1B][i % 4]], valid.subarray(i)));
  }
  // Seeded random bytes.
  for (let k = 0; k < 140 * SCALE; k++) add(randomBytes(p, valid));
  return { inputs, valid };
}

// ---------------------------------------------------------------------------------------
// Digests of every one-shot result, per section, for the comparison across kernel levels.

const digests = new Map();
function digest(section, value) {
  let h = digests.get(section);
  if (!h) digests.set(section, (h = crypto.createHash('sha256')));
  if (typeof value === 'string') h.update(Buffer.from(value, 'utf16le'));
  else if (value === null) h.update('null');
  else h.update(value);
  h.update('|');
}
process.on('exit', () => {
  const file = process.env.TEXTCODEC_NODE_DIGEST;
  if (!file) return;
  const out = {};
  for (const [section, h] of [...digests].sort(([a], [b]) => (a < b ? -1 : 1))) out[section] = h.digest('hex');
  fs.writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
});

// The replacement-mode one-shot decode of each input, shared by the later tests.
const decoded = new Map();
const corpora = new Map();
const corpusOf = (name) => {
  if (!corpora.has(name)) corpora.set(name, corpus(name, 0x5EED + DECODABLE.indexOf(name) * 7919));
  return corpora.get(name);
};

// ---------------------------------------------------------------------------------------
// TextDecoder

test('the kernel level TEXTCODEC_KERNEL asks for is the one running', () => {
  const info = native._kernelInfo();
  const asked = process.env.TEXTCODEC_KERNEL;
  assert.ok(info.supported.includes(info.active), JSON.stringify(info));
  if (asked) {
    // node.sh asks only for levels /proc/cpuinfo shows: a cap or an unknown name here
    // would test another level than the one named.
    assert.deepEqual([info.request, info.requested, info.active], ['honoured', asked, asked], JSON.stringify(info));
  } else {
    assert.deepEqual([info.request, info.active], ['unset', info.supported.at(-1)], JSON.stringify(info));
  }
});

test('no index of the Standard maps a pointer to U+FFFD (what literalFFFD assumes)', () => {
  const { indexes } = JSON.parse(fs.readFileSync(require('./helpers.js').DATA_FILE, 'utf8'));
  assert.ok(Object.keys(indexes).length >= 30);
  for (const [name, entries] of Object.entries(indexes)) {
    assert.ok(!entries.some(([, codePoint]) => codePoint === 0xFFFD), name);
  }
  assert.equal(DECODABLE.length, 39);
  assert.equal(SINGLE_BYTE.length, 28);
});

for (const name of DECODABLE) {
  test(`TextDecoder ${name}: arbitrary bytes, one-shot against streamed, fatal, the index and Node`, () => {
    const { inputs, valid } = corpusOf(name);
    const p = prng(0xC0DE + DECODABLE.indexOf(name));
    const problems = findings(`TextDecoder ${name} (kernel ${KERNEL})`);
    const table = SINGLE_BYTE.includes(name) || name === 'x-user-defined' ? singleByteTable(name) : null;
    const node = NODE_AGREES.has(name) && nodeSupports(name);
    const results = [];
    // Fresh decoders for the reference; the others are reused across inputs, as a call
    // without {stream: true} must leave a decoder as new (errors included).
    const keeping = new TextDecoder(name, { ignoreBOM: true });
    const streamed = [new TextDecoder(name), new TextDecoder(name, { ignoreBOM: true })];
    const fatalOneShot = [new TextDecoder(name, { fatal: true }), new TextDecoder(name, { fatal: true, ignoreBOM: true })];
    let fatal = new TextDecoder(name, { fatal: true });
    const nodeDecoders = node && [new NodeTextDecoder(name), new NodeTextDecoder(name, { ignoreBOM: true }),
      new NodeTextDecoder(name, { fatal: true }), new NodeTextDecoder(name, { fatal: true, ignoreBOM: true })];
    quietly(() => inputs.forEach((bytes) => {
      const ref = new TextDecoder(name).decode(bytes);
      const refKeep = keeping.decode(bytes);
      results.push(ref);
      digest(`decode ${name}`, ref);
      digest(`decode ${name}`, refKeep);
      const at = () => `${name} input ${hexAt(bytes)}`;

      // The Standard's table, for the single-byte encodings and x-user-defined (no BOM).
      if (table) {
        let expected = '';
        for (const b of bytes) expected += String.fromCodePoint(table[b] ?? 0xFFFD);
        if (ref !== expected) problems.add(`${at()}: index: ${difference(expected, ref)}`);
        if (refKeep !== expected) problems.add(`${at()} ignoreBOM: index: ${difference(expected, refKeep)}`);
      }

      // The same bytes in random chunks with {stream: true}.
      const keep = p.chance(0.5);
      const got = decodeStreamed(streamed[keep ? 1 : 0], bytes, chunking(bytes.length, p), p);
      if (got !== (keep ? refKeep : ref)) {
        problems.add(`${at()} streamed${keep ? ' ignoreBOM' : ''}: ${difference(keep ? refKeep : ref, got)}`);
      }

      // Fatal mode: an error exactly when the replacement decode has a U+FFFD the input did
      // not encode; else the same text. One-shot (any buffer source) and streamed (a
      // decoder that threw mid-stream is replaced: its state is not the Standard's concern).
      const must = fatalMustThrow(name, bytes, ref);
      const ignoreBOM = p.chance(0.5);
      const expected = ignoreBOM ? refKeep : ref;
      const oneShot = attempt(() => fatalOneShot[ignoreBOM ? 1 : 0].decode(asSource(bytes, p)));
      const fatalStreamed = attempt(() => decodeStreamed(fatal, bytes, chunking(bytes.length, p), p));
      if (fatalStreamed === null) fatal = new TextDecoder(name, { fatal: true });
      for (const [how, out] of [['one-shot', oneShot], ['streamed', fatalStreamed]]) {
        const want = how === 'streamed' ? ref : expected;
        if (out === null && !must) problems.add(`${at()} fatal ${how}: threw, but the replacement decode is ${units(ref).slice(0, 200)}`);
        else if (out !== null && must) problems.add(`${at()} fatal ${how}: no error, returned [${units(out).slice(0, 200)}]`);
        else if (out !== null && out !== want) problems.add(`${at()} fatal ${how}: ${difference(want, out)}`);
      }
      digest(`decode ${name}`, oneShot);

      // Node's built-in decoder, where it follows the Standard.
      if (node) {
        for (const [k, mine] of [[0, ref], [1, refKeep]]) {
          const theirs = nodeDecoders[k].decode(bytes);
          if (theirs !== mine) problems.add(`${at()}${k ? ' ignoreBOM' : ''}: Node's TextDecoder: ${difference(theirs, mine)}`);
        }
        const theirs = attempt(() => nodeDecoders[ignoreBOM ? 3 : 2].decode(bytes));
        if (theirs !== oneShot) {
          problems.add(`${at()} fatal${ignoreBOM ? ' ignoreBOM' : ''}: Node's TextDecoder ${theirs === null ? 'threw' : `gave ${units(theirs)}`}, ` +
            `textcodec ${oneShot === null ? 'threw' : `gave ${units(oneShot)}`}`);
        }
      }
    }));

    // The valid text split in two at every position.
    const whole = new TextDecoder(name).decode(valid);
    const d = new TextDecoder(name);
    for (let i = 0; i <= valid.length; i++) {
      const got = d.decode(valid.subarray(0, i), { stream: true }) + d.decode(valid.subarray(i));
      if (got !== whole) problems.add(`${name} ${hex(valid)} split at ${i}: ${difference(whole, got)}`);
    }
    decoded.set(name, results);
    problems.assertNone();
  });
}

// ---------------------------------------------------------------------------------------
// TextDecoderStream: every 31st input (at scale 1), in random chunks of every buffer source type.

for (const name of DECODABLE) {
  test(`TextDecoderStream ${name}: arbitrary bytes in random chunks match the one-shot decode`, async () => {
    const { inputs } = corpusOf(name);
    const p = prng(0x57EA + DECODABLE.indexOf(name));
    const problems = findings(`TextDecoderStream ${name} (kernel ${KERNEL})`);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0; // as in quietly(): most fatal streams error
    try {
      for (let k = DECODABLE.indexOf(name) % STRIDE; k < inputs.length; k += STRIDE) await pipeOne(inputs[k]);
    } finally {
      Error.stackTraceLimit = limit;
    }
    problems.assertNone();

    async function pipeOne(bytes) {
      const ignoreBOM = p.chance(0.5);
      const ref = new TextDecoder(name, { ignoreBOM }).decode(bytes);
      const chunks = chunking(bytes.length, p).map(([a, z]) => asSource(bytes.subarray(a, z), p));
      const at = () => `${name} input ${hexAt(bytes)}${ignoreBOM ? ' ignoreBOM' : ''}`;
      const got = (await pipeChunks(new TextDecoderStream(name, { ignoreBOM }), chunks)).join('');
      if (got !== ref) problems.add(`${at()}: ${difference(ref, got)}`);
      let fatalOut;
      try {
        fatalOut = (await pipeChunks(new TextDecoderStream(name, { fatal: true, ignoreBOM }), chunks)).join('');
      } catch (e) {
        if (!(e instanceof TypeError)) throw e;
        fatalOut = null;
      }
      const must = fatalMustThrow(name, bytes, ref);
      if (fatalOut === null && !must) problems.add(`${at()} fatal: errored on ${units(ref).slice(0, 200)}`);
      else if (fatalOut !== null && must) problems.add(`${at()} fatal: no error`);
      else if (fatalOut !== null && fatalOut !== ref) problems.add(`${at()} fatal: ${difference(ref, fatalOut)}`);
    }
  });
}

// ---------------------------------------------------------------------------------------
// detect: on arbitrary bytes, a candidate is disqualified exactly when its decoder (the
// TextDecoder, fatal) rejects the input, as long as the detector read all of it.

test('detect: arbitrary bytes; disqualification agrees with each fatal TextDecoder', () => {
  const candidates = ['utf-8', 'utf-16le', 'utf-16be', ...SINGLE_BYTE, ...MULTI_BYTE].sort();
  const problems = findings(`detect (kernel ${KERNEL})`);
  const p = prng(0xDE7EC7);
  const fatal = new Map(candidates.map((c) => [c, new TextDecoder(c, { fatal: true })]));
  quietly(() => DECODABLE.forEach((name) => {
    const { inputs } = corpusOf(name);
    for (let k = (3 + DECODABLE.indexOf(name)) % STRIDE; k < inputs.length; k += STRIDE) {
      const bytes = inputs[k];
      const allowUTF8 = p.chance(0.8);
      const result = detect(asSource(bytes, p), { allowUTF8 });
      digest('detect', JSON.stringify(result));
      const at = () => `input ${hexAt(bytes)} allowUTF8=${allowUTF8}`;
      const names = result.ranking.map((c) => c.encoding);
      if (names.slice().sort().join() !== candidates.join()) {
        problems.add(`${at()}: ranking lists ${names.join(',')}`);
        continue;
      }
      if (new TextDecoder(result.encoding).encoding !== result.encoding) problems.add(`${at()}: guess ${result.encoding} is not a name`);
      if (result.stoppedEarly) continue;
      let survivors = 0;
      // Bytes that are all printable ASCII (and ESC) are never read as UTF-16.
      const asciiText = bytes.every((b) => b < 0x80 && !(b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)));
      for (const c of result.ranking) {
        const rejects = (c.encoding === 'utf-8' && !allowUTF8) ||
          (c.encoding.startsWith('utf-16') && asciiText) ||
          attempt(() => fatal.get(c.encoding).decode(bytes)) === null;
        if (!rejects) survivors++;
        if (c.disqualified !== rejects) {
          problems.add(`${at()}: ${c.encoding} disqualified=${c.disqualified}, its fatal TextDecoder ${rejects ? 'rejects' : 'accepts'} the input`);
        }
      }
      const guess = result.ranking.find((c) => c.encoding === result.encoding);
      if (survivors > 0 && guess.disqualified) problems.add(`${at()}: the guess ${result.encoding} is disqualified but ${survivors} survive`);
    }
  }));
  problems.assertNone();
});

// ---------------------------------------------------------------------------------------
// TextEncoder, encodeInto, TextEncoderStream: strings of random code units (lone
// surrogates included) and the text decoded above, against UTF-8 written here and Node's
// built-in TextEncoder.

/** The strings the encoder tests use: random code units, and a share of the decoded text. */
function encoderStrings() {
  const p = prng(0xE7C0DE);
  const out = [];
  for (let k = 0; k < 400 * SCALE; k++) out.push(randomText(p, p.chance(0.03) ? 2000 + p.int(3000) : p.int(p.chance(0.5) ? 12 : 200)));
  // Every lone surrogate position: alone, first, last, between ASCII and non-ASCII, reversed pairs.
  for (const s of ['\uD800', '\uDC00', '\uDBFF\uDBFF', '\uDC00\uD800', 'a\uD83D', '\uDE00a', 'é\uD83D\uD83D\uDE00',
    '\uD83D\uDE00\uDE00', '\0\uD800\0', '\u0080\uDFFF\u0080', '\uFFFF\uD800\uFFFF']) out.push(s, s.repeat(40));
  for (const name of DECODABLE) {
    const list = decoded.get(name) ?? corpusOf(name).inputs.map((b) => new TextDecoder(name).decode(b));
    for (let k = 0; k < list.length; k += 17) out.push(list[k]);
  }
  return out;
}

/** encodeInto's expected result: whole scalar values while they fit, lone surrogates as U+FFFD's 3 bytes. */
function expectedInto(s, room) {
  let read = 0;
  let written = 0;
  while (read < s.length) {
    const u = s.charCodeAt(read);
    const pair = u >= 0xD800 && u <= 0xDBFF && read + 1 < s.length &&
      s.charCodeAt(read + 1) >= 0xDC00 && s.charCodeAt(read + 1) <= 0xDFFF;
    const size = pair ? 4 : u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
    if (written + size > room) break;
    written += size;
    read += pair ? 2 : 1;
  }
  return { read, written };
}

test('TextEncoder.encode and encodeInto: arbitrary code units against UTF-8 written here and Node', () => {
  const problems = findings(`TextEncoder (kernel ${KERNEL})`);
  const p = prng(0x1A70);
  const encoder = new TextEncoder();
  const nodeEncoder = new NodeTextEncoder();
  for (const s of encoderStrings()) {
    const at = () => `string [${units(s).slice(0, 300)}]`;
    const expected = utf8Of(s);
    const got = encoder.encode(s);
    digest('encode', got);
    if (!(got instanceof Uint8Array) || hex(got) !== hex(expected)) problems.add(`${at()}: encode gave ${hex(got)}, expected ${hex(expected)}`);
    if (hex(nodeEncoder.encode(s)) !== hex(expected)) problems.add(`${at()}: Node's TextEncoder gave ${hex(nodeEncoder.encode(s))}`);
    // encodeInto at every destination size (a sample of them for long strings), at an odd
    // offset inside a larger buffer whose other bytes must stay untouched.
    const sizes = expected.length <= 48
      ? Array.from({ length: expected.length + 3 }, (_, i) => i)
      : [0, 1, 2, 3, 4, expected.length - 1, expected.length, expected.length + 1,
        ...Array.from({ length: 12 }, () => p.int(expected.length + 1))];
    for (const room of sizes) {
      // Shared memory now and then: the module encodes privately and copies in.
      const offset = p.int(9);
      const size = offset + room + 8;
      const memory = p.chance(0.1) ? new Uint8Array(new SharedArrayBuffer(size)).fill(0xA5) : new Uint8Array(size).fill(0xA5);
      const dest = memory.subarray(offset, offset + room);
      const want = expectedInto(s, room);
      const r = encoder.encodeInto(s, dest);
      if (r.read !== want.read || r.written !== want.written) {
        problems.add(`${at()} room ${room}: encodeInto gave ${JSON.stringify(r)}, expected ${JSON.stringify(want)}`);
        continue;
      }
      const wanted = concat(new Uint8Array(offset).fill(0xA5), expected.subarray(0, want.written),
        new Uint8Array(memory.length - offset - want.written).fill(0xA5));
      if (hex(memory) !== hex(wanted)) problems.add(`${at()} room ${room} offset ${offset}: memory ${hex(memory)}, expected ${hex(wanted)}`);
      const theirs = nodeEncoder.encodeInto(s, new Uint8Array(room));
      if (theirs.read !== want.read || theirs.written !== want.written) {
        problems.add(`${at()} room ${room}: Node's encodeInto gave ${JSON.stringify(theirs)}, expected ${JSON.stringify(want)}`);
      }
    }
  }
  problems.assertNone();
});

test('TextEncoderStream: arbitrary code units split anywhere (pairs too) match the one-shot encode', async () => {
  const problems = findings(`TextEncoderStream (kernel ${KERNEL})`);
  const p = prng(0x57E0);
  const strings = encoderStrings();
  for (let k = 0; k < strings.length; k += 3) {
    const s = strings[k];
    const cuts = chunking(s.length, p);
    const chunks = cuts.map(([a, z]) => s.slice(a, z));
    const out = await pipeChunks(new TextEncoderStream(), chunks);
    const got = concat(...out);
    const expected = utf8Of(s);
    if (out.some((c) => !(c instanceof Uint8Array) || c.length === 0)) problems.add(`chunks of [${units(s)}]: an empty or non-Uint8Array chunk`);
    if (hex(got) !== hex(expected)) {
      problems.add(`chunks ${JSON.stringify(chunks.map(units))}: got ${hex(got)}, expected ${hex(expected)}`);
    }
  }
  problems.assertNone();
});

// ---------------------------------------------------------------------------------------
// The legacy encoder (the addon's _encodeHtml, the Standard's encode with HTML numeric
// references for unmappable characters) on the decoded text and on random code units.

/** For each encodable code point of a legacy encoding, what the Standard's encoder maps it to is decodable back to itself, except as noted. */
function singleByteEncoder(name) {
  const table = singleByteTable(name);
  const map = new Map();
  table.forEach((cp, b) => {
    if (cp !== null && !map.has(cp)) map.set(cp, b);
  });
  return map;
}

// Code points whose encoding decodes to another one: the Japanese encoders write U+00A5 and
// U+203E as 0x5C/0x7E and U+2212 as the fullwidth minus, and ISO-2022-JP halfwidth
// katakana as fullwidth ones.
const NOT_ROUND_TRIP = new Set([0xA5, 0x203E, 0x2212]);
const isHalfwidthKatakana = (cp) => cp >= 0xFF61 && cp <= 0xFF9F;
// The gb18030 encoder's asymmetric table (GB18030-2005 compatibility): these private-use
// code points encode to pairs that the 2022 index decodes to other characters.
const GB18030_ASYMMETRIC = new Map([[0xE78D, 'a6d9'], [0xE78E, 'a6da'], [0xE78F, 'a6db'],
  [0xE790, 'a6dc'], [0xE791, 'a6dd'], [0xE792, 'a6de'], [0xE793, 'a6df'], [0xE794, 'a6ec'],
  [0xE795, 'a6ed'], [0xE796, 'a6f3'], [0xE81E, 'fe59'], [0xE826, 'fe61'], [0xE82B, 'fe66'],
  [0xE82C, 'fe67'], [0xE832, 'fe6d'], [0xE843, 'fe7e'], [0xE854, 'fe90'], [0xE864, 'fea0']]);

for (const name of NAMES) {
  test(`legacy encoder ${name}: arbitrary text, whole against character by character`, () => {
    const problems = findings(`_encodeHtml ${name} (kernel ${KERNEL})`);
    const p = prng(0xE4C0 + NAMES.indexOf(name));
    const texts = [];
    for (const source of DECODABLE) {
      const list = decoded.get(source) ?? [];
      for (let k = source === name ? 0 : NAMES.indexOf(name) % 29; k < list.length; k += source === name ? 5 : 151) texts.push(list[k]);
    }
    for (let k = 0; k < 40 * SCALE; k++) texts.push(randomText(p, p.int(120)));
    const utf8Output = UTF.includes(name) || name === 'replacement';
    const table = SINGLE_BYTE.includes(name) || name === 'x-user-defined' ? singleByteEncoder(name) : null;
    const decodeFatal = utf8Output ? null : new TextDecoder(name, { fatal: true });
    const pieces = new Map();
    for (const raw of texts) {
      const text = usv(raw);
      const bytes = native._encodeHtml(name, raw);
      digest(`encode ${name}`, bytes);
      const at = () => `${name} text [${units(raw).slice(0, 300)}]`;
      if (utf8Output) {
        // UTF-16BE/LE and replacement encode as UTF-8 (get an output encoding).
        if (hex(bytes) !== hex(utf8Of(raw))) problems.add(`${at()}: got ${hex(bytes)}, expected ${hex(utf8Of(raw))}`);
        continue;
      }
      if (table) {
        const expected = [];
        for (const c of text) {
          const cp = c.codePointAt(0);
          if (table.has(cp)) expected.push(table.get(cp));
          else expected.push(...Buffer.from(`&#${cp};`));
        }
        if (hex(bytes) !== hex(Uint8Array.from(expected))) problems.add(`${at()}: got ${hex(bytes)}, expected ${hex(Uint8Array.from(expected))}`);
        continue;
      }
      // Multi-byte: the output decodes without error, to what each character alone encodes
      // to, and each character alone to itself or its numeric reference.
      const back = attempt(() => decodeFatal.decode(bytes));
      if (back === null) {
        problems.add(`${at()}: output ${hex(bytes)} does not decode`);
        continue;
      }
      let expected = '';
      for (const c of text) {
        if (!pieces.has(c)) {
          const alone = native._encodeHtml(name, c);
          const piece = decodeFatal.decode(alone);
          const cp = c.codePointAt(0);
          let ok;
          if ((name === 'gb18030' || name === 'gbk') && GB18030_ASYMMETRIC.has(cp)) {
            ok = hex(alone) === GB18030_ASYMMETRIC.get(cp);
          } else if (name === 'gb18030') {
            // gb18030 encodes every other scalar value but U+E5E5 (which index gb18030 does
            // not decode to, for compatibility).
            ok = piece === (cp === 0xE5E5 ? '&#58853;' : c);
          } else if (name === 'iso-2022-jp' && (cp === 0x0E || cp === 0x0F || cp === 0x1B)) {
            // Shifts and ESC would change the decoder's state: an error with U+FFFD.
            ok = piece === '&#65533;';
          } else {
            ok = piece === c || piece === `&#${cp};` || NOT_ROUND_TRIP.has(cp) ||
              (name === 'iso-2022-jp' && isHalfwidthKatakana(cp));
          }
          if (!ok) problems.add(`${name} character U+${cp.toString(16)}: encodes to ${hex(alone)}, decoded ${units(piece)}`);
          pieces.set(c, piece);
        }
        expected += pieces.get(c);
      }
      if (back !== expected) problems.add(`${at()}: ${difference(expected, back)}`);
    }
    problems.assertNone();
  });
}
