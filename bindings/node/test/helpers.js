'use strict';
// Shared test utilities: the Standard's data files (../../../shared/spec/indexes, as in
// CI's checkout) and small stream helpers.
const fs = require('node:fs');
const path = require('node:path');

const SPEC_DIR = process.env.TEXTCODEC_SPEC_INDEXES ||
  path.resolve(__dirname, '../../../../shared/spec/indexes');

function specFile(name) {
  const file = path.join(SPEC_DIR, name);
  if (!fs.existsSync(file)) {
    throw new Error(
      `missing ${file}: these tests read the Standard's data files; set ` +
        'TEXTCODEC_SPEC_INDEXES to the directory holding encodings.json and index-*.txt',
    );
  }
  return fs.readFileSync(file, 'utf8');
}

/** [{name, labels}] for every encoding, from encodings.json. */
function encodings() {
  return JSON.parse(specFile('encodings.json')).flatMap((group) => group.encodings);
}

/** Map pointer → code point for index-NAME.txt. */
function index(name) {
  const map = new Map();
  for (const line of specFile(`index-${name}.txt`).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [pointer, codePoint] = line.trim().split(/\s+/);
    map.set(Number(pointer), Number(codePoint));
  }
  return map;
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

module.exports = { encodings, index, pipeChunks, rng, bytes, codePoints, SPEC_DIR };
