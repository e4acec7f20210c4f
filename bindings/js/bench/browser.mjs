// Speed in headless Chromium: textcodec's wasm core against the browser's own TextDecoder
// and @exodus/bytes (bundled for the browser by esbuild) on the same page, ~4 MB inputs
// from the benchmark corpus; a 24-byte call; first call (import + instantiate + first
// Shift_JIS decode). `node bench/browser.mjs [--json out.json] [--strings TextDecoder]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serve } from '../test/browser/server.mjs';
import { launch } from '../test/browser/run.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const corpus = path.resolve(root, '../../bench-corpus');
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;
// --strings TextDecoder|fromCharCode: how the core builds strings (default: the fastest the
// page has; src/core.js), to compare the paths on one machine.
const strings = process.argv.includes('--strings') ? process.argv[process.argv.indexOf('--strings') + 1] : null;
fs.mkdirSync(path.join(root, 'bench/.cache'), { recursive: true });
await build({
  stdin: { contents: "export * from '@exodus/bytes/multi-byte.js'; export * from '@exodus/bytes/single-byte.js';", resolveDir: root, loader: 'js' },
  bundle: true, format: 'esm', platform: 'browser', outfile: path.join(root, 'bench/.cache/exodus.js'), logLevel: 'silent',
});
const CASES = [['Shift_JIS', 'ja'], ['EUC-JP', 'ja'], ['GBK', 'zh_Hans'], ['Big5', 'zh_Hant'], ['EUC-KR', 'ko'],
  ['KOI8-R', 'ru'], ['windows-1251', 'ru'], ['windows-1252', 'fr'], ['UTF-16LE', 'ja'], ['UTF-8', 'ja']];
const cases = CASES.map(([e, l]) => [e, fs.readFileSync(path.join(corpus, `${l}.text.txt`), 'utf8')]);
const { server, origin } = await serve();
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.addInitScript(([c, st]) => {
    window.__bench = { cases: c };
    if (st) globalThis.TEXTCODEC_STRINGS = st;
  }, [cases, strings]);
  await page.goto(`${origin}/bindings/js/bench/browser.html`);
  await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 600000 });
  const r = await page.evaluate(() => window.__results);
  const f = (x) => (x === undefined ? '—' : x.toFixed(0));
  const ratio = (a, b) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);
  console.log(`# Chromium ${browser.version()}, wasm ${r.backend.simd ? 'simd128' : 'plain'}, strings: ${JSON.stringify(r.backend.strings)}`);
  for (const row of r.rows) {
    console.log(`${row.encoding.padEnd(13)} decode ${f(row.decode)} MB/s | browser TextDecoder ${f(row.browser)} ${ratio(row.decode, row.browser)} | @exodus/bytes ${f(row.exodus)} ${ratio(row.decode, row.exodus)} || encode ${f(row.encode)} | @exodus/bytes ${f(row.exodusEncode)} ${ratio(row.encode, row.exodusEncode)}`);
  }
  console.log(`24-byte Shift_JIS decode, ns/call: textcodec ${f(r.small24.textcodec)}, browser ${f(r.small24.browser)}, @exodus/bytes ${f(r.small24.exodus)}`);
  console.log(`first call (import + instantiate + first Shift_JIS decode): ${r.firstCall.toFixed(1)} ms`);
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(r, null, 1));
} finally {
  await browser.close();
  server.close();
}
