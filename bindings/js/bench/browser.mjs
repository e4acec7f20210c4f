// Speed in headless Chromium: textcodec's wasm core against the browser's own TextDecoder
// and @exodus/bytes (bundled for the browser by esbuild) on the same page, ~4 MB inputs
// from the benchmark corpus; a 24-byte call; first call (import + instantiate + first
// Shift_JIS decode). `node bench/browser.mjs [--json out.json] [--strings TextDecoder]
// [--browser firefox]` (Firefox: headless firefox-esr over WebDriver BiDi, test/browser/bidi.mjs;
// Node 20 needs --experimental-websocket).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serve } from '../test/browser/server.mjs';
import { launch } from '../test/browser/run.mjs';
import { Firefox } from '../test/browser/bidi.mjs';

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
const firefox = process.argv.includes('--browser') && process.argv[process.argv.indexOf('--browser') + 1] === 'firefox';
for (const [, l] of CASES) {
  if (!fs.existsSync(path.join(corpus, `${l}.text.txt`))) throw new Error(`${corpus}/${l}.text.txt is missing: python3 scripts/make-corpus.py`);
}
const { server, origin } = await serve();
const browser = firefox ? await Firefox.launch() : await launch();
try {
  let r;
  if (firefox) {
    // The page fetches the texts (a preload script of 40 MB of literals would be one
    // protocol message).
    const urls = CASES.map(([e, l]) => [e, `/bench-corpus/${l}.text.txt`]);
    await browser.preload(`() => {
      window.__bench = { urls: ${JSON.stringify(urls)} };
      if (${JSON.stringify(strings)}) globalThis.TEXTCODEC_STRINGS = ${JSON.stringify(strings)};
    }`);
    await browser.goto(`${origin}/bindings/js/bench/browser.html`);
    r = await browser.waitFor('window.__results ?? null', 600000);
  } else {
    const cases = CASES.map(([e, l]) => [e, fs.readFileSync(path.join(corpus, `${l}.text.txt`), 'utf8')]);
    const page = await browser.newPage();
    await page.addInitScript(([c, st]) => {
      window.__bench = { cases: c };
      if (st) globalThis.TEXTCODEC_STRINGS = st;
    }, [cases, strings]);
    await page.goto(`${origin}/bindings/js/bench/browser.html`);
    await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 600000 });
    r = await page.evaluate(() => window.__results);
  }
  const f = (x) => (x === undefined ? '—' : x.toFixed(0));
  const ratio = (a, b) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);
  console.log(`# ${firefox ? browser.version : `Chromium ${browser.version()}`}, wasm ${r.backend.simd ? 'simd128' : 'plain'}, strings: ${JSON.stringify(r.backend.strings)}`);
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
