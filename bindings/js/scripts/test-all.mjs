// `npm test`: every part of the suite, each timed, failing loudly on the first failure.
//   Node: test/node/ with the simd128 build and with the plain one (ES module and CommonJS
//         entries), bindings/node's Web IDL/decoder/encoder/stream tests on the CommonJS
//         entry, and test/suite.js without the host's TextDecoder/TextEncoder (strings
//         built with String.fromCharCode), all with TEXTCODEC_NATIVE=0; then the same
//         Node tests once more with the native addon (TEXTCODEC_NATIVE=1, bindings/node's
//         textcodec.node linked as node_modules/textcodec-native), or a line saying
//         "native: SKIPPED" when the addon has not been built;
//   the package: npm pack holds the .wasm files, and installs and runs from its tarball;
//   Deno and Bun (from node_modules: npm packages `deno`, `bun`): test/suite.js, both builds;
//   Chromium (playwright-core; /usr/bin/chromium): test/suite.js, both builds, and the demo;
//   Firefox (WebDriver BiDi, test/browser/bidi.mjs; /usr/bin/firefox-esr): the same.
// TEXTCODEC_TEST_ONLY=node,pack,deno,bun,chromium,firefox runs a subset.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const only = process.env.TEXTCODEC_TEST_ONLY?.split(',');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const timings = [];
const all = Date.now();

function step(group, name, cmd, args, env = {}, options = {}) {
  if (only && !only.includes(group)) return;
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: options.cwd ?? root, stdio: options.capture ? 'pipe' : 'inherit', env: { ...process.env, ...env }, encoding: 'utf8', timeout: 600000 });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  timings.push(`${name}: ${seconds} s`);
  if (r.status !== 0) {
    if (options.capture) process.stdout.write(r.stdout + r.stderr);
    console.error(`\nnpm test: FAILED: ${name} (exit ${r.status ?? r.signal}${r.error ? `, ${r.error.message}` : ''})`);
    console.error(timings.join('\n'));
    process.exit(1);
  }
  if (options.capture) for (const line of `${r.stdout}`.split('\n')) if (line.startsWith('#')) console.log(line);
  return r;
}

for (const f of ['wasm/textcodec.wasm', 'wasm/textcodec-simd.wasm', 'wasm/textcodec-detect.wasm', 'dist/index.cjs']) {
  if (!fs.existsSync(path.join(root, f))) {
    console.error(`npm test: ${f} is missing: run \`npm run build\` first (needs Rust and the wasm32-unknown-unknown target)`);
    process.exit(1);
  }
}

const indexes = path.resolve(root, '../../../shared/spec/indexes');
if (fs.existsSync(indexes)) {
  step('node', 'fixtures match the Standard\'s data files', process.execPath, ['scripts/gen-vectors.mjs', '--check']);
} else {
  console.log(`(${indexes} not found: the fixtures are not compared with the Standard's files)`);
}
for (const build of ['simd', 'plain']) {
  step('node', `Node ${process.version}, wasm ${build}: test/node/`, process.execPath, ['--test', 'test/node/'], { TEXTCODEC_WASM: build, TEXTCODEC_NATIVE: '0' });
}
const addonTests = path.resolve(root, '../node/test');
if (fs.existsSync(addonTests)) {
  const files = ['webidl', 'decoder', 'encoder', 'streams'].map((f) => path.join(addonTests, `${f}.test.js`));
  for (const build of ['simd', 'plain']) {
    step('node', `Node, wasm ${build}: bindings/node's Web IDL, decoder, encoder and stream tests`, process.execPath, ['--test', ...files],
      { TEXTCODEC_WASM: build, TEXTCODEC_NATIVE: '0', TEXTCODEC_MODULE: path.join(root, 'dist', 'index.cjs') });
  }
}
step('node', 'Node, wasm plain, no host TextDecoder/TextEncoder: test/suite.js', process.execPath, ['test/run-suite.mjs'],
  { TEXTCODEC_WASM: 'plain', TEXTCODEC_STRINGS: 'fromCharCode', TEXTCODEC_NATIVE: '0' }, { capture: true });

// The native addon (bindings/node, package textcodec-native) as the optional faster path:
// the Node tests again, with TEXTCODEC_NATIVE=1 (which fails if the addon does not load).
if (!only || only.includes('node')) {
  const addonDir = path.resolve(root, '../node');
  const link = path.join(root, 'node_modules', 'textcodec-native');
  if (!fs.existsSync(path.join(addonDir, 'textcodec.node'))) {
    console.log(`\n=== native: SKIPPED, addon not built (${path.join(addonDir, 'textcodec.node')} is missing: cd ../node && npm ci && npm run build)`);
    timings.push('native: SKIPPED, addon not built');
  } else {
    // Linked as an installed optional dependency is, for this run only.
    // (process.exit on a failure skips `finally`: the exit handler removes it then.)
    const linked = !fs.existsSync(link);
    const unlink = () => { if (linked) fs.rmSync(link, { force: true }); };
    if (linked) { fs.symlinkSync(path.relative(path.dirname(link), addonDir), link, 'dir'); process.on('exit', unlink); }
    try {
      const native = { TEXTCODEC_WASM: 'simd', TEXTCODEC_NATIVE: '1' };
      step('node', `Node ${process.version}, native addon (+ wasm simd): test/node/`, process.execPath, ['--test', 'test/node/'], native);
      if (fs.existsSync(addonTests)) {
        const files = ['webidl', 'decoder', 'encoder', 'streams'].map((f) => path.join(addonTests, `${f}.test.js`));
        step('node', 'Node, native addon (+ wasm simd): bindings/node\'s Web IDL, decoder, encoder and stream tests', process.execPath, ['--test', ...files],
          { ...native, TEXTCODEC_MODULE: path.join(root, 'dist', 'index.cjs') });
      }
    } finally {
      unlink();
    }
  }
}

if (!only || only.includes('pack')) {
  // The tarball holds the .wasm files and installs and runs where no Rust is needed.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'textcodec-pack-'));
  try {
    const packed = step('pack', 'npm pack', 'npm', ['pack', '--json', '--pack-destination', tmp], {}, { capture: true });
    const [{ filename, files }] = JSON.parse(packed.stdout);
    const names = files.map((f) => f.path);
    for (const want of ['wasm/textcodec.wasm', 'wasm/textcodec-simd.wasm', 'wasm/textcodec-detect.wasm', 'dist/index.cjs', 'src/index.js', 'src/detect.js', 'index.d.ts']) {
      if (!names.includes(want)) { console.error(`npm test: FAILED: the package lacks ${want}: ${names.join(', ')}`); process.exit(1); }
    }
    fs.writeFileSync(path.join(tmp, 'package.json'), '{"name":"consumer","version":"1.0.0","private":true}');
    step('pack', 'npm install <tarball> (offline, no Rust needed)', 'npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(tmp, filename)], {}, { cwd: tmp, capture: true });
    const check = `
      const assert = require('node:assert');
      const cjs = require('textcodec');
      // textcodec-native is not installed here: the wasm core, quietly.
      assert.match(cjs.core, /^wasm-(simd|plain)$/);
      const iconv = require('textcodec/iconv-lite');
      assert.deepStrictEqual([...cjs.encode('日本', 'shift_jis')], [0x93, 0xFA, 0x96, 0x7B]);
      assert.strictEqual(iconv.decode(Buffer.from([0x93, 0xFA]), 'sjis'), '日');
      assert.strictEqual(cjs.sniff(Buffer.from('<meta charset="big5">')).encoding, 'big5');
      import('textcodec').then((esm) => {
        assert.strictEqual(esm.decode(new Uint8Array([0xA4, 0xA2]), 'euc-jp'), 'あ');
        return import('textcodec/polyfill');
      }).then((p) => { assert.ok(Array.isArray(p.installed)); console.log('installed package works; polyfill replaced: ' + p.installed.join(', ')); })
        .catch((e) => { console.error(e); process.exit(1); });`;
    step('pack', 'the installed package: require, import, iconv-lite, polyfill', process.execPath, ['-e', check], {}, { cwd: tmp });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

for (const build of ['simd', 'plain']) {
  step('deno', `Deno, wasm ${build}: test/suite.js`, bin('deno'), ['run', '--allow-read', '--allow-env', 'test/run-suite.mjs'], { TEXTCODEC_WASM: build, NO_COLOR: '1' }, { capture: true });
  step('bun', `Bun, wasm ${build}: test/suite.js`, bin('bun'), ['test/run-suite.mjs'], { TEXTCODEC_WASM: build }, { capture: true });
}
step('deno', 'TypeScript declarations: deno check test/types.ts', bin('deno'), ['check', 'test/types.ts'], { NO_COLOR: '1' }, { capture: true });
step('chromium', 'Chromium: test/suite.js (simd128 and plain) and the Shift_JIS CSV demo', process.execPath, ['test/browser/run.mjs']);
// Node 20 has WebSocket behind a flag (global from Node 22).
const websocket = typeof WebSocket === 'function' ? [] : ['--experimental-websocket', '--disable-warning=ExperimentalWarning'];
step('firefox', 'Firefox: test/suite.js (simd128 and plain) and the Shift_JIS CSV demo', process.execPath, [...websocket, 'test/browser/firefox.mjs']);

console.log(`\nnpm test: all passed in ${((Date.now() - all) / 1000).toFixed(1)} s\n  ${timings.join('\n  ')}`);
