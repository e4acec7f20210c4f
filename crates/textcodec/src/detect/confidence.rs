//! The guess's confidence: its margin over the runner-up, mapped to the fraction of
//! guesses right at that margin on held-out calibration text
//! (`scripts/make-detect-calibration.py`, fitted by `scripts/fit-detect-calibration.py`
//! into `generated/calibration.rs`), per class of winner.

use super::generated::calibration::{ALONE, KNOTS};
use super::score::UNITS_PER_POINT;

/// Calibration class: the winner is UTF-8.
pub(super) const UTF8: usize = 0;
/// ... a single-byte encoding of a Latin script.
pub(super) const LATIN: usize = 1;
/// ... a single-byte encoding of another script (Cyrillic, Greek, Hebrew, Arabic, Thai).
pub(super) const OTHER_SCRIPT: usize = 2;
/// ... a CJK multi-byte encoding.
pub(super) const CJK: usize = 3;
/// ... UTF-16LE or UTF-16BE.
pub(super) const UTF16: usize = 4;

/// The calibrated confidence of a winner of `class` whose margin over the best candidate
/// that decodes differently is `margin` units (`None`: no such candidate survives).
pub(super) fn calibrated(class: usize, margin: Option<i64>) -> f32 {
    let Some(margin) = margin else {
        return ALONE.get(class).copied().unwrap_or(0.0);
    };
    let m = margin as f32 / UNITS_PER_POINT;
    let knots = KNOTS.get(class).copied().unwrap_or(&[]);
    let mut prev: Option<(f32, f32)> = None;
    for &(x, y) in knots {
        if m <= x {
            return match prev {
                Some((x0, y0)) if x > x0 => y0 + (y - y0) * (m - x0) / (x - x0),
                _ => y,
            };
        }
        prev = Some((x, y));
    }
    prev.map_or(0.0, |(_, y)| y)
}

/// `e^x` for `x ≤ 0` (no `std` here): `(1 + x/65536)^65536` by sixteen squarings, within
/// 1 % of `e^x` down to x = −10; 0 below −30.
pub(super) fn exp_neg(x: f32) -> f32 {
    if x.is_nan() || x < -30.0 {
        return 0.0;
    }
    let mut y = 1.0 + x.min(0.0) / 65536.0;
    for _ in 0..16 {
        y *= y;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_neg_is_close_to_exp() {
        for i in 0..=100 {
            let x = -(i as f32) / 10.0;
            let want = (x as f64).exp() as f32;
            let got = exp_neg(x);
            assert!(
                (got - want).abs() <= 0.01 * want + 1e-6,
                "{x}: {got} vs {want}"
            );
        }
        assert_eq!(exp_neg(-31.0), 0.0);
    }

    #[test]
    fn calibration_is_monotone_in_the_margin() {
        for class in [UTF8, LATIN, OTHER_SCRIPT, CJK, UTF16] {
            let mut last = 0.0;
            for m in 0..400 {
                let c = calibrated(class, Some(m * 2));
                assert!((0.0..=1.0).contains(&c), "class {class}: {c}");
                assert!(c >= last, "class {class}, margin {m}: {c} < {last}");
                last = c;
            }
        }
    }
}
