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
    assert.ok(firstOut !== -1);
    assert.ok(result.ranking.slice(firstOut).every((c) => c.disqualified));
    // 7-bit bytes rule out only UTF-16 (printable ASCII is never read as UTF-16).
    const out = result.ranking.filter((c) => c.disqualified).map((c) => c.encoding);
    assert.equal(out.length === 2 && out.every((e) => e.startsWith('utf-16')), sevenBit);
    // A calibrated confidence, and the language.
    assert.ok(result.confidence > 0.9 && result.confidence <= 1);
    assert.equal(result.ranking[0].confidence, result.confidence);
    assert.equal(result.language, 'ja');
    assert.equal(result.languageName, 'Japanese');
    assert.equal(result.binary, null);
  }
});

test('detect reports binary data, UTF-16 without a BOM, and takes allow and deny', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
  const result = detect(png);
  assert.equal(result.binary, 'PNG');
  assert.equal(result.confidence, 0);
  assert.equal(result.language, null);
  const text = 'Grüße aus Köln, und viele mehr.';
  const utf16 = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) utf16[2 * i] = text.charCodeAt(i);
  const le = detect(utf16);
  assert.equal(le.encoding, 'utf-16le');
  assert.equal(new TextDecoder(le.encoding).decode(utf16), text);
  assert.notEqual(detect(utf16, { deny: ['utf-16le', 'utf-16be'] }).encoding, 'utf-16le');
  const cyrillic = native._encodeHtml('windows-1251', 'Привет, мир! Как у вас дела?');
  assert.equal(detect(cyrillic).encoding, 'windows-1251');
  assert.notEqual(detect(cyrillic, { deny: ['cp1251'] }).encoding, 'windows-1251');
  const only = detect(cyrillic, { allow: new Set(['koi8-r', 'iso-8859-5']) });
  assert.ok(['koi8-r', 'iso-8859-5'].includes(only.encoding));
  assert.equal(only.ranking.filter((c) => c.excluded).length, 36);
  assert.ok(only.ranking.filter((c) => c.excluded).every((c) => c.disqualified && c.confidence === 0));
  assert.throws(() => detect(cyrillic, { allow: ['no-such-label'] }), RangeError);
  assert.equal(detect(new TextEncoder().encode('plain')).confidence, 1);
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
