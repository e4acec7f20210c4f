'use strict';
// Decode/encode throughput of this module against Node's built-in TextDecoder/TextEncoder.
//
// Inputs: the benchmark corpus (bench-corpus/ at the repository root, made by
// `python3 scripts/make-corpus.py`; override with BENCH_CORPUS=dir). The UTF-8 files are
// re-encoded at startup with textcodec's own encoders (the Standard's *encode* hook, html
// mode) so both decoders see the same legacy bytes. Without a corpus the script falls back
// to a synthetic text (a fixed multilingual paragraph repeated to 256 KiB) and says so.
//
// Usage: npm run bench [-- --time=MS]   (default 400 ms per measurement, best of 5)
const fs = require('node:fs');
const path = require('node:path');
const ours = require('..');
const native = require('../native.js');

const TIME_MS = Number((process.argv.find((a) => a.startsWith('--time=')) || '--time=400').slice(7));
const ROUNDS = 5;
const corpusDir = process.env.BENCH_CORPUS || path.resolve(__dirname, '../../../bench-corpus');

const SYNTHETIC = 'The quick brown fox — 速い茶色の狐が怠け者の犬を飛び越える。敏捷的棕色狐狸跳过了懒狗。' +
  'Der schnelle braune Fuchs springt über den faulen Hund. Ça coûte 5 €.\n';

function loadText(file) {
  const p = path.join(corpusDir, file);
  if (fs.existsSync(p)) return { text: fs.readFileSync(p, 'utf8'), source: `bench-corpus/${file}` };
  let text = '';
  while (text.length < 128 * 1024) text += SYNTHETIC;
  return { text, source: 'synthetic (bench-corpus missing)' };
}

// Time is the process's CPU time (user + system, all threads), not wall-clock time: the
// machines this runs on are shared, and CPU time is far less sensitive to other load.
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
}

function measure(fn, bytes) {
  for (let i = 0; i < 5; i++) fn(); // warm up
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    let iterations = 0;
    const start = cpuMs();
    let elapsed = 0;
    do {
      fn();
      iterations++;
      elapsed = cpuMs() - start;
    } while (elapsed < TIME_MS / ROUNDS);
    best = Math.min(best, elapsed / iterations);
  }
  return bytes / 1e6 / (best / 1e3); // MB/s
}

const rows = [];
function row(kind, what, source, bytes, oursFn, nodeFn, check) {
  if (check) check();
  const a = measure(oursFn, bytes);
  const b = measure(nodeFn, bytes);
  rows.push({ kind, what, source, bytes, ours: a, node: b });
  console.error(`${kind.padEnd(7)} ${what.padEnd(28)} textcodec ${a.toFixed(0).padStart(6)} MB/s   node ${b.toFixed(0).padStart(6)} MB/s   ×${(a / b).toFixed(2)}`);
}

function decodeCase(label, file, encodeWith) {
  const { text, source } = loadText(file);
  const bytes = encodeWith === 'utf16le' ? new Uint8Array(Buffer.from(text, 'utf16le'))
    : encodeWith === 'utf-8' ? new TextEncoder().encode(text)
      : native._encodeHtml(encodeWith, text);
  const o = new ours.TextDecoder(label);
  const n = new TextDecoder(label);
  row('decode', `${label} (${file})`, source, bytes.length, () => o.decode(bytes), () => n.decode(bytes), () => {
    const a = o.decode(bytes);
    const b = n.decode(bytes);
    if (a !== b) console.error(`  note: outputs differ (${label}): Node's built-in is not the Standard here`);
  });
}

function encodeCase(file) {
  const { text, source } = loadText(file);
  const o = new ours.TextEncoder();
  const n = new TextEncoder();
  const bytes = n.encode(text).length;
  row('encode', `utf-8 (${file})`, source, bytes, () => o.encode(text), () => n.encode(text));
  const dst = new Uint8Array(text.length * 3);
  row('encInto', `utf-8 (${file})`, source, bytes, () => o.encodeInto(text, dst), () => n.encodeInto(text, dst));
}

function smallCase() {
  // Per-call overhead: a 24-byte string, bytes counted as UTF-8.
  const s = 'héllo, wörld — 日本';
  const b = new TextEncoder().encode(s);
  const o = new ours.TextDecoder();
  const n = new TextDecoder();
  row('decode', 'utf-8 (24-byte string)', 'inline', b.length, () => o.decode(b), () => n.decode(b));
  const oe = new ours.TextEncoder();
  const ne = new TextEncoder();
  row('encode', 'utf-8 (24-byte string)', 'inline', b.length, () => oe.encode(s), () => ne.encode(s));
}

decodeCase('utf-8', 'ja.text.txt', 'utf-8');
decodeCase('utf-8', 'de.po.txt', 'utf-8');
decodeCase('utf-8', 'ascii.txt', 'utf-8');
decodeCase('utf-16le', 'ja.text.txt', 'utf16le');
decodeCase('utf-16le', 'de.po.txt', 'utf16le');
decodeCase('shift_jis', 'ja.text.txt', 'shift_jis');
decodeCase('gb18030', 'zh_Hans.text.txt', 'gb18030');
decodeCase('windows-1252', 'de.text.txt', 'windows-1252');
decodeCase('windows-1252', 'fr.po.txt', 'windows-1252');
encodeCase('ja.text.txt');
encodeCase('de.po.txt');
encodeCase('ascii.txt');
smallCase();

console.log('| operation | input | bytes | textcodec MB/s | Node built-in MB/s | ratio |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.kind} | ${r.what}${r.source.startsWith('synthetic') ? ' (synthetic)' : ''} | ${r.bytes} | ${r.ours.toFixed(0)} | ${r.node.toFixed(0)} | ${(r.ours / r.node).toFixed(2)} |`);
}
