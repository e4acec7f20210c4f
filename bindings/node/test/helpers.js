'use strict';
// Shared test utilities: the Standard's data (encodings.json and the indexes, copied into
// the repository as bindings/js/test/fixtures/encoding-data.json by
// bindings/js/scripts/gen-vectors.mjs, so that the tests run from a plain clone) and small
// stream helpers. TEXTCODEC_MODULE names the module under test (default: this package; the
// wasm package's CommonJS entry runs the same tests, see bindings/js/scripts/test-all.mjs).
const path = require('node:path');

const DATA_FILE = path.resolve(__dirname, '../../js/test/fixtures/encoding-data.json');
let data = null;
function specData() {
  data ??= JSON.parse(require('node:fs').readFileSync(DATA_FILE, 'utf8'));
  return data;
}

/** The module under test. */
function textcodec() {
  return require(process.env.TEXTCODEC_MODULE || '..');
}

/** [{name, labels}] for every encoding, from encodings.json. */
function encodings() {
  return specData().encodings.flatMap((group) => group.encodings);
}

/** Map pointer → code point for index-NAME.txt. */
function index(name) {
  const entries = specData().indexes[name];
  if (!entries) throw new Error(`no index ${name} in ${DATA_FILE}`);
  return new Map(entries);
}

/** Writes chunks to a transform stream's writable side and collects what it reads. */
async function pipeChunks(transform, chunks) {
  const writer = transform.writable.getWriter();
  const reader = transform.readable.getReader();
  const output = [];
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      output.push(value);
    }
  })();
  const writing = (async () => {
    for (const chunk of chunks) await writer.write(chunk);
    await writer.close();
  })();
  const [w, r] = await Promise.allSettled([writing, reading]);
  if (w.status === 'rejected') throw w.reason;
  if (r.status === 'rejected') throw r.reason;
  return output;
}

/** A deterministic pseudo-random generator (xorshift32). */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

const bytes = (...b) => new Uint8Array(b.flat());
const codePoints = (s) => [...s].map((c) => c.codePointAt(0));

module.exports = { encodings, index, pipeChunks, rng, bytes, codePoints, textcodec, DATA_FILE };
