'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const textcodec = require('./helpers.js').textcodec();
const { TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream } = textcodec;

const INTERFACES = {
  TextDecoder: { cls: TextDecoder, attributes: ['encoding', 'fatal', 'ignoreBOM'], operations: { decode: 0 } },
  TextEncoder: { cls: TextEncoder, attributes: ['encoding'], operations: { encode: 0, encodeInto: 2 } },
  TextDecoderStream: { cls: TextDecoderStream, attributes: ['encoding', 'fatal', 'ignoreBOM', 'readable', 'writable'], operations: {} },
  TextEncoderStream: { cls: TextEncoderStream, attributes: ['encoding', 'readable', 'writable'], operations: {} },
};

for (const [name, { cls, attributes, operations }] of Object.entries(INTERFACES)) {
  test(`${name}: interface object`, () => {
    assert.equal(typeof cls, 'function');
    assert.equal(cls.name, name);
    assert.equal(cls.length, 0);
    assert.throws(() => cls(), TypeError); // constructors need `new`
    const proto = Object.getOwnPropertyDescriptor(cls, 'prototype');
    assert.deepEqual([proto.writable, proto.enumerable, proto.configurable], [false, false, false]);
    assert.equal(cls.prototype.constructor, cls);
  });

  test(`${name}: prototype members as Web IDL defines them`, () => {
    const proto = cls.prototype;
    const keys = Reflect.ownKeys(proto).filter((k) => k !== 'constructor');
    assert.deepEqual(new Set(keys), new Set([...attributes, ...Object.keys(operations), Symbol.toStringTag]));
    for (const attr of attributes) {
      const d = Object.getOwnPropertyDescriptor(proto, attr);
      assert.equal(typeof d.get, 'function', attr);
      assert.equal(d.set, undefined, attr);
      assert.equal(d.enumerable, true, attr);
      assert.equal(d.configurable, true, attr);
      assert.equal(d.get.name, `get ${attr}`);
      assert.equal(d.get.length, 0);
    }
    for (const [op, length] of Object.entries(operations)) {
      const d = Object.getOwnPropertyDescriptor(proto, op);
      assert.equal(typeof d.value, 'function', op);
      assert.deepEqual([d.writable, d.enumerable, d.configurable], [true, true, true], op);
      assert.equal(d.value.length, length, op);
      assert.equal(d.value.name, op);
      assert.throws(() => new d.value(), TypeError, `${op} is not a constructor`);
    }
    const tag = Object.getOwnPropertyDescriptor(proto, Symbol.toStringTag);
    assert.deepEqual(tag, { value: name, writable: false, enumerable: false, configurable: true });
    const instance = new cls();
    assert.equal(Object.prototype.toString.call(instance), `[object ${name}]`);
    assert.equal(Object.prototype.toString.call(proto), `[object ${name}]`);
    assert.deepEqual(Reflect.ownKeys(instance), []); // all state is internal
    assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  });

  test(`${name}: brand checks throw TypeError`, () => {
    const proto = cls.prototype;
    const others = [{}, proto, Object.create(proto), null, undefined, 1, 'x',
      ...Object.values(INTERFACES).filter((i) => i.cls !== cls).map((i) => new i.cls())];
    for (const attr of attributes) {
      const get = Object.getOwnPropertyDescriptor(proto, attr).get;
      for (const o of others) assert.throws(() => get.call(o), TypeError, `${attr} on ${String(o)}`);
      assert.throws(() => proto[attr], TypeError);
    }
    for (const op of Object.keys(operations)) {
      for (const o of others) assert.throws(() => proto[op].call(o, 'a', new Uint8Array(1)), TypeError, op);
    }
  });
}

test('brand checks between TextDecoder and TextDecoderStream (same mixin, different brands)', () => {
  const get = (cls, attr) => Object.getOwnPropertyDescriptor(cls.prototype, attr).get;
  assert.throws(() => get(TextDecoder, 'encoding').call(new TextDecoderStream()), TypeError);
  assert.throws(() => get(TextDecoderStream, 'fatal').call(new TextDecoder()), TypeError);
  assert.throws(() => TextDecoder.prototype.decode.call(new TextDecoderStream()), TypeError);
  assert.throws(() => get(TextEncoder, 'encoding').call(new TextEncoderStream()), TypeError);
});

test('attributes are read-only: assignment is ignored (or throws in strict mode)', () => {
  const d = new TextDecoder('latin1');
  assert.throws(() => { d.encoding = 'utf-8'; }, TypeError);
  assert.equal(d.encoding, 'windows-1252');
});

test('subclasses inherit the behaviour and the brand', () => {
  class MyDecoder extends TextDecoder {
    constructor() { super('sjis', { fatal: true }); }
  }
  const d = new MyDecoder();
  assert.equal(d.encoding, 'shift_jis');
  assert.equal(d.decode(new Uint8Array([0x82, 0xA0])), 'あ');
  assert.equal(Object.prototype.toString.call(d), '[object TextDecoder]');
  class MyEncoder extends TextEncoder {}
  assert.equal(new MyEncoder().encode('a')[0], 0x61);
});

test('tampering with globals after loading does not change behaviour', () => {
  const saved = Uint8Array.prototype.subarray;
  const savedSet = Object.getPrototypeOf(Uint8Array.prototype).set;
  try {
    Object.getPrototypeOf(Uint8Array.prototype).set = () => { throw new Error('tampered'); };
    Uint8Array.prototype.subarray = () => { throw new Error('tampered'); };
    const dst = new Uint8Array(new SharedArrayBuffer(4));
    assert.deepEqual(new TextEncoder().encodeInto('ab', dst), { read: 2, written: 2 });
    assert.equal(new TextDecoder().decode(new Uint16Array([0x6261])), 'ab');
  } finally {
    Object.getPrototypeOf(Uint8Array.prototype).set = savedSet;
    delete Uint8Array.prototype.subarray;
    assert.equal(Uint8Array.prototype.subarray, saved);
  }
});

test('the package exports the four interfaces and detect; the polyfill installs only the interfaces', {
  skip: process.env.TEXTCODEC_MODULE ? 'the addon package\'s own exports and polyfill' : false,
}, () => {
  assert.deepEqual(Object.keys(textcodec).sort(), ['TextDecoder', 'TextDecoderStream', 'TextEncoder', 'TextEncoderStream', 'detect']);
  const interfaces = Object.keys(textcodec).filter((n) => n !== 'detect');
  const saved = {};
  for (const n of interfaces) saved[n] = Object.getOwnPropertyDescriptor(globalThis, n);
  try {
    require('../polyfill.js');
    assert.equal(Object.getOwnPropertyDescriptor(globalThis, 'detect'), undefined);
    for (const n of interfaces) {
      const d = Object.getOwnPropertyDescriptor(globalThis, n);
      assert.equal(d.value, textcodec[n], n);
      assert.deepEqual([d.writable, d.enumerable, d.configurable], [true, false, true], n);
    }
    assert.equal(new globalThis.TextDecoder('sjis').decode(new Uint8Array([0x80])), '\u0080');
  } finally {
    for (const [n, d] of Object.entries(saved)) Object.defineProperty(globalThis, n, d);
  }
});

test('ESM import gets named exports', {
  skip: process.env.TEXTCODEC_MODULE ? 'the addon package\'s ESM wrapper' : false,
}, async () => {
  const m = await import('../index.js');
  assert.equal(m.TextDecoder, TextDecoder);
  assert.equal(m.TextEncoderStream, TextEncoderStream);
  assert.equal(m.default.TextEncoder, TextEncoder);
});

test('[Exposed=*]: the module loads and works in worker threads', async () => {
  const { Worker } = require('node:worker_threads');
  const source = `
    const { parentPort } = require('node:worker_threads');
    const t = require(${JSON.stringify(require.resolve(process.env.TEXTCODEC_MODULE || '..'))});
    parentPort.postMessage([
      new t.TextDecoder('sjis').decode(new Uint8Array([0x82, 0xA0])),
      [...new t.TextEncoder().encode('é')],
    ]);`;
  const worker = new Worker(source, { eval: true });
  const [message] = await require('node:events').once(worker, 'message');
  await worker.terminate();
  assert.deepEqual(message, ['あ', [0xC3, 0xA9]]);
});
