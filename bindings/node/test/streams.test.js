'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { TextDecoderStream, TextEncoderStream } = require('./helpers.js').textcodec();
const { pipeChunks, bytes } = require('./helpers.js');

const hex = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('hex');

test('TextDecoderStream: attributes, defaults and options', () => {
  const s = new TextDecoderStream();
  assert.deepEqual([s.encoding, s.fatal, s.ignoreBOM], ['utf-8', false, false]);
  assert.ok(s.readable instanceof ReadableStream);
  assert.ok(s.writable instanceof WritableStream);
  assert.equal(s.readable, s.readable);
  assert.equal(s.writable, s.writable);
  const t = new TextDecoderStream(' SJIS ', { fatal: true, ignoreBOM: true });
  assert.deepEqual([t.encoding, t.fatal, t.ignoreBOM], ['shift_jis', true, true]);
  assert.throws(() => new TextDecoderStream('replacement'), RangeError);
  assert.throws(() => new TextDecoderStream('nope'), RangeError);
  assert.throws(() => new TextDecoderStream(Symbol('x')), TypeError);
});

test('TextDecoderStream: sequences split across chunks, no empty chunks enqueued', async () => {
  const out = await pipeChunks(new TextDecoderStream(), [
    bytes(0xEF, 0xBB), bytes(0xBF, 0x61, 0xE2), bytes(0x82), bytes(), bytes(0xAC, 0xF0, 0x9F, 0x98), bytes(0x80),
  ]);
  assert.deepEqual(out, ['a', '€', '\u{1F600}']);
  const sjis = await pipeChunks(new TextDecoderStream('shift_jis'), [bytes(0x93), bytes(0xFA, 0x96), bytes(0x7B)]);
  assert.deepEqual(sjis, ['日', '本']);
});

test('TextDecoderStream: every buffer source type as a chunk', async () => {
  const ab = new ArrayBuffer(8);
  new Uint8Array(ab).set([0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48]);
  const sab = new SharedArrayBuffer(4);
  new Uint8Array(sab).set([0x61, 0x62, 0x63, 0x64]);
  const chunks = [ab, sab, new Uint8Array(ab, 1, 2), new Uint16Array(ab, 2, 1), new DataView(ab, 7, 1),
    new Int8Array(sab, 3), new Float64Array(ab), new BigInt64Array(sab, 0, 0), Buffer.from('z')];
  const out = await pipeChunks(new TextDecoderStream(), chunks);
  assert.deepEqual(out, ['ABCDEFGH', 'abcd', 'BC', 'CD', 'H', 'd', 'ABCDEFGH', 'z']);
});

test('TextDecoderStream: a chunk that is not a buffer source errors both sides', async () => {
  for (const bad of ['abc', 42, null, undefined, [1, 2], {}]) {
    const s = new TextDecoderStream();
    const writer = s.writable.getWriter();
    const reader = s.readable.getReader();
    // The readable side's high-water mark is 0: a pending read lets the transform run.
    const read = reader.read();
    await assert.rejects(writer.write(bad), TypeError);
    await assert.rejects(read, TypeError);
    await assert.rejects(writer.closed, TypeError);
  }
});

test('TextDecoderStream: fatal errors error both sides with a TypeError', async () => {
  const s = new TextDecoderStream('utf-8', { fatal: true });
  const writer = s.writable.getWriter();
  const reader = s.readable.getReader();
  const ok = writer.write(bytes(0x61));
  assert.deepEqual(await reader.read(), { value: 'a', done: false });
  await ok;
  const read = reader.read();
  await assert.rejects(writer.write(bytes(0xFF)), TypeError);
  await assert.rejects(read, TypeError);
  await assert.rejects(reader.read(), TypeError);
  await assert.rejects(writer.close(), TypeError);
});

test('TextDecoderStream: flush at the end (U+FFFD, or TypeError when fatal)', async () => {
  assert.deepEqual(await pipeChunks(new TextDecoderStream(), [bytes(0x61, 0xE2, 0x82)]), ['a', '\uFFFD']);
  assert.deepEqual(await pipeChunks(new TextDecoderStream('utf-16be'), [bytes(0x00, 0x61, 0xD8, 0x3D)]), ['a', '\uFFFD']);
  assert.deepEqual(await pipeChunks(new TextDecoderStream('utf-16le'), [bytes(0x61)]), ['\uFFFD']);
  assert.deepEqual(await pipeChunks(new TextDecoderStream(), []), []);
  await assert.rejects(pipeChunks(new TextDecoderStream('utf-8', { fatal: true }), [bytes(0x61, 0xE2)]), TypeError);
  await assert.rejects(pipeChunks(new TextDecoderStream('gb18030', { fatal: true }), [bytes(0x81, 0x30)]), TypeError);
});

test('TextDecoderStream: BOM handling and ignoreBOM', async () => {
  assert.deepEqual(await pipeChunks(new TextDecoderStream('utf-16le'), [bytes(0xFF), bytes(0xFE, 0x61, 0x00)]), ['a']);
  assert.deepEqual(await pipeChunks(new TextDecoderStream('utf-8', { ignoreBOM: true }), [bytes(0xEF, 0xBB, 0xBF)]), ['\uFEFF']);
  assert.deepEqual(await pipeChunks(new TextDecoderStream(), [bytes(0xEF, 0xBB, 0xBF), bytes(0xEF, 0xBB, 0xBF)]), ['\uFEFF']);
});

test('TextDecoderStream: the input is copied when the chunk is written', async () => {
  const s = new TextDecoderStream();
  const writer = s.writable.getWriter();
  const reader = s.readable.getReader();
  const chunk = bytes(0x61, 0xE2, 0x82);
  const w = writer.write(chunk);
  assert.deepEqual(await reader.read(), { value: 'a', done: false });
  await w;
  chunk.fill(0);
  writer.write(bytes(0xAC));
  assert.deepEqual(await reader.read(), { value: '€', done: false });
  writer.close();
  assert.deepEqual(await reader.read(), { value: undefined, done: true });
});

test('TextDecoderStream: pipeThrough', async () => {
  const source = ReadableStream.from([bytes(0x82), bytes(0xA0, 0x82), bytes(0xA2)]);
  const out = [];
  for await (const s of source.pipeThrough(new TextDecoderStream('shift_jis'))) out.push(s);
  assert.deepEqual(out, ['あ', 'い']);
});

test('TextEncoderStream: attributes', () => {
  const s = new TextEncoderStream();
  assert.equal(s.encoding, 'utf-8');
  assert.ok(s.readable instanceof ReadableStream);
  assert.ok(s.writable instanceof WritableStream);
  assert.equal(s.readable, s.readable);
  assert.equal(new TextEncoderStream(1, 2).encoding, 'utf-8');
});

test('TextEncoderStream: Uint8Array chunks; empty results not enqueued; DOMString conversion', async () => {
  const out = await pipeChunks(new TextEncoderStream(), ['a€', '', 42, null, { toString: () => 'é' }, 'x'.repeat(5000)]);
  assert.ok(out.every((c) => Object.getPrototypeOf(c) === Uint8Array.prototype));
  assert.deepEqual(out.map(hex), ['61e282ac', '3432', '6e756c6c', 'c3a9', '78'.repeat(5000)]);
});

test('TextEncoderStream: surrogate pairs split across chunks, lone surrogates', async () => {
  const run = async (chunks) => (await pipeChunks(new TextEncoderStream(), chunks)).map(hex);
  assert.deepEqual(await run(['a\uD83D', '\uDE00b']), ['61', 'f09f9880' + '62']);
  assert.deepEqual(await run(['\uD83D', '', '\uDE00']), ['f09f9880']);
  assert.deepEqual(await run(['\uD83D', 'x']), ['efbfbd78']);
  assert.deepEqual(await run(['\uD83D', '\uD83D', '\uDE00']), ['efbfbd', 'f09f9880']);
  assert.deepEqual(await run(['\uDE00']), ['efbfbd']);
  assert.deepEqual(await run(['\uDE00\uD83D']), ['efbfbd', 'efbfbd']); // lone trail; lead flushed
  // A leading surrogate left at the end: flush enqueues EF BF BD.
  assert.deepEqual(await run(['a\uD800']), ['61', 'efbfbd']);
  assert.deepEqual(await run(['\uD800']), ['efbfbd']);
  assert.deepEqual(await run([]), []);
});

test('TextEncoderStream: a chunk that cannot become a string errors both sides', async () => {
  const s = new TextEncoderStream();
  const writer = s.writable.getWriter();
  const reader = s.readable.getReader();
  const read = reader.read();
  await assert.rejects(writer.write(Symbol('x')), TypeError);
  await assert.rejects(read, TypeError);
  const t = new TextEncoderStream();
  await assert.rejects(pipeChunks(t, [{ toString() { throw new SyntaxError('boom'); } }]), SyntaxError);
});

test('TextEncoderStream → TextDecoderStream round trip', async () => {
  const text = ['héllo ', 'wörld \uD83D', '\uDE00 日本語'];
  const out = [];
  const pipeline = ReadableStream.from(text).pipeThrough(new TextEncoderStream()).pipeThrough(new TextDecoderStream());
  for await (const s of pipeline) out.push(s);
  assert.equal(out.join(''), 'héllo wörld \u{1F600} 日本語');
});
