// textcodec/iconv-lite against iconv-lite itself (a devDependency) where the Encoding
// Standard and iconv-lite agree, and on the documented differences.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import iconvEsm from '../../src/iconv-lite.js';

const require = createRequire(import.meta.url);
const iconvCjs = require('../../dist/iconv-lite.cjs');
const real = require('iconv-lite');

const TEXT = 'ASCII 123, 日本語のテキスト, 中文文本, 한국어, Привет, Ελληνικά, ①, ｱｲｳ\n';

for (const [entry, iconv] of [['ESM', iconvEsm], ['CommonJS', iconvCjs]]) {
  test(`${entry}: encode and decode agree with iconv-lite where the Standard does`, () => {
    const cases = [
      ['shift_jis', '日本語のテキスト ｱｲｳ ①'], ['Shift_JIS', 'ASCII'], ['euc-jp', '日本語のテキスト'],
      ['gbk', '中文文本'], ['gb18030', '中文文本 😀'], ['big5', '中文文本'], ['euc-kr', '한국어 텍스트'],
      ['windows-1251', 'Привет'], ['koi8-r', 'Привет'], ['iso-8859-7', 'Ελληνικά'],
      ['utf8', TEXT], ['utf-16le', TEXT], ['UTF-16BE', TEXT], ['windows-1252', 'café €'],
    ];
    for (const [encoding, text] of cases) {
      const ours = iconv.encode(text, encoding);
      assert.ok(Buffer.isBuffer(ours), 'encode returns a Buffer');
      assert.deepEqual([...ours], [...real.encode(text, encoding)], `encode ${encoding}`);
      assert.equal(iconv.decode(ours, encoding), real.decode(ours, encoding), `decode ${encoding}`);
    }
  });

  test(`${entry}: unmappable characters become ? as in iconv-lite; malformed bytes U+FFFD`, () => {
    assert.deepEqual([...iconv.encode('a😀b', 'shift_jis')], [0x61, 0x3F, 0x62]);
    assert.deepEqual([...iconv.encode('a😀b', 'shift_jis')], [...real.encode('a😀b', 'shift_jis')]);
    assert.equal(iconv.decode(Buffer.from([0x61, 0x82]), 'shift_jis'), 'a\uFFFD');
  });

  test(`${entry}: stripBOM (default on) and addBOM`, () => {
    const bom = Buffer.from([0xEF, 0xBB, 0xBF, 0x61]);
    assert.equal(iconv.decode(bom, 'utf8'), 'a');
    assert.equal(iconv.decode(bom, 'utf8', { stripBOM: false }), '\uFEFFa');
    assert.equal(iconv.decode(bom, 'utf8'), real.decode(bom, 'utf8'));
    assert.deepEqual([...iconv.encode('a', 'utf8', { addBOM: true })], [0xEF, 0xBB, 0xBF, 0x61]);
    assert.deepEqual([...iconv.encode('a', 'utf-16le', { addBOM: true })], [...real.encode('a', 'utf-16le', { addBOM: true })]);
    // A UTF-16LE BOM on UTF-8 input is not sniffed (iconv-lite does not switch encodings).
    assert.equal(iconv.decode(Buffer.from([0xFF, 0xFE, 0x61, 0]), 'utf8'), '\uFFFD\uFFFDa\0');
  });

  test(`${entry}: encodingExists and unknown encodings`, () => {
    for (const name of ['utf8', 'UTF-8', 'ShiftJIS', 'sjis', 'win1251'.replace('win', 'windows-'), 'cp1252', 'latin1', 'ucs2', 'EUC-KR', 'ISO-2022-JP', 'x-mac-cyrillic']) {
      assert.equal(iconv.encodingExists(name), true, name);
    }
    for (const name of ['no-such', 'base64', 'hex', 'replacement', '']) assert.equal(iconv.encodingExists(name), false, name);
    assert.throws(() => iconv.decode(Buffer.from([0x61]), 'no-such'), { name: 'RangeError', message: /Encoding not recognized: 'no-such'/ });
  });

  test(`${entry}: getDecoder/getEncoder keep state across writes`, () => {
    const bytes = iconv.encode('日本語', 'iso-2022-jp');
    const dec = iconv.getDecoder('iso-2022-jp');
    let s = '';
    for (const b of bytes) s += dec.write(Buffer.from([b]));
    s += dec.end() ?? '';
    assert.equal(s, '日本語');
    const enc = iconv.getEncoder('iso-2022-jp');
    const parts = [enc.write('日'), enc.write('本'), enc.write('a')];
    const end = enc.end();
    if (end) parts.push(end);
    // iconv-lite has no ISO-2022-JP: the one-shot encode is the reference.
    assert.deepEqual([...Buffer.concat(parts)], [...iconv.encode('日本a', 'iso-2022-jp')]);
    assert.deepEqual([...Buffer.concat(parts)], [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x1B, 0x28, 0x42, 0x61]);
    assert.equal(real.encodingExists('iso-2022-jp'), false);
  });

  test(`${entry}: decodeStream and encodeStream are Node streams with collect()`, async () => {
    const bytes = iconv.encode(TEXT.repeat(50), 'gbk');
    const chunks = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    const text = await new Promise((resolve, reject) => {
      Readable.from(chunks).pipe(iconv.decodeStream('gbk')).collect((err, s) => (err ? reject(err) : resolve(s)));
    });
    assert.equal(text, iconv.decode(bytes, 'gbk'));
    const back = await new Promise((resolve, reject) => {
      Readable.from(['日本', '語\n']).pipe(iconv.encodeStream('shift_jis')).collect((err, b) => (err ? reject(err) : resolve(b)));
    });
    assert.deepEqual([...back], [...real.encode('日本語\n', 'shift_jis')]);
  });
}

test('documented differences from iconv-lite hold (README "Migrating from iconv-lite")', () => {
  // latin1 is windows-1252 in the Standard: 0x80 is €, not U+0080.
  assert.equal(iconvEsm.decode(Buffer.from([0x80]), 'latin1'), '€');
  assert.equal(real.decode(Buffer.from([0x80]), 'latin1'), '\u0080');
  // The Standard's gbk decoder is gb18030's: four-byte sequences decode.
  assert.equal(iconvEsm.decode(Buffer.from([0x95, 0x32, 0x82, 0x36]), 'gbk'), '\u{20000}');
  assert.notEqual(real.decode(Buffer.from([0x95, 0x32, 0x82, 0x36]), 'gbk'), '\u{20000}');
  // GB18030-2022: 0xA6 0xD9 is U+FE10.
  assert.equal(iconvEsm.decode(Buffer.from([0xA6, 0xD9]), 'gb18030'), '\uFE10');
  assert.notEqual(real.decode(Buffer.from([0xA6, 0xD9]), 'gb18030'), '\uFE10');
  // Shift_JIS encodes U+2212 MINUS SIGN as U+FF0D's bytes.
  assert.deepEqual([...iconvEsm.encode('\u2212', 'shift_jis')], [0x81, 0x7C]);
  assert.deepEqual([...real.encode('\u2212', 'shift_jis')], [0x3F]);
  // An error in a two-byte sequence whose second byte is not ASCII is one U+FFFD.
  assert.equal(iconvEsm.decode(Buffer.from([0xC9, 0xA1]), 'euc-kr'), '\uFFFD');
  assert.equal(real.decode(Buffer.from([0xC9, 0xA1]), 'euc-kr'), '\uFFFD\uFFFD');
});
