// Loads the WebAssembly core for the ES module entry (src/index.js): the simd128 build
// where the engine validates a SIMD instruction, the plain build elsewhere. Forced with
// TEXTCODEC_WASM=simd|plain (an environment variable, or a global set before the import);
// TEXTCODEC_STRINGS=fromCharCode|TextDecoder|fromCharCodeArray forces how strings are built
// (src/core.js).

// (module (func (result v128) i32.const 0 i8x16.splat))
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,
  0x03, 0x02, 0x01, 0x00, 0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b,
]);

export function chooseBuild() {
  const forced = globalThis.TEXTCODEC_WASM ?? globalThis.process?.env?.TEXTCODEC_WASM;
  if (forced === 'plain') return false;
  if (forced === 'simd') return true;
  return WebAssembly.validate(SIMD_PROBE);
}

/**
 * In Node: a `require` resolving from this package (made on its first call: createRequire
 * took 0.3 ms of a cold start), with `fs`, `path` and this file's directory, for
 * src/native.js to look for the addon before requiring it; null elsewhere.
 */
export async function nodeRequire() {
  const p = globalThis.process;
  if (typeof p?.versions?.node !== 'string' || p.versions.bun !== undefined || globalThis.Deno !== undefined) return null;
  try {
    // Computed specifiers, which bundlers leave alone (as for node:fs below).
    const builtin = (name) => p.getBuiltinModule?.(name) ?? import(name);
    const names = ['node:module', 'node:fs', 'node:path', 'node:url'];
    const fs = await builtin(names[1]);
    const path = await builtin(names[2]);
    // node:module now only where it cannot be had synchronously later (Node < 20.16).
    const m = p.getBuiltinModule ? null : await import(names[0]);
    // import.meta.dirname (Node >= 20.11): converting the URL took 0.12 ms of a cold start.
    const dir = import.meta.dirname ?? path.dirname((await builtin(names[3])).fileURLToPath(import.meta.url));
    let req = null;
    const requireFn = (id) => (req ??= (m ?? p.getBuiltinModule(names[0])).createRequire(import.meta.url))(id);
    return { requireFn, from: { fs, path, dir } };
  } catch {
    return null;
  }
}

/** Instantiates a module fetched from `url` (a browser, or any non-file URL). */
async function fetchInstance(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`textcodec: could not load ${url}: HTTP ${response.status}`);
  if (typeof WebAssembly.instantiateStreaming === 'function' &&
      (response.headers.get('content-type') || '').startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, {})).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), {})).instance;
}

/**
 * A file's bytes, read into a buffer larger than the modules by one `readSync` (then one
 * more that finds the end): `readFileSync`'s first call, with its `fstat`, took 0.1 ms more
 * of a cold start in Node 20.
 */
export function readModule(fs, file) {
  const fd = fs.openSync(file, 'r');
  try {
    let bytes = new Uint8Array(1 << 19);
    let length = 0;
    for (;;) {
      if (length === bytes.length) {
        const larger = new Uint8Array(bytes.length * 2);
        larger.set(bytes);
        bytes = larger;
      }
      const read = fs.readSync(fd, bytes, length, bytes.length - length, null);
      if (read === 0) return bytes.subarray(0, length);
      length += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The core's main module, instantiated, and how to load its second one (detect and sniff,
 * src/detect.js): from files synchronously on first use, or fetched by `loadDetect()`.
 */
export async function loadWasm() {
  const simd = chooseBuild();
  // Files by path where the host gives this module's directory (Node >= 20.11, Deno, Bun):
  // no URL then (the first `new URL` took 0.17 ms of a cold start in Node 20). The URLs
  // stay written out below for bundlers, which copy the files they name.
  const dir = import.meta.dirname;
  const url = dir === undefined
    ? new URL(simd ? '../wasm/textcodec-simd.wasm' : '../wasm/textcodec.wasm', import.meta.url) : null;
  let instance;
  let detect;
  if (dir !== undefined || url.protocol === 'file:') {
    // getBuiltinModule (Node >= 20.16, Deno, Bun) or a computed import, which bundlers
    // leave alone: the browser build never reaches this line.
    const fsModule = 'node:fs';
    const fs = globalThis.process?.getBuiltinModule?.(fsModule) ?? (await import(fsModule));
    // Synchronously: no engine limits it outside a browser's main thread, and it spares the
    // promise's round trip (a first call's latency).
    const sync = (file) => new WebAssembly.Instance(new WebAssembly.Module(readModule(fs, file)), {});
    // One build of the second module: detection runs as fast without simd128.
    const detectFile = () => (dir !== undefined ? `${dir}/../wasm/textcodec-detect.wasm`
      : new URL('../wasm/textcodec-detect.wasm', import.meta.url));
    instance = sync(dir !== undefined ? `${dir}/../wasm/${simd ? 'textcodec-simd.wasm' : 'textcodec.wasm'}` : url);
    detect = { sync: () => sync(detectFile()), async: async () => sync(detectFile()) };
  } else {
    instance = await fetchInstance(url);
    const detectUrl = new URL('../wasm/textcodec-detect.wasm', import.meta.url);
    detect = { sync: null, async: () => fetchInstance(detectUrl) };
  }
  const strings = globalThis.TEXTCODEC_STRINGS ?? globalThis.process?.env?.TEXTCODEC_STRINGS;
  return {
    instance, detect, simd, forceFromCharCode: strings === 'fromCharCode', forceTextDecoder: strings === 'TextDecoder',
    forceFromCharCodeArray: strings === 'fromCharCodeArray',
  };
}
