// Headless Chromium (Debian's /usr/bin/chromium, or CHROMIUM=path) driven by playwright-core:
// test/suite.js with the simd128 build and with the plain one, then the demo page
// examples/web/ ("export this table as a Shift_JIS CSV"), whose download is checked byte for
// byte against iconv-lite and against textcodec in Node.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { serve } from './server.mjs';

const require = createRequire(import.meta.url);
const iconv = require('iconv-lite');
const textcodec = require('../../dist/index.cjs');

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launch() {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium (or set CHROMIUM)`);
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

async function main() {
  const { server, origin } = await serve();
  const browser = await launch();
  let failures = 0;
  try {
    console.log(`# ${browser.version()} (${origin})`);
    for (const build of ['simd', 'plain']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
      // The plain build (for engines without wasm SIMD, which lack the JS String Builtins
      // too) builds its strings with the host's TextDecoder; the simd128 one with
      // src/string-builder.js.
      await page.addInitScript((b) => {
        globalThis.TEXTCODEC_WASM = b;
        if (b === 'plain') globalThis.TEXTCODEC_STRINGS = 'TextDecoder';
      }, build);
      await page.goto(`${origin}/bindings/js/test/browser/index.html`);
      await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 120000 });
      const r = await page.evaluate(() => window.__results);
      const wantSimd = build === 'simd';
      const wantStrings = build === 'simd' ? 'fromCharCodeArray' : 'TextDecoder';
      if (r.backend?.strings?.utf16 !== wantStrings) {
        r.failed.push(['the string path', `asked for ${wantStrings}, used ${JSON.stringify(r.backend?.strings)}`]);
      }
      if (!r.backend || r.backend.simd !== wantSimd) {
        r.failed.push(['the build', `asked for ${build}, loaded ${JSON.stringify(r.backend)}`]);
      }
      console.log(`# Chromium, wasm ${build} (kernel ${r.backend?.kernel}): ${r.passed} passed, ${r.failed.length} failed in ${Math.round(r.ms)} ms`);
      for (const [name, message] of r.failed) console.error(`FAILED (Chromium, ${build}): ${name}\n${message}`);
      failures += r.failed.length;
      await context.close();
    }
    failures += await demo(browser, origin);
  } finally {
    await browser.close();
    server.close();
  }
  if (failures) {
    console.error(`browser tests: ${failures} failed`);
    process.exit(1);
  }
}

// The demo table's CSV, as written in examples/web/index.html.
export const CSV = '商品コード,商品名,数量,備考\r\n' +
  'A-001,りんご（青森県産）,12,冷蔵\r\n' +
  'A-002,ﾊﾞﾅﾅ,5,"""特価"", 即日"\r\n' +
  'B-100,日本茶 ①,3,髙島屋 − 本店\r\n' +
  'C-7,Café au lait,1,é is not in Shift_JIS\r\n';

async function demo(browser, origin) {
  let failures = 0;
  const fail = (message) => { console.error(`FAILED (demo): ${message}`); failures++; };
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${origin}/examples/web/index.html`);
  await page.waitForSelector('body[data-ready=true]');
  const csv = await page.evaluate(() => window.tableToCsv(document.getElementById('data')));
  if (csv !== CSV) fail(`the page's CSV differs from the table: ${JSON.stringify(csv)}`);
  const expected = {
    // iconv-lite writes ? for what Shift_JIS lacks, and agrees with the Standard on this text
    // except U+2212 (MINUS SIGN), which the Standard encodes as U+FF0D's 0x81 0x7C.
    replace: Buffer.from(textcodec.encode(CSV, 'shift_jis', { errors: 'replace' })),
    html: Buffer.from(textcodec.encode(CSV, 'shift_jis', { errors: 'html' })),
  };
  const viaIconv = iconv.encode(CSV.replace('−', '－'), 'shift_jis');
  if (!viaIconv.equals(expected.replace)) fail('textcodec in Node and iconv-lite disagree on the demo CSV');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'textcodec-demo-'));
  try {
    for (const mode of ['replace', 'html']) {
      await page.check(`input[name=errors][value=${mode}]`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
      const file = path.join(dir, `${mode}.csv`);
      await download.saveAs(file);
      const got = fs.readFileSync(file);
      if (download.suggestedFilename() !== 'table.csv') fail(`file name ${download.suggestedFilename()}`);
      if (!got.equals(expected[mode])) {
        let i = 0;
        while (i < got.length && got[i] === expected[mode][i]) i++;
        fail(`${mode}: the download (${got.length} bytes) differs from the expected ${expected[mode].length} bytes at byte ${i}`);
      } else {
        console.log(`ok - demo: the ${mode} download is ${got.length} bytes, byte for byte as expected`);
      }
    }
    await page.check('input[name=errors][value=fatal]');
    await page.click('#export');
    const status = await page.textContent('#status');
    if (!/U\+00E9 at index \d+ cannot be encoded in Shift_JIS/.test(status)) fail(`fatal mode status: ${status}`);
    else console.log(`ok - demo: fatal mode refuses: ${status}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await context.close();
  }
  return failures;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
