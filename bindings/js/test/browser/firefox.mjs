// Headless Firefox (Debian's firefox-esr, or FIREFOX=path) over WebDriver BiDi (bidi.mjs):
// test/suite.js with the simd128 build (strings from the host's TextDecoder, and from the
// WasmGC builder) and with the plain one, then the Shift_JIS CSV demo of examples/web/, whose downloads (saved by
// Firefox into the profile's download directory) are checked byte for byte, as run.mjs
// does in Chromium. Node 20 needs --experimental-websocket (scripts/test-all.mjs passes it).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Firefox } from './bidi.mjs';
import { serve } from './server.mjs';
import { CSV } from './run.mjs';

const require = createRequire(import.meta.url);
const textcodec = require('../../dist/index.cjs');

async function main() {
  const { server, origin } = await serve();
  const firefox = await Firefox.launch();
  let failures = 0;
  try {
    console.log(`# ${firefox.version} (${origin})`);
    // The simd128 build with the string path Firefox gets by default (its TextDecoder:
    // src/core.js finds fromCharCodeArray slower in SpiderMonkey) and with the WasmGC string
    // builder asked for; the plain build with TextDecoder.
    const runs = [['simd', null, 'TextDecoder'], ['simd', 'fromCharCodeArray', 'fromCharCodeArray'], ['plain', 'TextDecoder', 'TextDecoder']];
    for (const [build, forced, wantStrings] of runs) {
      const unload = await firefox.preload(`() => {
        globalThis.TEXTCODEC_WASM = ${JSON.stringify(build)};
        if (${JSON.stringify(forced)}) globalThis.TEXTCODEC_STRINGS = ${JSON.stringify(forced)};
      }`);
      await firefox.goto(`${origin}/bindings/js/test/browser/index.html`);
      const r = await firefox.waitFor('window.__results ?? null');
      await unload();
      if (!r.backend || r.backend.simd !== (build === 'simd')) {
        r.failed.push(['the build', `asked for ${build}, loaded ${JSON.stringify(r.backend)}`]);
      }
      const strings = r.backend?.strings?.utf16;
      if (strings !== wantStrings) {
        r.failed.push(['the string path', `expected ${wantStrings}, used ${JSON.stringify(r.backend?.strings)}`]);
      }
      const label = `wasm ${build}, strings ${forced ? `${forced} (forced)` : strings}`;
      console.log(`# Firefox, ${label} (kernel ${r.backend?.kernel}): ${r.passed} passed, ${r.failed.length} failed in ${Math.round(r.ms)} ms`);
      for (const [name, message] of r.failed) console.error(`FAILED (Firefox, ${label}): ${name}\n${message}`);
      if (r.passed === 0) failures++;
      failures += r.failed.length;
    }
    failures += await demo(firefox, origin);
  } finally {
    await firefox.close();
    server.close();
  }
  if (failures) {
    console.error(`Firefox tests: ${failures} failed`);
    process.exit(1);
  }
}

async function demo(firefox, origin) {
  let failures = 0;
  const fail = (message) => { console.error(`FAILED (Firefox demo): ${message}`); failures++; };
  await firefox.goto(`${origin}/examples/web/index.html`);
  await firefox.waitFor(`document.body.dataset.ready === 'true' || null`);
  const csv = await firefox.evaluate(`window.tableToCsv(document.getElementById('data'))`);
  if (csv !== CSV) fail(`the page's CSV differs from the table: ${JSON.stringify(csv)}`);
  for (const mode of ['replace', 'html']) {
    const expected = Buffer.from(textcodec.encode(CSV, 'shift_jis', { errors: mode }));
    const file = path.join(firefox.downloads, 'table.csv');
    fs.rmSync(file, { force: true });
    await firefox.evaluate(`(document.querySelector('input[name=errors][value=${mode}]').click(),
      document.getElementById('export').click(), document.getElementById('status').textContent)`, { userActivation: true });
    // Firefox writes the file, then renames nothing: wait until it exists and has stopped growing.
    const end = Date.now() + 30000;
    let got = null;
    while (Date.now() < end) {
      if (fs.existsSync(file)) {
        const size = fs.statSync(file).size;
        await new Promise((r) => setTimeout(r, 200));
        if (size > 0 && fs.statSync(file).size === size) { got = fs.readFileSync(file); break; }
      } else {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (got === null) {
      fail(`${mode}: no download in ${firefox.downloads} (${fs.readdirSync(firefox.downloads).join(', ') || 'empty'})`);
    } else if (!got.equals(expected)) {
      let i = 0;
      while (i < got.length && got[i] === expected[i]) i++;
      fail(`${mode}: the download (${got.length} bytes) differs from the expected ${expected.length} bytes at byte ${i}`);
    } else {
      console.log(`ok - Firefox demo: the ${mode} download is ${got.length} bytes, byte for byte as expected`);
    }
  }
  const status = await firefox.evaluate(`(document.querySelector('input[name=errors][value=fatal]').click(),
    document.getElementById('export').click(), document.getElementById('status').textContent)`, { userActivation: true });
  if (!/U\+00E9 at index \d+ cannot be encoded in Shift_JIS/.test(status)) fail(`fatal mode status: ${status}`);
  else console.log(`ok - Firefox demo: fatal mode refuses: ${status}`);
  return failures;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
