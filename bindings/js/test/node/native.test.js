// The native addon as the Node core's optional faster path (src/native.js): which core is in
// use, that the routed decoders go through the addon (and nothing else does), and the
// TEXTCODEC_NATIVE switch. The suite itself (test/node/suite.test.js) runs once with
// TEXTCODEC_NATIVE=0 per wasm build and once with TEXTCODEC_NATIVE=1 (scripts/test-all.mjs).
import test from 'node:test';
import assert from 'node:assert';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esm from '../../src/index.js';
import { loadNative, nativeMayBeInstalled, NATIVE_DECODERS, NATIVE_MIN_BYTES } from '../../src/native.js';

const require = createRequire(import.meta.url);
const cjs = require('../../dist/index.cjs');
const forced = process.env.TEXTCODEC_NATIVE;
let addonResolves = true;
try { require.resolve('textcodec-native/native'); } catch { addonResolves = false; }

test('the core in use is the one asked for (TEXTCODEC_NATIVE)', () => {
  const wasm = esm.backend.simd ? 'wasm-simd' : 'wasm-plain';
  const want = forced === '1' ? 'native' : forced === '0' ? wasm : addonResolves ? 'native' : wasm;
  assert.strictEqual(esm.core, want);
  assert.strictEqual(cjs.core, want);
  assert.strictEqual(esm.default.core, want);
  if (want === 'native') {
    assert.deepStrictEqual(esm.backend.native, { decoders: NATIVE_DECODERS, minBytes: NATIVE_MIN_BYTES });
  } else {
    assert.strictEqual(esm.backend.native, null);
  }
});

test('with the addon, exactly the routed decoders from NATIVE_MIN_BYTES up go through it', { skip: esm.core !== 'native' && 'the addon is not in use' }, () => {
  const { NativeDecoder } = require('textcodec-native/native');
  const original = NativeDecoder.prototype.decode;
  let calls = 0;
  NativeDecoder.prototype.decode = function (...args) { calls++; return Reflect.apply(original, this, args); };
  try {
    const text = '日本語のテキスト、한국어 ASCII 123 '.repeat(400);
    for (const tc of [esm, cjs]) {
      for (const name of tc.encodings()) {
        if (name === 'replacement') continue;
        const bytes = tc.encode(text, name, { errors: 'html' });
        assert.ok(bytes.length >= NATIVE_MIN_BYTES);
        const want = NATIVE_DECODERS.includes(name);
        for (const [what, run] of [
          ['decode()', () => tc.decode(bytes, name, { bom: 'keep' })],
          ['TextDecoder', () => new tc.TextDecoder(name).decode(bytes)],
        ]) {
          const before = calls;
          const s = run();
          assert.strictEqual(calls - before, want ? 1 : 0, `${what} ${name}: addon calls`);
          if (want) assert.strictEqual(s.slice(0, 8), '日本語のテキスト', `${what} ${name}`);
        }
        // Short input and streamed calls stay on the wasm core.
        const before = calls;
        tc.decode(bytes.subarray(0, NATIVE_MIN_BYTES - 1), name);
        const td = new tc.TextDecoder(name);
        td.decode(bytes, { stream: true });
        td.decode(bytes);
        assert.strictEqual(calls, before, `${name}: short and streamed calls`);
      }
    }
    // Malformed input in fatal mode: the addon finds it, the wasm core names it.
    const bad = new Uint8Array(NATIVE_MIN_BYTES + 2).fill(0x41);
    bad[NATIVE_MIN_BYTES] = 0x81;
    bad[NATIVE_MIN_BYTES + 1] = 0x20;
    assert.throws(() => esm.decode(bad, 'shift_jis', { fatal: true }),
      { name: 'TypeError', message: `textcodec.decode: the input is not valid Shift_JIS: malformed bytes 0x81 at byte ${NATIVE_MIN_BYTES}` });
    assert.throws(() => new esm.TextDecoder('shift_jis', { fatal: true }).decode(bad), TypeError);
    // A byte order mark with bom: "sniff" names the encoding: that is the wasm core's.
    const before = calls;
    assert.strictEqual(esm.decode(new Uint8Array([0xEF, 0xBB, 0xBF, ...bad.subarray(0, NATIVE_MIN_BYTES)]), 'shift_jis'), 'A'.repeat(NATIVE_MIN_BYTES));
    assert.strictEqual(calls, before);
  } finally {
    NativeDecoder.prototype.decode = original;
  }
});

test('loadNative: 0 never loads, 1 requires the addon, unset falls back quietly', () => {
  const saved = process.env.TEXTCODEC_NATIVE;
  const absent = () => { throw new Error("Cannot find module 'textcodec-native/native'"); };
  const fake = { NativeDecoder: class {} };
  try {
    delete process.env.TEXTCODEC_NATIVE;
    assert.strictEqual(loadNative(absent), null);
    assert.strictEqual(loadNative(() => ({})), null);
    assert.strictEqual(loadNative(() => fake), fake);
    process.env.TEXTCODEC_NATIVE = '0';
    assert.strictEqual(loadNative(() => { throw new Error('must not be called'); }), null);
    process.env.TEXTCODEC_NATIVE = '1';
    assert.strictEqual(loadNative(() => fake), fake);
    assert.throws(() => loadNative(absent), /TEXTCODEC_NATIVE=1 but the native addon \(the textcodec-native package\) could not be loaded: Cannot find module/);
  } finally {
    if (saved === undefined) delete process.env.TEXTCODEC_NATIVE; else process.env.TEXTCODEC_NATIVE = saved;
  }
});

test('the addon is looked for where require would find it before it is required', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'textcodec-native-'));
  const saved = { NODE_PATH: process.env.NODE_PATH, HOME: process.env.HOME, USERPROFILE: process.env.USERPROFILE, TEXTCODEC_NATIVE: process.env.TEXTCODEC_NATIVE };
  const restore = (name) => { if (saved[name] === undefined) delete process.env[name]; else process.env[name] = saved[name]; };
  try {
    delete process.env.NODE_PATH;
    delete process.env.TEXTCODEC_NATIVE;
    process.env.HOME = process.env.USERPROFILE = path.join(tmp, 'home');
    const pkg = path.join(tmp, 'app', 'node_modules', 'textcodec', 'dist');
    fs.mkdirSync(pkg, { recursive: true });
    const from = { fs, path, dir: pkg };
    const fake = { NativeDecoder: class {} };
    let calls = 0;
    const requireFn = () => { calls++; return fake; };
    assert.strictEqual(nativeMayBeInstalled(fs, path, pkg), false);
    assert.strictEqual(loadNative(requireFn, from), null);
    assert.strictEqual(calls, 0, 'an absent addon is not required');
    process.env.TEXTCODEC_NATIVE = '1';
    assert.strictEqual(loadNative(requireFn, from), fake, 'TEXTCODEC_NATIVE=1 requires it anyway');
    delete process.env.TEXTCODEC_NATIVE;
    // Installed beside the package (its parent node_modules), in NODE_PATH, in ~/.node_modules.
    for (const where of [path.join(tmp, 'app', 'node_modules'), path.join(tmp, 'elsewhere'), path.join(tmp, 'home', '.node_modules')]) {
      const addon = path.join(where, 'textcodec-native');
      fs.mkdirSync(addon, { recursive: true });
      if (where.endsWith('elsewhere')) process.env.NODE_PATH = where;
      assert.strictEqual(nativeMayBeInstalled(fs, path, pkg), true, where);
      calls = 0;
      assert.strictEqual(loadNative(requireFn, from), fake, where);
      assert.strictEqual(calls, 1, where);
      fs.rmSync(addon, { recursive: true });
      delete process.env.NODE_PATH;
    }
    assert.strictEqual(nativeMayBeInstalled(fs, path, pkg), false);
  } finally {
    for (const name of Object.keys(saved)) restore(name);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('TEXTCODEC_NATIVE=1 without the addon fails to load, naming it', { skip: addonResolves && 'the addon is installed here' }, () => {
  const entry = fileURLToPath(new URL('../../dist/index.cjs', import.meta.url));
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(entry)})`], { env: { ...process.env, TEXTCODEC_NATIVE: '1' }, encoding: 'utf8' });
  assert.notStrictEqual(r.status, 0);
  assert.match(r.stderr, /TEXTCODEC_NATIVE=1 but the native addon/);
});
