//! Line and column of a position in decoded text.
//!
//! The rule, for every encoding alike (UTF-16 included): the line is 1 + the number of line
//! feeds (U+000A) decoded before the position; the column is 1 + the number of characters
//! (Unicode scalar values, a U+FFFD written for an error counting as one) since the last
//! line feed.

/// Counts lines (and optionally columns) over a stream of text chunks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tracker {
    /// Line feeds seen.
    line_feeds: u64,
    /// Characters since the last line feed (only kept when `columns`).
    column_chars: u64,
    columns: bool,
}

impl Tracker {
    pub fn new(columns: bool) -> Tracker {
        Tracker {
            columns,
            ..Tracker::default()
        }
    }

    /// 1-based line at the current end of the stream.
    pub fn line(&self) -> u64 {
        self.line_feeds + 1
    }

    /// Moves past `text`.
    #[inline]
    pub fn advance(&mut self, text: &str) {
        *self = self.after(text);
    }

    /// The state after `text` (which follows the current position).
    #[inline]
    pub fn after(&self, text: &str) -> Tracker {
        let bytes = text.as_bytes();
        let feeds = count_line_feeds(bytes);
        let mut next = *self;
        next.line_feeds += feeds;
        if self.columns {
            if feeds == 0 {
                next.column_chars += count_chars(bytes);
            } else {
                let last = bytes.iter().rposition(|&b| b == b'\n').unwrap_or(0);
                next.column_chars = count_chars(&bytes[last + 1..]);
            }
        }
        next
    }

    /// (line, column), 1-based, of the character that starts right after `prefix`.
    pub fn line_column_after(&self, prefix: &str) -> (u64, u64) {
        let t = Tracker {
            columns: true,
            ..*self
        }
        .after(prefix);
        (t.line_feeds + 1, t.column_chars + 1)
    }
}

/// Counts bytes matching `pred`, in blocks of 255 so that a `u8` accumulator cannot
/// overflow; LLVM turns each block into wide byte-compare-and-add vector code.
#[inline]
fn count_bytes(bytes: &[u8], pred: impl Fn(u8) -> bool + Copy) -> u64 {
    bytes
        .chunks(255)
        .map(|block| {
            u64::from(
                block
                    .iter()
                    .fold(0u8, |n, &b| n.wrapping_add(u8::from(pred(b)))),
            )
        })
        .sum()
}

#[inline]
fn count_line_feeds(bytes: &[u8]) -> u64 {
    count_bytes(bytes, |b| b == b'\n')
}

/// Characters in UTF-8: bytes that are not continuation bytes.
#[inline]
fn count_chars(bytes: &[u8]) -> u64 {
    count_bytes(bytes, |b| (b as i8) >= -0x40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let mut t = Tracker::new(true);
        t.advance("ab\ncé");
        assert_eq!(t.line(), 2);
        assert_eq!(t.line_column_after("😀x"), (2, 5));
        assert_eq!(t.line_column_after("\n\n"), (4, 1));
        t.advance("\u{FFFD}");
        assert_eq!(t.line_column_after(""), (2, 4));
    }

    #[test]
    fn counts_over_block_boundaries() {
        let text = "é\n".repeat(1000);
        assert_eq!(count_line_feeds(text.as_bytes()), 1000);
        assert_eq!(count_chars(text.as_bytes()), 2000);
        let mut t = Tracker::new(true);
        t.advance(&"x".repeat(700));
        assert_eq!(t.line_column_after("y"), (1, 702));
    }
}
