#!/usr/bin/env node
// Runs a wasm32-wasip1 program (a `cargo test` binary) under Node's built-in `node:wasi`:
// cargo's runner for that target (issue #28; .ci/extra.d/wasm.sh uses it).
//   CARGO_TARGET_WASM32_WASIP1_RUNNER="node $PWD/scripts/wasi-run.mjs" \
//     cargo test -p textcodec --target wasm32-wasip1 --tests
//   node scripts/wasi-run.mjs program.wasm [args…]
// The program sees:
// - the workspace (this script's parent directory) and ../shared beside it, each at its own
//   absolute path, so paths built from env!("CARGO_MANIFEST_DIR") open (a path may not
//   climb out of them with `..`);
// - the workspace again as `/`, which is WASI's fixed working directory, so paths relative
//   to the workspace root open (proptest finds its `*.proptest-regressions` files from
//   file!()); nothing else of the host's file system;
// - the environment variables whose names start with TEXTCODEC_, PROPTEST_, RUST_ or
//   CARGO_ (the kernel cap, proptest's and libtest's settings), not the rest.
// Exits with the program's exit code; 134 if it trapped (a panic aborts under WASI), after
// running a test binary again without output capture, so that the panic message shows.
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error("usage: node scripts/wasi-run.mjs program.wasm [args…]");
  process.exit(2);
}

// Node 20 warns that WASI is experimental, once per process, on stderr: not a test's output.
process.removeAllListeners("warning");
// Node's WASI calls can trigger a garbage collection inside V8's fast API calls, which
// crashes Node (SIGSEGV or SIGTRAP, often after the program has finished; nodejs/node#46777,
// seen here with Node 20 on the exhaustive encoder tests): the regular calls instead.
setFlagsFromString("--no-turbo-fast-api-calls");
const { WASI } = await import("node:wasi");

const workspace = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const preopens = { "/": workspace, [workspace]: workspace };
const shared = resolve(workspace, "../shared");
if (existsSync(shared)) preopens[shared] = shared;

const env = {};
for (const [name, value] of Object.entries(process.env)) {
  if (/^(TEXTCODEC_|PROPTEST_|RUST_|CARGO_)/.test(name)) env[name] = value;
}

const module = await WebAssembly.compile(await readFile(program));

/** Runs the program once with `argv`: its exit code, or null if it trapped. */
async function run(argv) {
  const wasi = new WASI({
    version: "preview1",
    args: [program, ...argv],
    env,
    preopens,
    returnOnExit: true,
  });
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  try {
    return wasi.start(instance);
  } catch (err) {
    if (!(err instanceof WebAssembly.RuntimeError)) throw err;
    // `unreachable`: how a panic aborts under wasm32-wasip1 (panic = "abort").
    console.error(`wasi-run: ${program} trapped: ${err.message}`);
    return null;
  }
}

let code = await run(args);
if (code === null) {
  // A libtest binary (cargo names them deps/<name>-<hash>.wasm) that trapped aborted in a
  // test whose output, the panic message included, libtest was capturing: run it again
  // without the capture so that the message shows.
  const libtest = /[/\\]deps[/\\][^/\\]+-[0-9a-f]{16}\.wasm$/.test(program);
  if (libtest && !args.includes("--nocapture") && !args.includes("--list")) {
    console.error("wasi-run: running it again with --nocapture, for the panic message:");
    await run([...args, "--nocapture"]);
  }
  code = 134; // as a native test binary's abort (128 + SIGABRT)
}
process.exitCode = code;
