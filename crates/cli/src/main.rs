//! `textcodec`: convert, sniff, validate and list text encodings exactly as browsers do
//! (the WHATWG Encoding Standard), streaming in bounded memory.
//!
//! Exit status: 0 success, 1 data or I/O error (malformed input in fatal mode, an
//! unencodable character, invalid input for `validate`, an unknown label for `list`),
//! 2 usage error (bad option, unknown label in an option, a `TEXTCODEC_KERNEL` value that
//! names no kernel level), 130 interrupted.
//!
//! Test-only setting: the environment variable `TEXTCODEC_CLI_READ_BUFFER=N` makes every
//! read from an input at most `N` bytes (and shrinks the decode and encode buffers to
//! match), so tests can split multibyte sequences at every read boundary.

mod cli;
mod convert;
mod detect;
mod failure;
mod input;
mod kernel;
mod labels;
mod list;
mod output;
mod position;
mod progress;
mod sniff;
mod stream;
mod validate;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    // Before anything else, `--help` and `--version` included: with an unknown value the
    // library would run the best level, not the one asked for.
    if let Some(message) = kernel::unknown_value_message(&textcodec::kernel_info()) {
        eprintln!("textcodec: error: {message}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    let quiet = cli.quiet;
    let result = match cli.command {
        Command::Convert(args) => convert::run(args, quiet),
        Command::Validate(args) => validate::run(args, quiet),
        Command::Sniff(args) => sniff::run(args, quiet),
        Command::Detect(args) => detect::run(args),
        Command::List(args) if args.kernels => kernel::list(args.json),
        Command::List(args) => list::run(args),
        Command::Completions(args) => {
            let mut command = Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut command, "textcodec", &mut script);
            failure::print_line(String::from_utf8_lossy(&script).trim_end())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
