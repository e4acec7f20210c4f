//! Inputs: files or `-` (stdin), opened as plain unbuffered `File`s.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::failure::Failure;

/// The read size used in production.
const DEFAULT_READ_BUFFER: usize = 64 * 1024;

/// The size of each read, `TEXTCODEC_CLI_READ_BUFFER` (test-only, at least 1) or 64 KiB.
pub fn read_buffer_size() -> usize {
    std::env::var("TEXTCODEC_CLI_READ_BUFFER")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map(|n| n.max(1))
        .unwrap_or(DEFAULT_READ_BUFFER)
}

/// One input operand.
#[derive(Clone, Debug)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The operands, with `-` (stdin) as the default.
    pub fn from_operands(operands: &[PathBuf]) -> Vec<Input> {
        if operands.is_empty() {
            return vec![Input::Stdin];
        }
        operands
            .iter()
            .map(|p| {
                if p.as_os_str() == "-" {
                    Input::Stdin
                } else {
                    Input::File(p.clone())
                }
            })
            .collect()
    }

    /// The name used in messages.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::File(p) => p.display().to_string(),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        match self {
            Input::Stdin => None,
            Input::File(p) => Some(p),
        }
    }

    /// Opens the input for reading.
    pub fn open(&self) -> Result<File, Failure> {
        match self {
            Input::Stdin => io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .map(File::from)
                .map_err(|e| Failure::io("read", "<stdin>", e)),
            Input::File(p) => {
                let file = File::open(p).map_err(|e| Failure::io("open", &self.name(), e))?;
                if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
                    return Err(Failure::Data(format!("{} is a directory", self.name())));
                }
                Ok(file)
            }
        }
    }

    /// The file's identity (device, inode) if it exists.
    pub fn identity(&self) -> Option<(u64, u64)> {
        match self {
            Input::Stdin => identity_of(&io::stdin().as_fd().try_clone_to_owned().ok()?.into()),
            Input::File(p) => std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino())),
        }
    }
}

/// (device, inode) of an open file, for regular files only.
pub fn identity_of(file: &File) -> Option<(u64, u64)> {
    let m: Metadata = file.metadata().ok()?;
    m.is_file().then(|| (m.dev(), m.ino()))
}

/// `read` that retries on EINTR.
pub fn read_some(file: &mut File, buf: &mut [u8], name: &str) -> Result<usize, Failure> {
    loop {
        match file.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::io("read", name, e)),
        }
    }
}
