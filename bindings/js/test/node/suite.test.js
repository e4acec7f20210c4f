// test/suite.js under node:test, through the ES module entry and the CommonJS one.
import test from 'node:test';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as esm from '../../src/index.js';
import { cases } from '../suite.js';

const vectors = JSON.parse(fs.readFileSync(new URL('../fixtures/vectors.json', import.meta.url), 'utf8'));
const cjs = createRequire(import.meta.url)('../../dist/index.cjs');
const build = esm.core === 'native' ? `native addon + wasm ${esm.backend.simd ? 'simd128' : 'plain'}` : `wasm ${esm.backend.simd ? 'simd128' : 'plain'}`;

for (const [entry, tc] of [['ESM', esm], ['CommonJS', cjs]]) {
  for (const [name, fn] of cases(tc, vectors)) test(`${entry} (${build}): ${name}`, fn);
}

test('the build asked for is the one loaded, at the kernel level it should run', () => {
  const forced = process.env.TEXTCODEC_WASM;
  const want = forced === 'plain' ? false : true;
  if (esm.backend.simd !== want || cjs.backend.simd !== want) throw new Error(JSON.stringify([esm.backend, cjs.backend]));
  const kernel = want ? 'simd128' : 'scalar';
  if (esm.backend.kernel !== kernel) throw new Error(`kernel ${esm.backend.kernel}, expected ${kernel}`);
});
