//! Output destinations: stdout, or a file replaced atomically.
//!
//! A file target is written through a temporary file created in the target's directory
//! (`.textcodec-XXXXXX.tmp`) and renamed over the target only when the whole conversion
//! succeeded. On an error the temporary file is removed (its destructor) and the target is
//! untouched; on SIGINT/SIGTERM the signal handler removes it before exiting.

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tempfile::NamedTempFile;

use crate::failure::Failure;

/// The temporary file in progress, for the signal handler.
static PENDING_TEMP: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Exit with status 130 on SIGINT/SIGTERM, removing any temporary output file first.
pub fn install_signal_handler() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(pending) = PENDING_TEMP.lock() {
            if let Some(path) = pending.as_ref() {
                let _ = fs::remove_file(path);
            }
            crate::progress::suspend(|| eprintln!("\ntextcodec: interrupted"));
            std::process::exit(130);
        }
        std::process::exit(130);
    });
}

/// Where converted bytes go.
pub enum Destination {
    Stdout(File),
    Atomic(AtomicFile),
    /// An existing file that is not a regular file (a device such as /dev/null, a FIFO):
    /// written directly; renaming over it would replace the device node.
    Direct(File, PathBuf),
}

impl Destination {
    /// The destination for `-o target`: atomic replacement for a regular or new file,
    /// direct writes for a device or FIFO.
    pub fn for_path(target: &Path) -> Result<Destination, Failure> {
        match fs::metadata(target) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                let file = fs::OpenOptions::new()
                    .write(true)
                    .open(target)
                    .map_err(|e| Failure::io("open", &target.display().to_string(), e))?;
                Ok(Destination::Direct(file, target.to_path_buf()))
            }
            _ => Ok(Destination::Atomic(AtomicFile::create(target)?)),
        }
    }

    /// stdout, as an unbuffered `File` (the converter buffers itself).
    pub fn stdout() -> Result<Destination, Failure> {
        let fd = io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .map_err(|e| Failure::io("write to", "<stdout>", e))?;
        Ok(Destination::Stdout(File::from(fd)))
    }

    pub fn name(&self) -> String {
        match self {
            Destination::Stdout(_) => "<stdout>".to_string(),
            Destination::Atomic(a) => a.target.display().to_string(),
            Destination::Direct(_, p) => p.display().to_string(),
        }
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        let result = match self {
            Destination::Stdout(f) | Destination::Direct(f, _) => f.write_all(bytes),
            Destination::Atomic(a) => match a.temp.as_mut() {
                Some(t) => t.as_file_mut().write_all(bytes),
                None => Ok(()),
            },
        };
        result.map_err(|e| Failure::io("write to", &self.name(), e))
    }

    /// Makes the output final: renames the temporary file over the target.
    pub fn commit(self) -> Result<(), Failure> {
        match self {
            Destination::Stdout(mut f) => f
                .flush()
                .map_err(|e| Failure::io("write to", "<stdout>", e)),
            Destination::Direct(mut f, p) => f
                .flush()
                .map_err(|e| Failure::io("write to", &p.display().to_string(), e)),
            Destination::Atomic(a) => a.commit(),
        }
    }
}

/// A temporary file that replaces `target` on [`AtomicFile::commit`].
pub struct AtomicFile {
    temp: Option<NamedTempFile>,
    /// The file to replace (symlinks resolved, so a link keeps pointing at the new file).
    target: PathBuf,
}

impl AtomicFile {
    /// Starts writing a replacement for `target`, which must be a regular file or not
    /// exist. An existing target's permissions (and, where allowed, owner) are given to the
    /// new file; a new file gets 0666 less the umask.
    pub fn create(target: &Path) -> Result<AtomicFile, Failure> {
        let resolved = fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf());
        let name = target.display().to_string();
        let existing = match fs::metadata(&resolved) {
            Ok(m) if m.is_dir() => return Err(Failure::Data(format!("{name} is a directory"))),
            Ok(m) if !m.is_file() => {
                return Err(Failure::Data(format!(
                    "{name} is not a regular file; it cannot be replaced"
                )))
            }
            Ok(m) => Some(m),
            Err(_) => None,
        };
        let dir = match resolved.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // Hold the lock while creating, so the signal handler knows every file that exists.
        let mut pending = PENDING_TEMP.lock().ok();
        let temp = tempfile::Builder::new()
            .prefix(".textcodec-")
            .suffix(".tmp")
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(&dir)
            .map_err(|e| {
                Failure::io("create a temporary file in", &dir.display().to_string(), e)
            })?;
        if let Some(p) = pending.as_mut() {
            **p = Some(temp.path().to_path_buf());
        }
        drop(pending);
        if let Some(m) = existing {
            let file = temp.as_file();
            let _ = std::os::unix::fs::fchown(file, Some(m.uid()), Some(m.gid()));
            file.set_permissions(m.permissions())
                .map_err(|e| Failure::io("set permissions of", &name, e))?;
        }
        Ok(AtomicFile {
            temp: Some(temp),
            target: resolved,
        })
    }

    fn commit(mut self) -> Result<(), Failure> {
        let name = self.target.display().to_string();
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        temp.as_file()
            .sync_all()
            .map_err(|e| Failure::io("write to", &name, e))?;
        // Hold the lock across the rename so the signal handler cannot remove the file
        // halfway.
        let mut pending = PENDING_TEMP.lock().ok();
        let result = temp.persist(&self.target);
        if let Some(p) = pending.as_mut() {
            **p = None;
        }
        result
            .map(|_| ())
            .map_err(|e| Failure::io("replace", &name, e.error))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Not committed (an error): remove the temporary file, then forget it.
        if let Some(temp) = self.temp.take() {
            let path = temp.path().to_path_buf();
            let _ = temp.close();
            if let Ok(mut pending) = PENDING_TEMP.lock() {
                if pending.as_deref() == Some(path.as_path()) {
                    *pending = None;
                }
            }
        }
    }
}
