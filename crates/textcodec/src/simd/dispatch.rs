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
//! A [`Kernel`] value is proof that the CPU supports it: the variants that need CPU
//! features carry a [`Detected`] token that only this module can create, after detection.
//! That is what makes the safe `*_with(kernel, …)` functions of the other modules sound.
//! The public report ([`KernelInfo`]) holds names only, never a `Kernel`.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::string::String;

/// Proof that the CPU features of a kernel were detected (private constructor).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) struct Detected(());

/// A kernel family, ordered from the most portable to the most demanding. A primitive
/// that has no implementation at some level uses the best one below it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Kernel {
    /// Portable code, no `unsafe`.
    Scalar,
    /// SSE2 (x86-64-v1, the baseline).
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// SSSE3, SSE4.1, SSE4.2 and POPCNT (x86-64-v2): `pshufb` table lookups.
    #[cfg(target_arch = "x86_64")]
    Sse4(Detected),
    /// AVX2, BMI1/BMI2, LZCNT and POPCNT plus everything of `Sse4` (x86-64-v3).
    #[cfg(target_arch = "x86_64")]
    Avx2(Detected),
    /// `Avx2` plus AVX-512 F/BW/VL/VBMI/VBMI2 (compress-based UTF transcoding).
    #[cfg(target_arch = "x86_64")]
    Avx512(Detected),
    /// Advanced SIMD (NEON), which every aarch64 CPU has.
    #[cfg(target_arch = "aarch64")]
    Neon(Detected),
}

/// The levels, in order; their names are what `TEXTCODEC_KERNEL` accepts.
const LEVELS: &[&str] = &[
    "scalar",
    #[cfg(target_arch = "x86_64")]
    "sse2",
    #[cfg(target_arch = "x86_64")]
    "sse4",
    #[cfg(target_arch = "x86_64")]
    "avx2",
    #[cfg(target_arch = "x86_64")]
    "avx512",
    #[cfg(target_arch = "aarch64")]
    "neon",
];

/// The highest level (evaluated at compile time: `LEVELS` always holds "scalar").
const HIGHEST: usize = LEVELS.len() - 1;

impl Kernel {
    /// The kernel's name, as `TEXTCODEC_KERNEL` spells it.
    // Bounds: `level` numbers the variants compiled in for this target from 0, and `LEVELS`
    // has one name per such variant, under the same `cfg`s and in the same order.
    #[allow(clippy::indexing_slicing)]
    pub(crate) fn name(self) -> &'static str {
        LEVELS[self.level()]
    }

    fn level(self) -> usize {
        match self {
            Kernel::Scalar => 0,
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => 1,
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse4(_) => 2,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => 3,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => 4,
            #[cfg(target_arch = "aarch64")]
            Kernel::Neon(_) => 1,
        }
    }

    /// The kernel at `level`, without asking the CPU: only for levels that [`detect`]
    /// found available (the token's private constructor keeps this inside the module).
    fn at_level_detected(level: usize) -> Kernel {
        match level {
            #[cfg(target_arch = "x86_64")]
            1 => Kernel::Sse2,
            #[cfg(target_arch = "x86_64")]
            2 => Kernel::Sse4(Detected(())),
            #[cfg(target_arch = "x86_64")]
            3 => Kernel::Avx2(Detected(())),
            #[cfg(target_arch = "x86_64")]
            4 => Kernel::Avx512(Detected(())),
            #[cfg(target_arch = "aarch64")]
            1 => Kernel::Neon(Detected(())),
            _ => Kernel::Scalar,
        }
    }
}

/// The kernel at `level` if this CPU can run it.
fn detect(level: usize) -> Option<Kernel> {
    let available = match level {
        0 => true,
        #[cfg(target_arch = "x86_64")]
        1 => true,
        #[cfg(target_arch = "x86_64")]
        2 => x86::sse4_detected(),
        #[cfg(target_arch = "x86_64")]
        3 => x86::avx2_detected(),
        #[cfg(target_arch = "x86_64")]
        4 => x86::avx512_detected(),
        #[cfg(target_arch = "aarch64")]
        1 => neon_detected(),
        _ => false,
    };
    available.then(|| Kernel::at_level_detected(level))
}

/// x86-64 feature detection: at run time in std builds, from the compilation target's
/// features (`cfg(target_feature)`) in no_std builds.
#[cfg(target_arch = "x86_64")]
mod x86 {
    #[cfg(feature = "std")]
    macro_rules! has {
        ($($feature:tt),+) => { $(std::is_x86_feature_detected!($feature))&&+ };
    }
    #[cfg(not(feature = "std"))]
    macro_rules! has {
        ($($feature:tt),+) => { cfg!(all($(target_feature = $feature),+)) };
    }

    /// x86-64-v2.
    pub(super) fn sse4_detected() -> bool {
        has!("ssse3", "sse4.1", "sse4.2", "popcnt")
    }

    /// x86-64-v3 (FMA and MOVBE are part of v3 but no kernel uses them).
    pub(super) fn avx2_detected() -> bool {
        sse4_detected() && has!("avx2", "bmi1", "bmi2", "lzcnt")
    }

    /// The AVX-512 subsets the kernels use.
    pub(super) fn avx512_detected() -> bool {
        avx2_detected()
            && has!(
                "avx512f",
                "avx512bw",
                "avx512vl",
                "avx512vbmi",
                "avx512vbmi2"
            )
    }
}

/// NEON is part of every aarch64 target Rust supports; still asked, as the other levels are.
#[cfg(all(target_arch = "aarch64", feature = "std"))]
fn neon_detected() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}

#[cfg(all(target_arch = "aarch64", not(feature = "std")))]
fn neon_detected() -> bool {
    cfg!(target_feature = "neon")
}

/// Every kernel this machine can run, in order (for tests and benchmarks).
#[allow(dead_code)]
pub(crate) fn available_kernels() -> impl Iterator<Item = Kernel> {
    (0..LEVELS.len()).filter_map(detect)
}

/// The best kernel at or below `ceiling` (a level) that this machine can run.
fn best_at_most(ceiling: usize) -> Kernel {
    (0..=ceiling)
        .rev()
        .find_map(detect)
        .unwrap_or(Kernel::Scalar)
}

/// The kernel for a `TEXTCODEC_KERNEL` value (`None`: unset), and what became of the
/// request (the rule is in the module docs).
fn select(value: Option<&str>) -> (Kernel, KernelRequest) {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return (best_at_most(HIGHEST), KernelRequest::Unset);
    };
    let Some((level, &name)) = LEVELS.iter().enumerate().find(|(_, l)| **l == value) else {
        return (best_at_most(HIGHEST), KernelRequest::Unknown(value.into()));
    };
    let k = best_at_most(level);
    if k.level() == level {
        (k, KernelRequest::Honoured(name))
    } else {
        (k, KernelRequest::Capped(name))
    }
}

/// The choice, made once: `kernel` and `kernel_info` both read it, so they always agree
/// even if the environment changes later.
#[cfg(feature = "std")]
fn selection() -> &'static (Kernel, KernelRequest) {
    static SELECTION: std::sync::OnceLock<(Kernel, KernelRequest)> = std::sync::OnceLock::new();
    SELECTION.get_or_init(|| {
        // Not Unicode: the lossy form (with U+FFFD) names no level, so it is `Unknown`.
        let value = std::env::var_os("TEXTCODEC_KERNEL").map(|v| v.to_string_lossy().into_owned());
        select(value.as_deref())
    })
}

/// The kernel in use (see the module docs).
#[inline(always)]
pub(crate) fn kernel() -> Kernel {
    #[cfg(feature = "std")]
    {
        use std::sync::atomic::{AtomicU8, Ordering};
        /// 0: not chosen yet; else the level plus one. A copy of `selection()`'s level,
        /// one relaxed load on the hot path.
        static CHOICE: AtomicU8 = AtomicU8::new(0);
        #[cold]
        fn choose() -> Kernel {
            let k = selection().0;
            // `level()` is at most 4: this never saturates.
            CHOICE.store((k.level() as u8).saturating_add(1), Ordering::Relaxed);
            k
        }
        match CHOICE.load(Ordering::Relaxed) {
            0 => choose(),
            // `choose` stored this level after detecting it: no need to ask again.
            stored => Kernel::at_level_detected(usize::from(stored).saturating_sub(1)),
        }
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
    let best = best_at_most(HIGHEST).level();
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
        let chosen = kernel();
        assert!(available_kernels().any(|k| k == chosen));
        #[cfg(feature = "std")]
        if let Ok(name) = std::env::var("TEXTCODEC_KERNEL") {
            if let Some(level) = LEVELS.iter().position(|l| *l == name) {
                assert!(chosen.level() <= level, "{} forced {name}", chosen.name());
            }
        }
        let names: alloc::vec::Vec<_> = available_kernels().map(Kernel::name).collect();
        assert_eq!(names.first(), Some(&"scalar"));
    }

    fn best() -> Kernel {
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
        let available: alloc::vec::Vec<Kernel> = available_kernels().collect();
        for (level, &name) in LEVELS.iter().enumerate() {
            let (k, request) = select(Some(name));
            let below = available
                .iter()
                .copied()
                .filter(|k| k.level() <= level)
                .max();
            assert_eq!(Some(k), below, "{name}");
            if available.iter().any(|k| k.level() == level) {
                assert_eq!(request, KernelRequest::Honoured(name));
                assert_eq!(k.name(), name);
            } else {
                assert_eq!(request, KernelRequest::Capped(name));
                assert!(k.level() < level, "{name}");
            }
        }
        assert_eq!(
            select(Some("scalar")),
            (Kernel::Scalar, KernelRequest::Honoured("scalar"))
        );
    }

    #[test]
    fn kernel_info_reports_the_kernel_in_use() {
        let info = kernel_info();
        assert_eq!(info.active, kernel().name());
        assert_eq!(info.levels, LEVELS);
        assert_eq!(info.levels.first(), Some(&"scalar"));
        let available: alloc::vec::Vec<_> = available_kernels().map(Kernel::name).collect();
        assert_eq!(info.supported, &available[..]);
        assert!(info.supported.contains(&info.active));
        // The report is the choice made at first use, from the environment of this run
        // (`.ci/run` runs these tests with every level forced).
        #[cfg(feature = "std")]
        {
            let value = std::env::var("TEXTCODEC_KERNEL").ok();
            assert_eq!((kernel(), info.request.clone()), select(value.as_deref()));
        }
        #[cfg(not(feature = "std"))]
        assert_eq!(info.request, KernelRequest::Unset);
        assert_eq!(kernel_info(), info, "the choice does not change");
    }
}
