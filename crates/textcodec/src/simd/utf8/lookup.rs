// Error classes: one bit each, set in all three tables for the combinations that
// produce them.
/// A lead byte followed by a non-continuation.
const TOO_SHORT: u8 = 1 << 0;
/// An ASCII byte followed by a continuation.
const TOO_LONG: u8 = 1 << 1;
/// E0 followed by 80..9F.
const OVERLONG_3: u8 = 1 << 2;
/// F4 followed by 90..BF, or F5..FF followed by 90..BF.
const TOO_LARGE: u8 = 1 << 3;
/// ED followed by A0..BF.
const SURROGATE: u8 = 1 << 4;
/// C0 or C1 followed by a continuation.
const OVERLONG_2: u8 = 1 << 5;
/// F5..FF followed by 80..8F (shares its bit with OVERLONG_4: the low-nibble table
/// tells them apart).
const TOO_LARGE_1000: u8 = 1 << 6;
/// F0 followed by 80..8F.
const OVERLONG_4: u8 = 1 << 6;
/// Two continuations in a row: an error unless a 3- or 4-byte lead needs them, which
/// the separate check cancels out (XOR).
const TWO_CONTS: u8 = 1 << 7;

/// Indexed by the previous byte's high nibble.
// Bounds: evaluated at compile time (`i < 12`); an out-of-bounds index would fail the
// build, it cannot panic at run time.
#[allow(clippy::indexing_slicing)]
pub(super) const PREV_HIGH: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 8 {
        t[i] = TOO_LONG;
        i += 1;
    }
    while i < 12 {
        t[i] = TWO_CONTS;
        i += 1;
    }
    t[0xC] = TOO_SHORT | OVERLONG_2;
    t[0xD] = TOO_SHORT;
    t[0xE] = TOO_SHORT | OVERLONG_3 | SURROGATE;
    t[0xF] = TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4;
    t
};

/// Indexed by the previous byte's low nibble.
// Bounds: evaluated at compile time (`i < 16`); an out-of-bounds index would fail the
// build, it cannot panic at run time.
#[allow(clippy::indexing_slicing)]
pub(super) const PREV_LOW: [u8; 16] = {
    // Classes decided by the high nibbles alone pass through.
    const ANY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;
    let mut t = [ANY; 16];
    t[0x0] = ANY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4;
    t[0x1] = ANY | OVERLONG_2;
    t[0x4] = ANY | TOO_LARGE;
    let mut i = 5;
    while i < 16 {
        t[i] = ANY | TOO_LARGE | TOO_LARGE_1000;
        i += 1;
    }
    t[0xD] = ANY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE;
    t
};

/// Indexed by the current byte's high nibble.
pub(super) const CUR_HIGH: [u8; 16] = {
    let mut t = [TOO_SHORT; 16];
    const CONT: u8 = TOO_LONG | OVERLONG_2 | TWO_CONTS;
    t[0x8] = CONT | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4;
    t[0x9] = CONT | OVERLONG_3 | TOO_LARGE;
    t[0xA] = CONT | SURROGATE | TOO_LARGE;
    t[0xB] = CONT | SURROGATE | TOO_LARGE;
    t
};

/// Per position of a 64-byte block: the largest byte that does not start a character
/// running past the block's end (F0.. at 61, E0.. at 62, C0.. at 63). The last 32
/// entries serve 32-byte blocks.
pub(super) const INCOMPLETE_MAX: [u8; 64] = {
    let mut t = [0xFF; 64];
    t[61] = 0xF0 - 1;
    t[62] = 0xE0 - 1;
    t[63] = 0xC0 - 1;
    t
};
