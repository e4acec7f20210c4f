//! The one dispatch point: which kernel family every bulk primitive uses.
//!
//! The choice is made once, on first use. In std builds it comes from runtime CPU
//! detection (`std::is_x86_feature_detected!`), and the environment variable
//! `TEXTCODEC_KERNEL` (`scalar`, `sse2`, `sse4`, `avx2`, `avx512` on x86-64; `scalar`, `neon` on
//! aarch64) can force a lower one; asking
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
