//! The driver's share of the Standard's I/O queue (#concept-stream): the bytes restored
//! for the handler to read again, the bytes of the sequence in progress (for error
//! reports) and the stream offset, kept between calls.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

/// The driver's share of the I/O queue and bookkeeping. Its small byte buffers are
/// integers, the first byte lowest: they stay in registers (a byte array written byte by
/// byte and then read whole stalls on store forwarding, and errors come here once each).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Queue {
    /// Restored bytes to process before the next input byte (front = lowest byte).
    pub(super) replay: u32,
    pub(super) replay_len: u8,
    /// The bytes of the sequence in progress, for error reports.
    pub(super) seq: u64,
    pub(super) seq_len: u8,
    /// Stream offset of the sequence's first byte.
    pub(super) seq_start: u64,
    /// Stream offset of the next byte the handler will see.
    pub(super) pos: u64,
}

/// The lowest `n` bytes of `x` (all of them for `n >= 8`).
#[inline(always)]
pub(super) fn low_bytes(x: u64, n: usize) -> u64 {
    let bits = u32::try_from(n).unwrap_or(u32::MAX).saturating_mul(8);
    1u64.checked_shl(bits)
        .map_or(x, |bit| x & bit.wrapping_sub(1))
}

/// `x` without its lowest `n` bytes.
#[inline(always)]
pub(super) fn drop_bytes(x: u64, n: usize) -> u64 {
    let bits = u32::try_from(n).unwrap_or(u32::MAX).saturating_mul(8);
    x.checked_shr(bits).unwrap_or(0)
}

/// Up to eight bytes packed into an integer, the first lowest.
pub(super) fn pack(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

impl Queue {
    /// Puts the `n` bytes packed in `bytes` in front of the replay queue.
    #[inline(always)]
    pub(super) fn prepend(&mut self, bytes: u64, n: usize) {
        // The Standard's handlers restore at most three bytes, and the queue is empty again
        // before the handler can restore more, so the four bytes of `replay` suffice (the
        // exhaustive sweeps exercise every restore).
        let behind = u64::from(self.replay)
            .checked_shl(u32::try_from(n).unwrap_or(u32::MAX).saturating_mul(8))
            .unwrap_or(0);
        self.replay = (low_bytes(bytes, n) | behind) as u32;
        self.replay_len = n.saturating_add(usize::from(self.replay_len)).min(4) as u8;
    }

    #[inline(always)]
    pub(super) fn front(&self) -> u8 {
        self.replay as u8
    }

    #[inline(always)]
    pub(super) fn pop_replay(&mut self) {
        self.replay >>= 8;
        self.replay_len = self.replay_len.saturating_sub(1);
    }

    /// Appends a consumed byte to the sequence in progress.
    #[inline(always)]
    pub(super) fn push_seq(&mut self, b: u8) {
        if self.seq_len == 0 {
            self.seq_start = self.pos;
            self.seq = 0;
        }
        // Sequences are at most 4 bytes (+ ISO-2022-JP's 3-byte escapes); `seq` holds 8.
        if self.seq_len < 8 {
            self.seq |= u64::from(b) << (u32::from(self.seq_len) * 8);
            self.seq_len = self.seq_len.saturating_add(1);
        }
    }
}
