//! How a command fails, and how a failure is shown and turned into an exit status.

use std::io;
use std::process::ExitCode;

use clap::CommandFactory;

/// Why a command stopped early.
#[derive(Debug)]
pub enum Failure {
    /// Bad input data or an I/O error: message on stderr, exit 1.
    Data(String),
    /// Data problems already reported (e.g. `validate` listed them): exit 1 quietly.
    Reported,
    /// A usage error found after parsing (conflicting options, an input that is also the
    /// output): shown like clap's own errors, exit 2.
    Usage(String),
    /// stdout was closed by the reader (`textcodec convert … | head`): stop quietly.
    BrokenPipe,
}

impl Failure {
    /// An I/O error about `what` (a file name or "<stdout>").
    pub fn io(action: &str, what: &str, error: io::Error) -> Failure {
        if error.kind() == io::ErrorKind::BrokenPipe {
            return Failure::BrokenPipe;
        }
        Failure::Data(format!(
            "cannot {action} {what}: {}",
            plain_io_error(&error)
        ))
    }

    /// Prints the failure and returns the exit status.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Data(message) => {
                eprintln!("textcodec: error: {message}");
                ExitCode::from(1)
            }
            Failure::Reported => ExitCode::from(1),
            Failure::Usage(message) => {
                let error = crate::cli::Cli::command()
                    .error(clap::error::ErrorKind::ArgumentConflict, message);
                let _ = error.print();
                ExitCode::from(2)
            }
            Failure::BrokenPipe => ExitCode::SUCCESS,
        }
    }
}

/// `io::Error`'s message without the "(os error N)" suffix.
pub fn plain_io_error(error: &io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Prints a warning unless `quiet`.
pub fn warn(quiet: bool, message: &str) {
    if !quiet {
        crate::progress::suspend(|| eprintln!("textcodec: warning: {message}"));
    }
}

/// Prints a note unless `quiet`.
pub fn note(quiet: bool, message: &str) {
    if !quiet {
        crate::progress::suspend(|| eprintln!("textcodec: note: {message}"));
    }
}

/// Writes `text` and a newline to stdout; a closed pipe ends the command quietly.
pub fn print_line(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .map_err(|e| Failure::io("write to", "<stdout>", e))
}
