// The native addon (`textcodec-native`, bindings/node) as an optional faster path in Node:
// loaded at start when it is installed and loads, never required. TEXTCODEC_NATIVE=0 (an
// environment variable, or a global set before the import) keeps the WebAssembly core,
// TEXTCODEC_NATIVE=1 requires the addon (an error if it is absent or does not load).
// No imports (see core.js): src/load.js (ESM) and dist/index.cjs hand it a `require`.

/**
 * The decoders the addon runs at least as fast as the wasm core in Node 20 (bench/native.mjs:
 * ~4 MB of the benchmark corpus, simd128 build, paired rounds on a shared 2-core machine):
 * the CJK ones, addon/wasm 0.99–1.22 (median of the rounds; single rounds 0.8–1.6), the
 * addon's best rounds faster on six of the seven. The wasm core is 2.7–8× faster on the
 * single-byte decoders, UTF-8 and UTF-16 (addon/wasm 0.13–0.62) and on short input (a
 * 24-byte call: about 600 ns through the addon, 230–400 through the wasm core), and it alone
 * has the legacy encoders and the error messages. So the addon takes one-shot decodes of
 * these encodings from NATIVE_MIN_BYTES up.
 */
export const NATIVE_DECODERS = ['Shift_JIS', 'EUC-JP', 'ISO-2022-JP', 'GBK', 'gb18030', 'Big5', 'EUC-KR'];
export const NATIVE_MIN_BYTES = 4096;

/**
 * Whether `textcodec-native` may be installed where `require` looks for it from `dir` (this
 * package's directory): each `node_modules` from there up, NODE_PATH and the global folders,
 * a few `stat` calls. Where none holds it the require is skipped: a failed one (and the
 * `createRequire` before it, in ES modules) took 0.85 ms of a cold start in Node 20. True
 * under Yarn Plug'n'Play, which resolves without `node_modules`.
 */
export function nativeMayBeInstalled(fs, path, dir) {
  const p = globalThis.process;
  if (p.versions.pnp !== undefined) return true;
  // Joined by hand: path.join and friends took 0.1 ms more on their first calls.
  const sep = path.sep;
  const where = `${sep}textcodec-native`;
  const parts = dir.split(sep);
  const candidates = [];
  for (let i = parts.length; i > 0; i--) {
    if (parts[i - 1] !== 'node_modules') candidates.push(`${parts.slice(0, i).join(sep)}${sep}node_modules${where}`);
  }
  const env = p.env;
  const nodePath = env.NODE_PATH;
  if (nodePath) for (const d of nodePath.split(path.delimiter)) if (d !== '') candidates.push(d + where);
  const windows = sep === '\\';
  const home = windows ? env.USERPROFILE : env.HOME;
  if (home) candidates.push(`${home}${sep}.node_modules${where}`, `${home}${sep}.node_libraries${where}`);
  candidates.push(path.resolve(p.execPath, windows ? '..' : '../..', 'lib', 'node') + where);
  return candidates.some((c) => fs.existsSync(c));
}

/**
 * The addon's bindings (`textcodec-native/native`), or null. `requireFn` resolves from this
 * package (null where there is no `require`: browsers, Deno). `from` ({ fs, path, dir }, or
 * null): where to look for the addon first (nativeMayBeInstalled), so that an absent one
 * costs no require; TEXTCODEC_NATIVE=1 always requires it (its error says why it failed).
 */
export function loadNative(requireFn, from = null) {
  const g = globalThis;
  const forced = `${g.TEXTCODEC_NATIVE ?? g.process?.env?.TEXTCODEC_NATIVE ?? ''}`;
  if (forced === '0') return null;
  // Node only: Bun and Deno also set process.versions.node.
  const isNode = typeof g.process?.versions?.node === 'string' &&
    g.process.versions.bun === undefined && g.Deno === undefined;
  let cause;
  if (!isNode) {
    cause = new Error('the native addon is used in Node only');
  } else if (typeof requireFn !== 'function') {
    cause = new Error('no require function');
  } else if (forced !== '1' && from !== null && !nativeMayBeInstalled(from.fs, from.path, from.dir)) {
    return null;
  } else {
    try {
      const binding = requireFn('textcodec-native/native');
      if (typeof binding?.NativeDecoder === 'function') return binding;
      cause = new Error('textcodec-native/native has no NativeDecoder');
    } catch (error) {
      cause = error;
    }
  }
  if (forced === '1') {
    const error = new Error('textcodec: TEXTCODEC_NATIVE=1 but the native addon (the textcodec-native ' +
      `package) could not be loaded: ${cause && cause.message}`);
    error.cause = cause;
    throw error;
  }
  return null;
}
