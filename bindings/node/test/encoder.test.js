'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { TextEncoder } = require('./helpers.js').textcodec();
const { rng } = require('./helpers.js');

const NodeTextEncoder = globalThis.TextEncoder;
const hex = (u8) => globalThis.Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('hex');

test('TextEncoder: constructor and encoding', () => {
  const e = new TextEncoder();
  assert.equal(e.encoding, 'utf-8');
  assert.equal(new TextEncoder(1, 2, 3).encoding, 'utf-8'); // extra arguments are ignored
});

test('encode(): default argument, ToString conversion, USVString conversion', () => {
  const e = new TextEncoder();
  assert.equal(hex(e.encode()), '');
  assert.equal(hex(e.encode(undefined)), '');
  assert.equal(hex(e.encode('')), '');
  assert.equal(hex(e.encode(null)), hex(Buffer.from('null')));
  assert.equal(hex(e.encode(12.5)), hex(Buffer.from('12.5')));
  assert.equal(hex(e.encode({ toString: () => 'é' })), 'c3a9');
  assert.throws(() => e.encode(Symbol('x')), TypeError);
  assert.equal(hex(e.encode('a€\u{1F600}')), '61e282acf09f9880');
  // Lone surrogates become U+FFFD; a pair in order is one scalar value.
  assert.equal(hex(e.encode('\uD800')), 'efbfbd');
  assert.equal(hex(e.encode('\uDC00\uD800')), 'efbfbdefbfbd');
  assert.equal(hex(e.encode('a\uD83Db')), '61efbfbd62');
  assert.equal(hex(e.encode('\uD83D\uDE00\uDE00')), 'f09f9880efbfbd');
  assert.equal(hex(e.encode('\0')), '00');
});

test('encode(): a new plain Uint8Array with an exact-size ArrayBuffer', () => {
  const e = new TextEncoder();
  for (const s of ['', 'abc', 'x'.repeat(5000), '€'.repeat(3000)]) {
    const a = e.encode(s);
    const b = e.encode(s);
    assert.notEqual(a, b);
    assert.notEqual(a.buffer, b.buffer);
    assert.equal(Object.getPrototypeOf(a), Uint8Array.prototype);
    assert.equal(a.byteOffset, 0);
    assert.equal(a.buffer.byteLength, a.byteLength);
    assert.equal(a.buffer instanceof ArrayBuffer, true);
    assert.equal(hex(a), hex(new NodeTextEncoder().encode(s)));
    a.fill(0); // writable, and independent of b
    assert.equal(hex(b), hex(new NodeTextEncoder().encode(s)));
  }
});

test('encode(): matches Node on random strings, lone surrogates included', () => {
  const next = rng(7);
  const ours = new TextEncoder();
  const node = new NodeTextEncoder();
  const pick = [0x61, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF];
  for (let i = 0; i < 300; i++) {
    const n = Math.floor(next() * 40);
    let s = '';
    for (let j = 0; j < n; j++) {
      s += String.fromCharCode(next() < 0.5 ? pick[Math.floor(next() * pick.length)] : Math.floor(next() * 0x10000));
    }
    assert.equal(hex(ours.encode(s)), hex(node.encode(s)), JSON.stringify(s));
  }
});

test('encodeInto(): read counts code units, written counts bytes, whole characters only', () => {
  const e = new TextEncoder();
  const cases = [
    // [source, destination size, read, written, bytes]
    ['', 4, 0, 0, ''],
    ['abc', 0, 0, 0, ''],
    ['abc', 2, 2, 2, '6162'],
    ['a€', 3, 1, 1, '61'],
    ['a€', 4, 2, 4, '61e282ac'],
    ['\u{1F600}', 3, 0, 0, ''],
    ['\u{1F600}', 4, 2, 4, 'f09f9880'],
    ['a\u{1F600}b', 5, 3, 5, '61f09f9880'],
    ['\uD800', 2, 0, 0, ''],
    ['\uD800x', 3, 1, 3, 'efbfbd'],
    ['\uDC00\uD800', 8, 2, 6, 'efbfbdefbfbd'],
    ['é', 1, 0, 0, ''],
  ];
  for (const [src, size, read, written, out] of cases) {
    const dst = new Uint8Array(size + 2).fill(0xCC);
    const view = dst.subarray(1, 1 + size);
    const r = e.encodeInto(src, view);
    assert.deepEqual(Object.keys(r), ['read', 'written']);
    assert.equal(Object.getPrototypeOf(r), Object.prototype);
    assert.deepEqual(r, { read, written }, JSON.stringify([src, size]));
    // Only the written bytes changed, at the view's offset.
    assert.equal(hex(dst), `cc${out}${'cc'.repeat(size + 1 - written)}`, JSON.stringify([src, size]));
  }
});

test('encodeInto(): matches Node for random strings and sizes', () => {
  const next = rng(11);
  const ours = new TextEncoder();
  const node = new NodeTextEncoder();
  const units = [0x41, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0xDC00, 0xD800];
  for (let i = 0; i < 300; i++) {
    let s = '';
    for (let j = Math.floor(next() * 20); j > 0; j--) s += String.fromCharCode(units[Math.floor(next() * units.length)]);
    const size = Math.floor(next() * 40);
    const a = new Uint8Array(size);
    const b = new Uint8Array(size);
    assert.deepEqual(ours.encodeInto(s, a), node.encodeInto(s, b), JSON.stringify([s, size]));
    assert.equal(hex(a), hex(b));
  }
});

test('encodeInto(): destinations: Buffer, SharedArrayBuffer views, detached, wrong types', () => {
  const e = new TextEncoder();
  const buf = Buffer.alloc(4);
  assert.deepEqual(e.encodeInto('hé', buf), { read: 2, written: 3 });
  assert.equal(buf.toString('hex'), '68c3a900');
  const sab = new SharedArrayBuffer(8);
  const shared = new Uint8Array(sab, 2, 4);
  assert.deepEqual(e.encodeInto('a€b', shared), { read: 2, written: 4 });
  assert.equal(hex(new Uint8Array(sab)), '000061e282ac0000');
  const ab = new ArrayBuffer(4);
  const detached = new Uint8Array(ab);
  structuredClone(ab, { transfer: [ab] });
  assert.deepEqual(e.encodeInto('abc', detached), { read: 0, written: 0 });
  for (const bad of [new Uint8ClampedArray(4), new Int8Array(4), new Uint16Array(4),
    new DataView(new ArrayBuffer(4)), new ArrayBuffer(4), [0, 0], null, undefined, 'xxxx']) {
    assert.throws(() => e.encodeInto('a', bad), TypeError, String(bad));
  }
  assert.throws(() => e.encodeInto('a', new Uint8Array(new ArrayBuffer(4, { maxByteLength: 8 }))), TypeError);
  assert.throws(() => e.encodeInto('a', new Uint8Array(new SharedArrayBuffer(4, { maxByteLength: 8 }))), TypeError);
});

test('encodeInto(): argument count and conversion order', () => {
  const e = new TextEncoder();
  assert.throws(() => e.encodeInto(), TypeError);
  assert.throws(() => e.encodeInto('a'), TypeError);
  const dst = new Uint8Array(8);
  assert.deepEqual(e.encodeInto(undefined, dst), { read: 8, written: 8 }); // "undefined", cut
  assert.equal(hex(dst), hex(Buffer.from('undefine')));
  assert.deepEqual(e.encodeInto(42, dst), { read: 2, written: 2 });
  assert.throws(() => e.encodeInto(Symbol('s'), dst), TypeError);
  // The source is converted before the destination is checked.
  const log = [];
  assert.throws(() => e.encodeInto({ toString() { log.push('source'); return 'x'; } }, 'not a Uint8Array'), TypeError);
  assert.deepEqual(log, ['source']);
});

test('encodeInto(): large sources and destinations', () => {
  const e = new TextEncoder();
  const s = 'ab€\u{1F600}'.repeat(10000);
  const full = new Uint8Array(s.length * 3);
  const r = e.encodeInto(s, full);
  assert.equal(r.read, s.length);
  assert.equal(hex(full.subarray(0, r.written)), hex(new NodeTextEncoder().encode(s)));
});

test('the addon refuses an encodeInto destination that overlaps its result slots', () => {
  // index.js passes a private Float64Array; the addon itself checks, so a direct caller
  // cannot make it hold two aliasing mutable views of one ArrayBuffer.
  const native = require('../native.js');
  const buffer = new ArrayBuffer(64);
  const destination = new Uint8Array(buffer, 0, 32);
  assert.throws(
    () => native.encodeInto('overlapping views', destination, new Float64Array(buffer, 16, 2)),
    /overlap/,
  );
  assert.deepEqual([...destination], new Array(32).fill(0));
  const result = new Float64Array(buffer, 32, 2);
  native.encodeInto('h\u00e9', destination, result);
  assert.deepEqual([...result], [2, 3]);
  assert.deepEqual([...destination.subarray(0, 3)], [0x68, 0xc3, 0xa9]);
});
