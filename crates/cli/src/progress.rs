//! A progress bar on stderr (never stdout), shown only when stderr is a terminal, not
//! `--quiet`, and the work has already taken half a second (so small inputs never flash a
//! bar). With a known total size (regular files) it shows bytes done, rate and ETA; for
//! pipes, bytes done and rate.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar on screen, if any, so warnings can be printed around it.
static ACTIVE: Mutex<Option<ProgressBar>> = Mutex::new(None);

const DELAY: Duration = Duration::from_millis(500);

pub struct Progress {
    enabled: bool,
    total: Option<u64>,
    start: Instant,
    done: u64,
    bar: Option<ProgressBar>,
}

impl Progress {
    pub fn new(quiet: bool, total: Option<u64>) -> Progress {
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            total,
            start: Instant::now(),
            done: 0,
            bar: None,
        }
    }

    #[inline]
    pub fn advance(&mut self, bytes: u64) {
        self.done += bytes;
        match &self.bar {
            Some(bar) => bar.set_position(self.done),
            None if self.enabled && self.start.elapsed() >= DELAY => self.show(),
            None => {}
        }
    }

    fn show(&mut self) {
        let (bar, template) = match self.total {
            Some(total) => (
                ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()),
                "{bar:30} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta}",
            ),
            None => (
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
                "{spinner} {binary_bytes} {binary_bytes_per_sec}",
            ),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_position(self.done);
        if let Ok(mut active) = ACTIVE.lock() {
            *active = Some(bar.clone());
        }
        self.bar = Some(bar);
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            if let Ok(mut active) = ACTIVE.lock() {
                *active = None;
            }
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Runs `f` (which prints to stderr) with the progress bar, if any, hidden.
pub fn suspend<R>(f: impl FnOnce() -> R) -> R {
    let bar = ACTIVE.lock().ok().and_then(|a| a.clone());
    match bar {
        Some(bar) => bar.suspend(f),
        None => f(),
    }
}
