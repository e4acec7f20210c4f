'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { TextDecoder, TextDecoderStream } = require('./helpers.js').textcodec();
const { encodings, bytes } = require('./helpers.js');

test('constructor defaults: label "utf-8", fatal false, ignoreBOM false', () => {
  for (const d of [new TextDecoder(), new TextDecoder(undefined), new TextDecoder(undefined, undefined),
    new TextDecoder('utf-8', {}), new TextDecoder('utf-8', null)]) {
    assert.equal(d.encoding, 'utf-8');
    assert.equal(d.fatal, false);
    assert.equal(d.ignoreBOM, false);
  }
});

test('every label of every encoding, with ASCII whitespace and any ASCII case', () => {
  let checked = 0;
  for (const { name, labels } of encodings()) {
    for (const label of labels) {
      const variants = [label, label.toUpperCase(), ` \t\n\f\r${label}\r\n\f\t `,
        [...label].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('')];
      for (const v of variants) {
        if (name === 'replacement') {
          assert.throws(() => new TextDecoder(v), RangeError, v);
          assert.throws(() => new TextDecoderStream(v), RangeError, v);
        } else {
          assert.equal(new TextDecoder(v).encoding, name.toLowerCase(), v);
          assert.equal(new TextDecoderStream(v).encoding, name.toLowerCase(), v);
        }
        checked++;
      }
    }
  }
  assert.equal(checked, 228 * 4);
});

test('labels that are not labels throw RangeError', () => {
  for (const label of ['', ' ', 'utf 8', 'utf-8\0', '\u00A0utf-8', 'utf-8\u00A0', '\vutf-8',
    'utf-\u0438', '\u212Aoi8-r' /* KELVIN SIGN */, 'ascii\u0131' /* dotless i */, 'null',
    'replacement', 'utf-7', 'utf-32', 'x-user-defined\u0000', 'unicode-2-0-utf-8', 'iso-8859-1x', 'utf-8\uD800']) {
    assert.throws(() => new TextDecoder(label), RangeError, JSON.stringify(label));
  }
  // Non-string labels go through ToString.
  assert.throws(() => new TextDecoder(null), RangeError); // "null"
  assert.throws(() => new TextDecoder(8), RangeError); // "8"
  assert.equal(new TextDecoder(866).encoding, 'ibm866');
  assert.equal(new TextDecoder({ toString: () => 'latin1' }).encoding, 'windows-1252');
  assert.equal(new TextDecoder(['ascii']).encoding, 'windows-1252');
  assert.throws(() => new TextDecoder(Symbol('utf-8')), TypeError);
  assert.throws(() => new TextDecoder({ toString() { throw new SyntaxError('x'); } }), SyntaxError);
});

test('TextDecoderOptions: conversion, truthiness, member order, errors', () => {
  assert.equal(new TextDecoder('utf-8', { fatal: true }).fatal, true);
  assert.equal(new TextDecoder('utf-8', { ignoreBOM: true }).ignoreBOM, true);
  const both = new TextDecoder('utf-16be', { fatal: 1, ignoreBOM: 'yes' });
  assert.deepEqual([both.encoding, both.fatal, both.ignoreBOM], ['utf-16be', true, true]);
  const none = new TextDecoder('utf-8', { fatal: 0, ignoreBOM: '' });
  assert.deepEqual([none.fatal, none.ignoreBOM], [false, false]);
  // Functions are objects too; inherited members count.
  const fn = () => {};
  fn.fatal = true;
  assert.equal(new TextDecoder('utf-8', fn).fatal, true);
  assert.equal(new TextDecoder('utf-8', Object.create({ ignoreBOM: true })).ignoreBOM, true);
  for (const bad of [true, 1, 'fatal', Symbol('x'), 1n]) {
    assert.throws(() => new TextDecoder('utf-8', bad), TypeError, String(bad));
    assert.throws(() => new TextDecoderStream('utf-8', bad), TypeError, String(bad));
  }
  // Label first, then the dictionary (fatal before ignoreBOM), then the RangeError.
  const log = [];
  const label = { toString() { log.push('label'); return 'bogus'; } };
  const options = {
    get ignoreBOM() { log.push('ignoreBOM'); return false; },
    get fatal() { log.push('fatal'); return false; },
  };
  assert.throws(() => new TextDecoder(label, options), RangeError);
  assert.deepEqual(log, ['label', 'fatal', 'ignoreBOM']);
});

test('decode(): no input, undefined, empty input', () => {
  const d = new TextDecoder();
  assert.equal(d.decode(), '');
  assert.equal(d.decode(undefined), '');
  assert.equal(d.decode(undefined, { stream: true }), '');
  assert.equal(d.decode(new Uint8Array(0)), '');
  assert.equal(d.decode(new ArrayBuffer(0)), '');
});

const TYPED_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];

test('decode(): every AllowSharedBufferSource type, respecting byteOffset and byteLength', () => {
  // 16 bytes: "0123456789abcdef" in UTF-8.
  const text = '0123456789abcdef';
  for (const Buffer of [ArrayBuffer, SharedArrayBuffer]) {
    const buf = new Buffer(32);
    const all = new Uint8Array(buf);
    all.fill(0x2A); // "*" around the text
    all.set(new globalThis.TextEncoder().encode(text), 8);
    const d = new TextDecoder();
    assert.equal(d.decode(buf), `${'*'.repeat(8)}${text}${'*'.repeat(8)}`, Buffer.name);
    for (const T of TYPED_ARRAYS) {
      const view = new T(buf, 8, 16 / T.BYTES_PER_ELEMENT);
      assert.equal(d.decode(view), text, `${T.name} over ${Buffer.name}`);
      const whole = new T(buf);
      assert.equal(d.decode(whole).length, 32, `${T.name} whole`);
    }
    assert.equal(d.decode(new DataView(buf, 8, 16)), text, `DataView over ${Buffer.name}`);
    assert.equal(d.decode(new DataView(buf, 12, 3)), '456');
    assert.equal(d.decode(new Uint8Array(buf, 31)), '*');
    assert.equal(d.decode(new Uint8Array(buf, 32)), '');
  }
  // Node's Buffer is a Uint8Array, often a slice of a shared pool.
  const b = globalThis.Buffer.from('xx€yy').subarray(2, 5);
  assert.equal(new TextDecoder().decode(b), '€');
});

test('decode(): input that is not a buffer source is a TypeError', () => {
  const d = new TextDecoder();
  for (const bad of [null, 'abc', 0, true, [0x61], { length: 1, 0: 0x61 }, { buffer: new ArrayBuffer(1) },
    Symbol('x'), () => {}, new Map(), Object.create(Uint8Array.prototype)]) {
    assert.throws(() => d.decode(bad), TypeError, String(typeof bad));
  }
  // Options must be a dictionary.
  assert.throws(() => d.decode(bytes(0x61), 1), TypeError);
  assert.throws(() => d.decode(bytes(0x61), 'stream'), TypeError);
  assert.equal(d.decode(bytes(0x61), null), 'a');
});

test('decode(): detached buffers have no bytes', () => {
  const d = new TextDecoder();
  const ab = new ArrayBuffer(4);
  const u8 = new Uint8Array(ab);
  const dv = new DataView(ab, 1, 2);
  structuredClone(ab, { transfer: [ab] });
  assert.equal(ab.byteLength, 0);
  assert.equal(d.decode(ab), '');
  assert.equal(d.decode(u8), '');
  assert.equal(d.decode(dv), '');
});

test('decode(): resizable and growable buffers are rejected (no [AllowResizable])', () => {
  const d = new TextDecoder();
  const rab = new ArrayBuffer(4, { maxByteLength: 8 });
  assert.throws(() => d.decode(rab), TypeError);
  assert.throws(() => d.decode(new Uint8Array(rab)), TypeError);
  assert.throws(() => d.decode(new DataView(rab)), TypeError);
  const gsab = new SharedArrayBuffer(4, { maxByteLength: 8 });
  assert.throws(() => d.decode(gsab), TypeError);
  assert.throws(() => d.decode(new Uint8Array(gsab)), TypeError);
});

test('decode(): input is read after the options are converted, and copied', () => {
  const d = new TextDecoder();
  const input = bytes(0x61, 0x62);
  const out = d.decode(input, { get stream() { input[0] = 0x7A; return false; } });
  assert.equal(out, 'zb');
  // Bytes kept for the next call (an incomplete sequence) are a copy of the input.
  const chunk = bytes(0xE2, 0x82);
  assert.equal(d.decode(chunk, { stream: true }), '');
  chunk.fill(0x41);
  assert.equal(d.decode(bytes(0xAC)), '€');
  // Options conversion errors come after input conversion errors.
  assert.throws(() => d.decode('x', 1), (e) => e instanceof TypeError && /input/.test(e.message));
  // Overriding the views' accessors on the object does not fool the conversion.
  const sneaky = bytes(0x61, 0x62, 0x63);
  Object.defineProperty(sneaky, 'byteLength', { value: 1 });
  Object.defineProperty(sneaky, 'buffer', { value: new ArrayBuffer(0) });
  assert.equal(d.decode(sneaky), 'abc');
});

test('decode({stream}): sequences split across calls', () => {
  const euro = [0xE2, 0x82, 0xAC];
  for (let i = 0; i <= 3; i++) {
    const d = new TextDecoder();
    let s = d.decode(bytes(0x61, euro.slice(0, i)), { stream: true });
    s += d.decode(bytes(euro.slice(i), 0x62), { stream: true });
    s += d.decode();
    assert.equal(s, 'a€b', `split at ${i}`);
  }
  const sjis = new TextDecoder('shift_jis');
  assert.equal(sjis.decode(bytes(0x93), { stream: true }), '');
  assert.equal(sjis.decode(bytes(0xFA)), '日');
  // UTF-16: a surrogate pair split over three calls, an odd byte at the end.
  const u16 = new TextDecoder('utf-16le');
  assert.equal(u16.decode(bytes(0x3D), { stream: true }), '');
  assert.equal(u16.decode(bytes(0xD8, 0x00), { stream: true }), '');
  assert.equal(u16.decode(bytes(0xDE)), '\u{1F600}');
  assert.equal(u16.decode(bytes(0x61, 0x00, 0x62)), 'a\uFFFD');
  // An incomplete sequence at end-of-queue is U+FFFD; the next call starts afresh.
  const d = new TextDecoder();
  assert.equal(d.decode(bytes(0xF0, 0x9F), { stream: true }), '');
  assert.equal(d.decode(), '\uFFFD');
  assert.equal(d.decode(bytes(0x98, 0x80)), '\uFFFD\uFFFD');
});

test('fatal: TypeError, and the decoder is reset afterwards', () => {
  const d = new TextDecoder('utf-8', { fatal: true });
  assert.throws(() => d.decode(bytes(0x61, 0xFF)), TypeError);
  assert.equal(d.decode(bytes(0x62)), 'b');
  // Incomplete at the end of a non-streaming call.
  assert.throws(() => d.decode(bytes(0xE2, 0x82)), TypeError);
  assert.equal(d.decode(bytes(0x63)), 'c');
  // Incomplete at the end of a stream.
  assert.equal(d.decode(bytes(0xE2, 0x82), { stream: true }), '');
  assert.throws(() => d.decode(), TypeError);
  // The pending E2 82 was dropped with the error: AC alone is an error too.
  assert.throws(() => d.decode(bytes(0xAC)), TypeError);
  assert.equal(d.decode(bytes(0xE2, 0x82, 0xAC)), '€');
  // An error while streaming: the error is thrown, and the call without {stream}
  // that follows begins with a new decoder.
  assert.equal(d.decode(bytes(0x61), { stream: true }), 'a');
  assert.throws(() => d.decode(bytes(0x80), { stream: true }), TypeError);
  assert.throws(() => d.decode(bytes(0x80)), TypeError);
  assert.equal(d.decode(bytes(0x62)), 'b');
  for (const [label, input] of [['shift_jis', [0x81, 0x20]], ['euc-kr', [0xFF]], ['big5', [0x80]],
    ['gb18030', [0x81, 0x30, 0x81]], ['iso-2022-jp', [0x1B, 0x28]], ['utf-16be', [0xDC, 0x00]],
    ['windows-874', [0xDB]], ['euc-jp', [0x8E, 0x20]]]) {
    const f = new TextDecoder(label, { fatal: true });
    assert.throws(() => f.decode(new Uint8Array(input)), TypeError, label);
    assert.equal(f.decode(bytes(0x00, 0x41).slice(label.startsWith('utf-16') ? 0 : 1)),
      label.startsWith('utf-16') ? (label === 'utf-16be' ? 'A' : '\u4100') : 'A', label);
    const r = new TextDecoder(label);
    assert.ok(r.decode(new Uint8Array(input)).includes('\uFFFD'), label);
  }
});

test('BOM handling: UTF-8 and UTF-16 only, first scalar value only, ignoreBOM keeps it', () => {
  const utf8Bom = [0xEF, 0xBB, 0xBF];
  assert.equal(new TextDecoder().decode(bytes(utf8Bom, 0x61)), 'a');
  assert.equal(new TextDecoder().decode(bytes(utf8Bom, utf8Bom, 0x61)), '\uFEFFa');
  assert.equal(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes(utf8Bom, 0x61)), '\uFEFFa');
  assert.equal(new TextDecoder().decode(bytes(0x61, utf8Bom)), 'a\uFEFF');
  assert.equal(new TextDecoder('utf-16le').decode(bytes(0xFF, 0xFE, 0x61, 0x00)), 'a');
  assert.equal(new TextDecoder('utf-16be').decode(bytes(0xFE, 0xFF, 0x00, 0x61)), 'a');
  assert.equal(new TextDecoder('utf-16le', { ignoreBOM: true }).decode(bytes(0xFF, 0xFE, 0x61, 0x00)), '\uFEFFa');
  // The wrong BOM is no BOM: it decodes as U+FFFE.
  assert.equal(new TextDecoder('utf-16le').decode(bytes(0xFE, 0xFF, 0x61, 0x00)), '\uFFFEa');
  // No BOM handling for other encodings: the label does not switch decoders.
  assert.equal(new TextDecoder('windows-1252').decode(bytes(utf8Bom)), 'ï»¿');
  assert.equal(new TextDecoder('gb18030').decode(bytes(0xFE, 0xFF)), '\uFFFD');
  assert.equal(new TextDecoder('utf-16le').decode(bytes(utf8Bom, 0x00)), '\uBBEF\u00BF');
  // BOM split across stream calls; BOM seen persists while streaming, resets per decode.
  const d = new TextDecoder();
  assert.equal(d.decode(bytes(0xEF, 0xBB), { stream: true }), '');
  assert.equal(d.decode(bytes(0xBF), { stream: true }), '');
  assert.equal(d.decode(bytes(utf8Bom, 0x61), { stream: true }), '\uFEFFa');
  assert.equal(d.decode(bytes(utf8Bom)), '\uFEFF');
  assert.equal(d.decode(bytes(utf8Bom, 0x62)), 'b');
  // A BOM after a replacement character is not the first scalar value.
  assert.equal(new TextDecoder().decode(bytes(0xFF, utf8Bom)), '\uFFFD\uFEFF');
});

test('UTF-8 replacement follows the Standard (maximal subparts)', () => {
  const d = new TextDecoder();
  assert.equal(d.decode(bytes(0xF0, 0x80, 0x80)), '\uFFFD\uFFFD\uFFFD');
  assert.equal(d.decode(bytes(0xF0, 0x90, 0x80)), '\uFFFD');
  assert.equal(d.decode(bytes(0xED, 0xA0, 0x80)), '\uFFFD\uFFFD\uFFFD');
  assert.equal(d.decode(bytes(0xC0, 0xAF, 0x61)), '\uFFFD\uFFFDa');
  assert.equal(d.decode(bytes(0xE2, 0x82, 0x61)), '\uFFFDa');
  assert.equal(d.decode(bytes(0xF4, 0x90, 0x80, 0x80)), '\uFFFD'.repeat(4));
});
