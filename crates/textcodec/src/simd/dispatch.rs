//! The one dispatch point: which kernel family every bulk primitive uses.
//!
//! The choice is made once, on first use. In std builds it comes from runtime CPU
//! detection (`std::is_x86_feature_detected!`), and the environment variable
//! `TEXTCODEC_KERNEL` (`scalar`, `sse2`, `avx2`, `avx512`) can force a lower one; asking
//! for a kernel the CPU lacks gives the best one it has below that. no_std builds use
//! what the compilation target guarantees (`cfg(target_feature)`), nothing more.
//!
//! A [`Kernel`] value is proof that the CPU supports it: the variants that need CPU
//! features carry a [`Detected`] token that only this module can create, after detection.
//! That is what makes the safe `*_with(kernel, …)` functions of the other modules sound.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

/// Proof that the CPU features of a kernel were detected (private constructor).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Detected(());

/// A kernel family, ordered from the most portable to the most demanding. A primitive
/// that has no implementation at some level uses the best one below it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Kernel {
    /// Portable code, no `unsafe`.
    Scalar,
    /// SSE2 (x86-64 baseline).
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// AVX2 (and SSE4.1/SSSE3, which every AVX2 CPU has).
    #[cfg(target_arch = "x86_64")]
    Avx2(Detected),
    /// AVX2 plus AVX-512 F/BW/VL/VBMI/VBMI2, BMI2 and POPCNT (compress-based UTF
    /// transcoding; baseline x86-64 has no POPCNT, so `count_ones` needs it enabled).
    #[cfg(target_arch = "x86_64")]
    Avx512(Detected),
}

/// The levels, in order; their names are what `TEXTCODEC_KERNEL` accepts.
const LEVELS: &[&str] = &[
    "scalar",
    #[cfg(target_arch = "x86_64")]
    "sse2",
    #[cfg(target_arch = "x86_64")]
    "avx2",
    #[cfg(target_arch = "x86_64")]
    "avx512",
];

/// The highest level (evaluated at compile time: `LEVELS` always holds "scalar").
const HIGHEST: usize = LEVELS.len() - 1;

impl Kernel {
    /// The kernel's name, as `TEXTCODEC_KERNEL` spells it.
    #[cfg_attr(not(test), allow(dead_code))]
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
            Kernel::Avx2(_) => 2,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => 3,
        }
    }
}

/// The kernel at `level` if this CPU can run it.
fn detect(level: usize) -> Option<Kernel> {
    match level {
        0 => Some(Kernel::Scalar),
        #[cfg(target_arch = "x86_64")]
        1 => Some(Kernel::Sse2),
        #[cfg(target_arch = "x86_64")]
        2 => avx2_detected().then_some(Kernel::Avx2(Detected(()))),
        #[cfg(target_arch = "x86_64")]
        3 => avx512_detected().then_some(Kernel::Avx512(Detected(()))),
        _ => None,
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn avx2_detected() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn avx512_detected() -> bool {
    avx2_detected()
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512vbmi")
        && std::is_x86_feature_detected!("avx512vbmi2")
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn avx2_detected() -> bool {
    cfg!(target_feature = "avx2")
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn avx512_detected() -> bool {
    cfg!(all(
        target_feature = "avx2",
        target_feature = "bmi2",
        target_feature = "popcnt",
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512vl",
        target_feature = "avx512vbmi",
        target_feature = "avx512vbmi2"
    ))
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

/// The kernel in use (see the module docs).
#[inline(always)]
pub(crate) fn kernel() -> Kernel {
    #[cfg(feature = "std")]
    {
        use std::sync::atomic::{AtomicU8, Ordering};
        /// 0: not chosen yet; else the level plus one.
        static CHOICE: AtomicU8 = AtomicU8::new(0);
        #[cold]
        fn choose() -> Kernel {
            let ceiling = std::env::var("TEXTCODEC_KERNEL")
                .ok()
                .and_then(|name| LEVELS.iter().position(|l| *l == name))
                .unwrap_or(HIGHEST);
            let k = best_at_most(ceiling);
            // `level()` is at most 3: this never saturates.
            CHOICE.store((k.level() as u8).saturating_add(1), Ordering::Relaxed);
            k
        }
        match CHOICE.load(Ordering::Relaxed) {
            0 => choose(),
            // `choose` stored this level after detecting it: no need to ask again.
            1 => Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            2 => Kernel::Sse2,
            #[cfg(target_arch = "x86_64")]
            3 => Kernel::Avx2(Detected(())),
            #[cfg(target_arch = "x86_64")]
            4 => Kernel::Avx512(Detected(())),
            _ => Kernel::Scalar,
        }
    }
    #[cfg(not(feature = "std"))]
    {
        best_at_most(HIGHEST)
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
}
