//! Running the real `textcodec` binary, shared by the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary, without the test-only read-size setting unless a test sets it.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_textcodec"));
    c.env_remove("TEXTCODEC_CLI_READ_BUFFER");
    c
}

/// Runs with `args`, `stdin` bytes, and extra environment.
pub fn run_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut c = bin();
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("spawn textcodec");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Runs with `args` and `stdin` bytes.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_env(args, stdin, &[])
}
