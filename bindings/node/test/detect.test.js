'use strict';
// detect(): the statistical detector for unlabelled bytes (not part of the Standard).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { detect, TextDecoder } = require('..');
const native = require('../native.js');

// Real Japanese text: the example shipped with the repository, decoded from Shift_JIS.
const sjis = fs.readFileSync(path.join(__dirname, '../../../examples/shift_jis.txt'));
const japanese = new TextDecoder('shift_jis').decode(sjis);

test('detect names the encoding of Japanese text in each legacy encoding', () => {
  for (const label of ['shift_jis', 'euc-jp', 'iso-2022-jp']) {
    const bytes = native._encodeHtml(label, japanese);
    const result = detect(bytes);
    assert.equal(result.encoding, label);
    assert.equal(new TextDecoder(result.encoding).decode(bytes), japanese);
    assert.equal(typeof result.margin, 'number');
    assert.ok(result.margin >= 0);
    // ISO-2022-JP is all ASCII bytes: its escapes decide, and UTF-8 cannot reject it.
    const sevenBit = label === 'iso-2022-jp';
    assert.equal(result.asciiOnly, sevenBit);
    assert.equal(result.ranking[0].encoding, label);
    const utf8 = result.ranking.find((c) => c.encoding === 'utf-8');
    assert.equal(utf8.disqualified, !sevenBit);
    const firstOut = result.ranking.findIndex((c) => c.disqualified);
    assert.equal(firstOut === -1, sevenBit);
    if (firstOut !== -1) assert.ok(result.ranking.slice(firstOut).every((c) => c.disqualified));
  }
});

test('detect takes any buffer source and the same answer for each', () => {
  const bytes = native._encodeHtml('euc-jp', japanese);
  const expected = detect(bytes);
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  assert.deepEqual(detect(copy), expected);
  assert.deepEqual(detect(new DataView(copy)), expected);
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  assert.deepEqual(detect(shared), expected);
});

test('detect options: allowUTF8, and ASCII input', () => {
  const utf8 = new TextEncoder().encode('naïve café, déjà vu');
  assert.equal(detect(utf8).encoding, 'utf-8');
  assert.notEqual(detect(utf8, { allowUTF8: false }).encoding, 'utf-8');
  assert.equal(detect(new Uint8Array(0)).asciiOnly, true);
  assert.equal(detect(new TextEncoder().encode('plain')).asciiOnly, true);
  const withHints = detect(native._encodeHtml('shift_jis', japanese), { tld: 'jp', locale: 'ja-JP' });
  assert.equal(withHints.encoding, 'shift_jis');
});

test('detect rejects what is not a buffer source or options object', () => {
  assert.throws(() => detect('text'), TypeError);
  assert.throws(() => detect(), TypeError);
  assert.throws(() => detect(new Uint8Array(1), 5), TypeError);
});
