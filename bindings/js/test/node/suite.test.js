// test/suite.js under node:test, through the ES module entry and the CommonJS one.
import test from 'node:test';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as esm from '../../src/index.js';
import { cases } from '../suite.js';

const vectors = JSON.parse(fs.readFileSync(new URL('../fixtures/vectors.json', import.meta.url), 'utf8'));
const cjs = createRequire(import.meta.url)('../../dist/index.cjs');
// What `import 'textcodec'` loads in Node: src/ bundled into one file (scripts/build.mjs).
const bundle = await import('../../dist/index.mjs');
const build = esm.core === 'native' ? `native addon + wasm ${esm.backend.simd ? 'simd128' : 'plain'}` : `wasm ${esm.backend.simd ? 'simd128' : 'plain'}`;

for (const [entry, tc] of [['ESM', esm], ['CommonJS', cjs], ['ESM for Node (dist/index.mjs)', bundle]]) {
  for (const [name, fn] of cases(tc, vectors)) test(`${entry} (${build}): ${name}`, fn);
}

test('the build asked for is the one loaded, at the kernel level it should run', () => {
  const forced = process.env.TEXTCODEC_WASM;
  const want = forced === 'plain' ? false : true;
  if (esm.backend.simd !== want || cjs.backend.simd !== want || bundle.backend.simd !== want) throw new Error(JSON.stringify([esm.backend, cjs.backend, bundle.backend]));
  const kernel = want ? 'simd128' : 'scalar';
  if (esm.backend.kernel !== kernel) throw new Error(`kernel ${esm.backend.kernel}, expected ${kernel}`);
});

test('detect() and sniff() load their module on first use, synchronously, with no loadDetect()', () => {
  // A fresh process each: in this one the suite has loaded the module already.
  const { execFileSync } = createRequire(import.meta.url)('node:child_process');
  const sjis = '[0x82, 0xB1, 0x82, 0xEA, 0x82, 0xCD, 0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xC5, 0x82, 0xB7]';
  const probe = (m) => `const r = ${m}.detect(new Uint8Array(${sjis}), { tld: 'jp' }).encoding + ' ' +
    ${m}.sniff(new TextEncoder().encode('<meta charset="gbk">')).encoding; console.log(r);`;
  const entry = new URL('../../src/index.js', import.meta.url).href;
  const outputs = [
    execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(entry)}); ${probe('m')}`], { encoding: 'utf8' }),
    execFileSync(process.execPath, ['-e', `const m = require(${JSON.stringify(new URL('../../dist/index.cjs', import.meta.url).pathname)}); ${probe('m')}`], { encoding: 'utf8' }),
  ];
  for (const out of outputs) if (out.trim() !== 'shift_jis gbk') throw new Error(`got ${JSON.stringify(out)}`);
});

test('an error after a call that grew the memory names the right character and byte', () => {
  // A fresh process: the first large call grows the core's memory while it runs, then fails.
  const { execFileSync } = createRequire(import.meta.url)('node:child_process');
  const entry = new URL('../../src/index.js', import.meta.url).href;
  const script = `const m = await import(${JSON.stringify(entry)});
    const out = [];
    try { m.encode('a'.repeat(3 << 20) + '\\uE5E5', 'gb18030'); } catch (e) { out.push(e.message); }
    try { new m.Encoder('gbk').encode('b'.repeat(3 << 20) + '\\u00E9\\uE5E5'); } catch (e) { out.push(e.message); }
    try { m.decode(new Uint8Array(6 << 20).fill(0x41).fill(0x81, -1), 'shift_jis', { fatal: true }); } catch (e) { out.push(e.message); }
    console.log(JSON.stringify(out));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, TEXTCODEC_NATIVE: '0' } }));
  const want = [
    /U\+E5E5 at index 3145728 cannot be encoded in gb18030/,
    /U\+E5E5 at index 3145729 cannot be encoded in GBK/,
    /not valid Shift_JIS: malformed bytes 0x81 at byte 6291455/,
  ];
  if (out.length !== 3 || !want.every((re, i) => re.test(out[i]))) throw new Error(JSON.stringify(out));
});
