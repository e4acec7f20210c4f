// Node stream.Transform for every encoding (createDecodeTransform, createEncodeTransform).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { text as collectText, buffer as collectBuffer } from 'node:stream/consumers';
import * as tc from '../../src/index.js';

test('createDecodeTransform: Buffers in, strings out, sequences split across chunks', async () => {
  const bytes = tc.encode('日本語のテキスト\n'.repeat(100), 'euc-jp');
  const chunks = [];
  for (let i = 0; i < bytes.length; i += 5) chunks.push(Buffer.from(bytes.subarray(i, i + 5)));
  const t = tc.createDecodeTransform('euc-jp');
  const s = await collectText(Readable.from(chunks).pipe(t));
  assert.equal(s, '日本語のテキスト\n'.repeat(100));
});

test('createEncodeTransform: strings in, Buffers out, ISO-2022-JP state across chunks', async () => {
  const t = tc.createEncodeTransform('iso-2022-jp');
  const b = await collectBuffer(Readable.from(['日', '本', 'a', 'ｱ']).pipe(t));
  assert.deepEqual([...b], [...tc.encode('日本aｱ', 'iso-2022-jp')]);
});

test('a fatal decode transform errors the stream with the offset', async () => {
  const t = tc.createDecodeTransform('shift_jis', { fatal: true });
  await assert.rejects(collectText(Readable.from([Buffer.from([0x41, 0x42]), Buffer.from([0x82, 0x22])]).pipe(t)),
    { name: 'TypeError', message: /malformed bytes 0x82 at byte 2/ });
});

test('an encode transform in fatal mode names the character', async () => {
  const t = tc.createEncodeTransform('windows-1252');
  await assert.rejects(collectBuffer(Readable.from(['abc', 'd中']).pipe(t)),
    { name: 'TypeError', message: /U\+4E2D at index 1 cannot be encoded in windows-1252/ });
});
