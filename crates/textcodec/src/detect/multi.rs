//! The multi-byte candidates (and UTF-8): each runs the library's own streaming decoder in
//! fatal mode, and its output is scored character by character.

#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::{DecodeStatus, Decoder, Encoding};

use super::candidates::MULTI;
use super::score::{self, cjk_score, Flavor};

/// A multi-byte candidate's decoder and evidence.
#[derive(Clone, Debug)]
pub(super) struct Multi {
    pub(super) decoder: Decoder,
    pub(super) alive: bool,
    pub(super) score: i64,
    /// Non-ASCII characters decoded.
    pub(super) chars: u64,
    /// The last unit decoded (0 at the start, which no side score counts).
    pub(super) prev: u16,
}

/// What `MULTI[i]`'s text is expected to be.
pub(super) fn flavor(i: usize) -> Flavor {
    match MULTI.get(i) {
        Some(Encoding::Utf8) => Flavor::Utf8,
        Some(Encoding::Gb18030) => Flavor::SimplifiedChinese,
        Some(Encoding::Big5) => Flavor::TraditionalChinese,
        Some(Encoding::EucKr) => Flavor::Korean,
        _ => Flavor::Japanese,
    }
}

/// Runs a multi-byte candidate's decoder over `bytes` and scores its output. Returns
/// whether a supplementary or four-byte-only character was decoded (gb18030).
pub(super) fn examine_multi(
    m: &mut Multi,
    bytes: &[u8],
    last: bool,
    flavor: Flavor,
    scoring: bool,
) -> bool {
    let mut buf = [0u16; 128];
    let mut rest = bytes;
    let mut four = false;
    loop {
        let result = m.decoder.decode_to_utf16(rest, &mut buf, last);
        let mut prev = m.prev;
        let mut total = 0i64;
        let written = if scoring { result.written } else { 0 };
        for &unit in buf.get(..written).unwrap_or_default() {
            if unit >= 0x80 || prev >= 0x80 {
                total = total.saturating_add(i64::from(cjk_score(flavor, prev, unit)));
                if unit >= 0x80 {
                    m.chars = m.chars.saturating_add(1);
                    if flavor == Flavor::SimplifiedChinese && score::gb18030_four_byte_only(unit) {
                        four = true;
                    }
                }
            }
            prev = unit;
        }
        m.prev = prev;
        m.score = m.score.saturating_add(total);
        rest = rest.get(result.read..).unwrap_or_default();
        match result.status {
            DecodeStatus::Malformed(_) => {
                m.alive = false;
                return four;
            }
            DecodeStatus::OutputFull => continue,
            DecodeStatus::InputEmpty => return four,
        }
    }
}
