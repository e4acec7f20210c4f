// First-call latency in fresh Node processes, two package directories alternated (A B A B
// …, so that both see the same machine load): each process imports the package's Node
// entry and times its first calls. Prints each pair, then min and median per step.
//   node bench/first-call.mjs <dirA> <dirB> [--pairs 15] [--cjs] [-- node flags…]
// A directory is a package root (package.json, dist/, wasm/), e.g. a copy of this one as
// it was before a change. --cjs requires dist/index.cjs instead of importing dist/index.mjs.
const STEPS = ['import', 'first Shift_JIS decode', 'import + first Shift_JIS decode',
  'first GBK decode', 'first windows-1252 decode', 'first Shift_JIS encode'];

if (process.argv[2] === '--probe') {
  // The child: nothing imported before the clock starts.
  const [, , , entry, kind] = process.argv;
  const t0 = performance.now();
  const tc = kind === 'cjs'
    ? (await import('node:module')).createRequire(import.meta.url)(entry)
    : await import(entry);
  const t1 = performance.now();
  const sjis = tc.decode(new Uint8Array([0x93, 0xFA]), 'shift_jis');
  const t2 = performance.now();
  const gbk = tc.decode(new Uint8Array([0xC4, 0xE3]), 'gbk');
  const t3 = performance.now();
  const w1252 = tc.decode(new Uint8Array([0x80, 0x41]), 'windows-1252');
  const t4 = performance.now();
  const enc = tc.encode('日本', 'shift_jis');
  const t5 = performance.now();
  if (sjis !== '日' || gbk !== '你' || w1252 !== '€A' || enc.join() !== '147,250,150,123') {
    throw new Error(`wrong results: ${sjis} ${gbk} ${w1252} ${enc.join()}`);
  }
  console.log([t1 - t0, t2 - t1, t2 - t0, t3 - t2, t4 - t3, t5 - t4].map((x) => x.toFixed(2)).join(' '));
} else {
  const { execFileSync } = await import('node:child_process');
  const path = await import('node:path');
  const { pathToFileURL, fileURLToPath } = await import('node:url');
  const args = process.argv.slice(2);
  const dash = args.indexOf('--');
  const nodeFlags = dash >= 0 ? args.splice(dash).slice(1) : [];
  const cjs = args.includes('--cjs');
  const pairs = args.includes('--pairs') ? Number(args[args.indexOf('--pairs') + 1]) : 15;
  const dirs = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--pairs');
  if (dirs.length !== 2) throw new Error('usage: node bench/first-call.mjs <dirA> <dirB> [--pairs N] [--cjs]');
  const self = fileURLToPath(import.meta.url);
  const entries = dirs.map((d) => {
    const file = path.resolve(d, 'dist', cjs ? 'index.cjs' : 'index.mjs');
    return cjs ? file : pathToFileURL(file).href;
  });
  const runs = [[], []];
  console.log(`# A = ${path.resolve(dirs[0])}, B = ${path.resolve(dirs[1])}; ${cjs ? 'require' : 'import'} of dist/index.${cjs ? 'cjs' : 'mjs'}`);
  console.log(`# columns (ms): ${STEPS.join(', ')}`);
  console.log(`# ${process.version} ${nodeFlags.join(' ')}`);
  for (let i = 0; i < pairs; i++) {
    for (const k of [0, 1]) {
      const out = execFileSync(process.execPath, [...nodeFlags, self, '--probe', entries[k], cjs ? 'cjs' : 'esm'],
        { encoding: 'utf8', env: { ...process.env, TEXTCODEC_NATIVE: process.env.TEXTCODEC_NATIVE ?? '' } });
      runs[k].push(out.trim().split(' ').map(Number));
      console.log(`${'AB'[k]} ${out.trim()}`);
    }
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  for (const k of [0, 1]) {
    console.log('AB'[k]);
    STEPS.forEach((step, j) => {
      const xs = runs[k].map((r) => r[j]);
      console.log(`  ${step.padEnd(34)} min ${Math.min(...xs).toFixed(2)}  median ${median(xs).toFixed(2)} ms`);
    });
  }
}
