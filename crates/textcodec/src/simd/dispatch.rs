//! The one dispatch point: which kernel family every bulk primitive uses.
//!
//! The choice is made once, on first use, and kept for the life of the process. In std
//! builds it comes from runtime CPU detection (`std::is_x86_feature_detected!`), and the
//! environment variable `TEXTCODEC_KERNEL` can cap it at a lower level. The rule:
//! - unset or empty: the best level this CPU supports;
//! - a level name of this target (`scalar`, `sse2`, `sse4`, `avx2`, `avx512` on x86-64;
//!   `scalar`, `neon` on aarch64; `scalar` elsewhere; exact, lowercase): that level if the
//!   CPU supports it, else the best one below it ("capped");
//! - anything else (a misspelling such as `avx`, another architecture's level): ignored,
//!   the best level this CPU supports. A library must not panic or print over an
//!   environment variable, so this fallback is not an error here; it is reported by
//!   [`kernel_info`] (`KernelRequest::Unknown`), which is how the `textcodec` CLI refuses
//!   to run with such a value.
//!
//! no_std builds read no environment: they use what the compilation target guarantees
//! (`cfg(target_feature)`, e.g. `-C target-cpu=x86-64-v3` gives `avx2`), nothing more, and
//! [`kernel_info`] reports no request.
//!
//! The levels themselves (their kernels, names, and the CPU features each needs) are
//! described in [`super::level`]; this module only chooses one. The public report
//! ([`KernelInfo`]) holds names only, never a [`Level`].
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::level::{self, Level};
use alloc::string::String;

/// The levels' names, in order; what `TEXTCODEC_KERNEL` accepts.
const LEVELS: &[&str] = &level::NAMES;

/// The highest level (evaluated at compile time: `LEVELS` always holds "scalar").
const HIGHEST: usize = LEVELS.len() - 1;

/// The level number of `k` (its index in `LEVELS`).
fn number(k: &Level) -> usize {
    LEVELS
        .iter()
        .position(|name| *name == k.name())
        .unwrap_or(0)
}

/// Every level this machine can run, in order (for tests and benchmarks).
#[allow(dead_code)]
pub(crate) fn available_levels() -> impl Iterator<Item = &'static Level> {
    (0..LEVELS.len()).filter_map(level::detected)
}

/// The best level at or below `ceiling` (a level number) that this machine can run.
fn best_at_most(ceiling: usize) -> &'static Level {
    (0..=ceiling)
        .rev()
        .find_map(level::detected)
        .unwrap_or(level::scalar())
}

/// The kernel for a `TEXTCODEC_KERNEL` value (`None`: unset), and what became of the
/// request (the rule is in the module docs).
fn select(value: Option<&str>) -> (&'static Level, KernelRequest) {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return (best_at_most(HIGHEST), KernelRequest::Unset);
    };
    let Some((level, &name)) = LEVELS.iter().enumerate().find(|(_, l)| **l == value) else {
        return (best_at_most(HIGHEST), KernelRequest::Unknown(value.into()));
    };
    let k = best_at_most(level);
    if number(k) == level {
        (k, KernelRequest::Honoured(name))
    } else {
        (k, KernelRequest::Capped(name))
    }
}

/// The choice, made once: `kernel` and `kernel_info` both read it, so they always agree
/// even if the environment changes later.
#[cfg(feature = "std")]
fn selection() -> &'static (&'static Level, KernelRequest) {
    static SELECTION: std::sync::OnceLock<(&'static Level, KernelRequest)> =
        std::sync::OnceLock::new();
    SELECTION.get_or_init(|| {
        // Not Unicode: the lossy form (with U+FFFD) names no level, so it is `Unknown`.
        let value = std::env::var_os("TEXTCODEC_KERNEL").map(|v| v.to_string_lossy().into_owned());
        select(value.as_deref())
    })
}

/// The level in use (see the module docs).
#[inline(always)]
pub(crate) fn level() -> &'static Level {
    #[cfg(feature = "std")]
    {
        use core::sync::atomic::{AtomicPtr, Ordering};
        /// Null: not chosen yet; else `selection()`'s level, one relaxed load on the hot
        /// path.
        static CHOICE: AtomicPtr<Level> = AtomicPtr::new(core::ptr::null_mut());
        #[cold]
        fn choose() -> &'static Level {
            let k = selection().0;
            CHOICE.store(core::ptr::from_ref(k).cast_mut(), Ordering::Relaxed);
            k
        }
        let chosen = CHOICE.load(Ordering::Relaxed);
        if chosen.is_null() {
            return choose();
        }
        // SAFETY: a non-null value was stored by `choose`, from a `&'static Level` (never
        // written through: the pointer is only read back as a shared reference).
        unsafe { &*chosen }
    }
    #[cfg(not(feature = "std"))]
    {
        best_at_most(HIGHEST)
    }
}

/// What `TEXTCODEC_KERNEL` asked for, and what became of it (see [`kernel_info`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelRequest {
    /// No request: `TEXTCODEC_KERNEL` is unset or empty, or this is a no_std build (which
    /// reads no environment). The active level is the best this CPU supports.
    Unset,
    /// A level of this target that this CPU supports: it is the active level.
    Honoured(&'static str),
    /// A level of this target that this CPU lacks: the active level is the best one below
    /// it.
    Capped(&'static str),
    /// A value that names no level of this target (a misspelling, another architecture's
    /// level, text that is not Unicode, shown lossily): ignored, the active level is the
    /// best this CPU supports. Programs that take `TEXTCODEC_KERNEL` from their users
    /// should treat this as an error, as the `textcodec` CLI does.
    Unknown(String),
}

/// The SIMD kernel level textcodec's bulk loops run at, and how it was chosen (see
/// [`kernel_info`]). Levels are named as `TEXTCODEC_KERNEL` spells them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct KernelInfo {
    /// The level in use.
    pub active: &'static str,
    /// What `TEXTCODEC_KERNEL` asked for.
    pub request: KernelRequest,
    /// Every level of this target, from the most portable to the most demanding: the
    /// values `TEXTCODEC_KERNEL` accepts.
    pub levels: &'static [&'static str],
    /// The levels this CPU supports: a prefix of `levels` (each level needs the CPU
    /// features of those before it), `scalar` always included.
    pub supported: &'static [&'static str],
}

/// The SIMD kernel level in use, what `TEXTCODEC_KERNEL` asked for, and the levels of this
/// target and CPU.
///
/// The level is chosen once per process, on the first conversion (or this call), and
/// never changes. The rule, in std builds:
/// - `TEXTCODEC_KERNEL` unset or empty: the best level this CPU supports
///   ([`KernelRequest::Unset`]);
/// - a name in [`KernelInfo::levels`] (exact, lowercase): that level
///   ([`KernelRequest::Honoured`]), or the best one below it if this CPU lacks it
///   ([`KernelRequest::Capped`]);
/// - any other value: ignored, the best level this CPU supports
///   ([`KernelRequest::Unknown`]). The library does not fail over an environment
///   variable; this report is where the fallback shows, so a program can refuse it.
///
/// no_std builds read no environment: the level is the best the compilation target's
/// features guarantee (`cfg(target_feature)`), the request is [`KernelRequest::Unset`],
/// and `supported` lists those levels.
///
/// ```
/// let info = textcodec::kernel_info();
/// assert!(info.supported.contains(&info.active));
/// assert_eq!(info.levels[0], "scalar");
/// if let textcodec::KernelRequest::Unknown(value) = &info.request {
///     eprintln!("TEXTCODEC_KERNEL={value} is not one of {:?}", info.levels);
/// }
/// ```
pub fn kernel_info() -> KernelInfo {
    #[cfg(feature = "std")]
    let (active, request) = {
        let (k, request) = selection();
        (*k, request.clone())
    };
    #[cfg(not(feature = "std"))]
    let (active, request) = select(None);
    let best = number(best_at_most(HIGHEST));
    KernelInfo {
        active: active.name(),
        request,
        levels: LEVELS,
        supported: LEVELS.get(..=best).unwrap_or(LEVELS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chosen_kernel_is_available_and_honours_the_override() {
        let chosen = level();
        assert!(available_levels().any(|k| k == chosen));
        #[cfg(feature = "std")]
        if let Ok(name) = std::env::var("TEXTCODEC_KERNEL") {
            if let Some(level) = LEVELS.iter().position(|l| *l == name) {
                assert!(number(chosen) <= level, "{} forced {name}", chosen.name());
            }
        }
        let names: alloc::vec::Vec<_> = available_levels().map(Level::name).collect();
        assert_eq!(names.first(), Some(&"scalar"));
    }

    fn best() -> &'static Level {
        best_at_most(HIGHEST)
    }

    #[test]
    fn no_request_gives_the_best_level() {
        assert_eq!(select(None), (best(), KernelRequest::Unset));
        // Empty counts as unset, as `TEXTCODEC_KERNEL= cmd` means in a shell.
        assert_eq!(select(Some("")), (best(), KernelRequest::Unset));
    }

    #[test]
    fn an_unknown_value_falls_back_to_detection_and_says_so() {
        for value in [
            "avx",
            "AVX2",
            " sse2",
            "sse2 ",
            "avx-512",
            "x86-64-v3",
            "\u{FFFD}",
        ] {
            assert_eq!(
                select(Some(value)),
                (best(), KernelRequest::Unknown(value.into())),
                "{value:?}"
            );
        }
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            select(Some("neon")),
            (best(), KernelRequest::Unknown("neon".into()))
        );
        #[cfg(target_arch = "aarch64")]
        assert_eq!(
            select(Some("avx2")),
            (best(), KernelRequest::Unknown("avx2".into()))
        );
    }

    #[test]
    fn a_known_level_is_honoured_or_capped_to_the_best_below() {
        let available: alloc::vec::Vec<&Level> = available_levels().collect();
        for (level, &name) in LEVELS.iter().enumerate() {
            let (k, request) = select(Some(name));
            let below = available
                .iter()
                .copied()
                .filter(|k| number(k) <= level)
                .max_by_key(|k| number(k));
            assert_eq!(Some(k), below, "{name}");
            if available.iter().any(|k| number(k) == level) {
                assert_eq!(request, KernelRequest::Honoured(name));
                assert_eq!(k.name(), name);
            } else {
                assert_eq!(request, KernelRequest::Capped(name));
                assert!(number(k) < level, "{name}");
            }
        }
        assert_eq!(
            select(Some("scalar")),
            (level::scalar(), KernelRequest::Honoured("scalar"))
        );
    }

    #[test]
    fn kernel_info_reports_the_kernel_in_use() {
        let info = kernel_info();
        assert_eq!(info.active, level().name());
        assert_eq!(info.levels, LEVELS);
        assert_eq!(info.levels.first(), Some(&"scalar"));
        let available: alloc::vec::Vec<_> = available_levels().map(Level::name).collect();
        assert_eq!(info.supported, &available[..]);
        assert!(info.supported.contains(&info.active));
        // The report is the choice made at first use, from the environment of this run
        // (`.ci/run` runs these tests with every level forced).
        #[cfg(feature = "std")]
        {
            let value = std::env::var("TEXTCODEC_KERNEL").ok();
            assert_eq!((level(), info.request.clone()), select(value.as_deref()));
        }
        #[cfg(not(feature = "std"))]
        assert_eq!(info.request, KernelRequest::Unset);
        assert_eq!(kernel_info(), info, "the choice does not change");
    }
}
