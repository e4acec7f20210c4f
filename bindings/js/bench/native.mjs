// The wasm core against the native addon (textcodec-native, bindings/node) in Node, per
// decoder, through this package's own decode() and TextDecoder: which path is faster decides
// src/native.js's NATIVE_DECODERS. ~4 MB inputs of the benchmark corpus (as bench/node.mjs)
// and 24-byte calls. Needs the addon built (cd ../node && npm ci && npm run build) and
// resolvable as textcodec-native (npm test links it for its native run).
//   node bench/native.mjs [--quick] [--only Shift_JIS,EUC-KR]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createCore } from '../src/core.js';
import { createApi } from '../src/api.js';
import { loadWasm } from '../src/load.js';

const require = createRequire(import.meta.url);
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const corpus = path.resolve(root, '../../bench-corpus');
const quick = process.argv.includes('--quick');
let binding;
try {
  binding = require('textcodec-native/native');
} catch (e) {
  try {
    binding = require('../../node/native.js');
  } catch {
    console.error(`bench/native.mjs: the addon is not built (cd ../node && npm ci && npm run build): ${e.message}`);
    process.exit(1);
  }
}

const loaded = await loadWasm();
const wasm = createApi(createCore(loaded.instance, loaded));
const loaded2 = await loadWasm();
const all = wasm.encodings().filter((n) => n !== 'replacement');
const native = createApi(createCore(loaded2.instance, loaded2), binding, all, 0);

const CASES = [
  ['Shift_JIS', 'ja'], ['EUC-JP', 'ja'], ['ISO-2022-JP', 'ja'], ['GBK', 'zh_Hans'], ['gb18030', 'zh_Hans'],
  ['Big5', 'zh_Hant'], ['EUC-KR', 'ko'], ['KOI8-R', 'ru'], ['windows-1251', 'ru'], ['windows-1252', 'fr'],
  ['ISO-8859-7', 'el'], ['windows-1255', 'he'], ['UTF-16LE', 'ja'], ['UTF-8', 'ja'],
];
const SIZE = 4 << 20;
function input(encoding, lang) {
  const file = path.join(corpus, `${lang}.text.txt`);
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8')
    : 'Text for the benchmark: 日本語のテキスト, 中文文本, 한국어 텍스트, русский текст, ελληνικά, עברית. '.repeat(200);
  const once = wasm.encode(text, encoding, { errors: 'replace' });
  const reps = Math.ceil(SIZE / once.length);
  const bytes = new Uint8Array(once.length * reps);
  for (let i = 0; i < reps; i++) bytes.set(once, i * once.length);
  return bytes;
}
/** ns per call over one batch of ~0.2 s. */
function batch(fn) {
  fn();
  const t = process.hrtime.bigint();
  let n = 0;
  do { fn(); n++; } while (Number(process.hrtime.bigint() - t) < 2e8);
  return Number(process.hrtime.bigint() - t) / n;
}

/** Best ns per call of several batches of ~0.2 s (after a warm-up). */
function nsPerCall(fn) {
  fn();
  let best = Infinity;
  for (let r = 0; r < (quick ? 3 : 7); r++) {
    const t = process.hrtime.bigint();
    let n = 0;
    do { fn(); n++; } while (Number(process.hrtime.bigint() - t) < 2e8);
    best = Math.min(best, Number(process.hrtime.bigint() - t) / n);
  }
  return best;
}

console.log(`Node ${process.version}, wasm ${loaded.simd ? 'simd128' : 'plain'}; MB/s on ~4 MB (decode()), ns per 24-byte call (decode() / TextDecoder#decode)`);
console.log('| encoding | wasm MB/s | native MB/s | native/wasm, median of paired rounds (range) | wasm 24 B ns | native 24 B ns | wasm TD 24 B | native TD 24 B |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;
const rows = [];
for (const [encoding, lang] of CASES) {
  if (only && !only.includes(encoding)) continue;
  const bytes = input(encoding, lang);
  const a = wasm.decode(bytes, encoding);
  const b = native.decode(bytes, encoding);
  if (a !== b) throw new Error(`${encoding}: the two paths differ`);
  const mbs = (ns) => bytes.length / ns * 1e3;
  // Paired rounds, wasm then addon, so that load from other processes hits both alike; the
  // ratio is the median of the rounds' ratios, the speeds the best rounds.
  const pairs = [];
  for (let r = 0; r < (quick ? 3 : 9); r++) {
    pairs.push([batch(() => wasm.decode(bytes, encoding)), batch(() => native.decode(bytes, encoding))]);
  }
  const w = mbs(Math.min(...pairs.map((p) => p[0])));
  const n = mbs(Math.min(...pairs.map((p) => p[1])));
  const ratios = pairs.map(([a, b]) => a / b).sort((x, y) => x - y);
  const ratio = ratios[ratios.length >> 1];
  // 24 bytes: a whole-character cut of the same input (decoding it may end mid-character,
  // which is the same work for both).
  const small = bytes.subarray(0, 24);
  const ws = nsPerCall(() => wasm.decode(small, encoding));
  const ns = nsPerCall(() => native.decode(small, encoding));
  const tw = new wasm.TextDecoder(encoding);
  const tn = new native.TextDecoder(encoding);
  const tws = nsPerCall(() => tw.decode(small));
  const tns = nsPerCall(() => tn.decode(small));
  rows.push({ encoding, wasm: w, native: n, ratio, wasm24: ws, native24: ns, wasmTD24: tws, nativeTD24: tns });
  console.log(`| ${encoding} | ${w.toFixed(0)} | ${n.toFixed(0)} | ${ratio.toFixed(2)} (${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)}) | ${ws.toFixed(0)} | ${ns.toFixed(0)} | ${tws.toFixed(0)} | ${tns.toFixed(0)} |`);
}
