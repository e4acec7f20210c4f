// Runs test/suite.js in this runtime (Deno, Bun, or Node) against the ES module entry:
//   deno run --allow-read test/run-suite.mjs   |   bun test/run-suite.mjs
import * as tc from '../src/index.js';
import { cases, run } from './suite.js';

const file = new URL('./fixtures/vectors.json', import.meta.url);
const fs = globalThis.process?.getBuiltinModule?.('node:fs') ?? (await import('node:fs'));
const vectors = JSON.parse(fs.readFileSync(file, 'utf8'));
const runtime = globalThis.Deno ? `Deno ${Deno.version.deno}` : globalThis.Bun ? `Bun ${Bun.version}` : `Node ${process.version}`;
const started = Date.now();
const { passed, failed } = await run(cases(tc, vectors), (line) => console.log(line));
console.log(`# ${runtime}, wasm ${tc.backend.simd ? 'simd128' : 'plain'} (kernel ${tc.backend.kernel}): ${passed} passed, ${failed.length} failed in ${Date.now() - started} ms`);
if (failed.length !== 0) {
  for (const [name, message] of failed) console.error(`FAILED: ${name}\n${message}`);
  (globalThis.Deno ? Deno.exit : process.exit)(1);
}
