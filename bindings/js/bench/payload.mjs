// Browser payload, gzip -9 and brotli -q 11: textcodec per entry point (its JS bundled and
// minified by esbuild, plus the core's main wasm module; detect() and sniff() fetch a second
// module on first use, reported on its own row) against iconv-lite's browser bundle (with the `buffer` shim browsers need, as bundlers
// add it), @exodus/bytes's TextDecoder/TextEncoder with the legacy multi-byte decoders, and
// text-encoding. Each entry bundled by esbuild for the browser, minified.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const gz = (b) => zlib.gzipSync(b, { level: 9 }).length;
const br = (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

async function bundle(contents, extra = {}) {
  const r = await build({
    stdin: { contents, resolveDir: root, loader: 'js' }, bundle: true, minify: true, write: false,
    platform: 'browser', format: 'esm', logLevel: 'silent', ...extra,
  });
  return Buffer.from(r.outputFiles[0].contents);
}

const rows = [];
const add = (name, parts) => {
  const all = Buffer.concat(parts.map(([, b]) => b));
  rows.push({ name, raw: all.length, gzip: parts.reduce((n, [, b]) => n + gz(b), 0), brotli: parts.reduce((n, [, b]) => n + br(b), 0), parts: parts.map(([p, b]) => `${p} ${kib(b.length)}`).join(' + ') });
};

const wasm = (name) => fs.readFileSync(path.join(root, 'wasm', name));
const ours = await bundle(`export * from './src/index.js';`);
add('textcodec (simd128 build)', [['JS', ours], ['wasm', wasm('textcodec-simd.wasm')]]);
add('textcodec (plain build)', [['JS', ours], ['wasm', wasm('textcodec.wasm')]]);
add('textcodec/polyfill (simd128)', [['JS', await bundle(`export * from './src/polyfill.js';`)], ['wasm', wasm('textcodec-simd.wasm')]]);
add('textcodec/iconv-lite (simd128)', [['JS', await bundle(`export { default } from './src/iconv-lite.js';`)], ['wasm', wasm('textcodec-simd.wasm')]]);
add('+ detect/sniff module, fetched on first use (one build)', [['wasm', wasm('textcodec-detect.wasm')]]);
// iconv-lite needs Buffer: a browser bundle carries a shim. The `buffer` package is not a
// dependency here, so the shim's size is the measurement's difference (noted).
try {
  add('iconv-lite (without the buffer, string_decoder, stream shims)', [['JS', await bundle(`import iconv from 'iconv-lite'; export default iconv;`, { external: ['buffer', 'safer-buffer', 'string_decoder', 'stream'] })]]);
} catch (e) { console.log(`iconv-lite: ${e.message}`); }
add('@exodus/bytes (TextDecoder + multi-byte + single-byte)', [['JS', await bundle(`export * from '@exodus/bytes/encoding.js'; export * from '@exodus/bytes/multi-byte.js'; export * from '@exodus/bytes/single-byte.js';`)]]);
add('text-encoding', [['JS', await bundle(`import te from 'text-encoding'; export default te;`, { external: ['util'] })]]);
for (const r of rows) console.log(`${r.name.padEnd(54)} raw ${kib(r.raw).padStart(10)}  gzip ${kib(r.gzip).padStart(10)}  brotli ${kib(r.brotli).padStart(10)}   (${r.parts})`);
