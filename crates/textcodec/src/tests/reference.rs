//! Naive reference decoders and encoders, test-only.
//!
//! Written straight from the Standard's handler steps, with a real I/O queue (`VecDeque`,
//! *restore* pushes to the front, end-of-queue read when empty) and the *process a queue* /
//! *process an item* loop (#concept-encoding-run, #concept-encoding-process). Nothing here
//! shares code with the production codecs: no fast paths, no driver, no encode page tables.
//! *Index code point* is a lookup in a map built from the committed decode tables;
//! *index pointer* is a linear search over the same tables following the Standard's rules
//! (first pointer; #index-shift_jis-pointer; #index-big5-pointer; the gb18030 ranges
//! algorithms). For speed the pointer searches are memoised per code point, but every
//! memoised answer is the result of the linear search.

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;
use std::vec::Vec;
#[allow(unused_imports)]
use std::{borrow::ToOwned, boxed::Box, format, string::ToString, vec};

use crate::index::all;
use crate::Encoding;

// ---------------------------------------------------------------------------------------
// I/O queue and handler results (#concept-stream, #encoders-and-decoders)
// ---------------------------------------------------------------------------------------

/// An I/O queue of items (bytes or scalar values) that ends with end-of-queue. Reading past
/// the last item returns end-of-queue (`None`) without removing it.
pub(crate) struct IoQueue<T> {
    items: VecDeque<T>,
}

impl<T: Copy> IoQueue<T> {
    pub(crate) fn new(items: &[T]) -> Self {
        IoQueue {
            items: items.iter().copied().collect(),
        }
    }

    /// *read*: the first item, or end-of-queue.
    pub(crate) fn read(&mut self) -> Option<T> {
        self.items.pop_front()
    }

    /// *restore*: put items back at the front, in order.
    pub(crate) fn restore(&mut self, items: &[T]) {
        for &item in items.iter().rev() {
            self.items.push_front(item);
        }
    }

    /// Items left before end-of-queue.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    fn front(&self, n: usize) -> Vec<T> {
        self.items.iter().take(n).copied().collect()
    }
}

/// A decoder handler's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum DecResult {
    Finished,
    One(char),
    Two(char, char),
    Error,
    Continue,
}

/// An encoder handler's result (bytes: at most three for an escape sequence).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum EncResult {
    Finished,
    Bytes(Vec<u8>),
    Error(u32),
}

fn cp(code_point: u32) -> char {
    char::from_u32(code_point)
        .unwrap_or_else(|| panic!("the Standard produced a non-scalar value {code_point:#X}"))
}

// ---------------------------------------------------------------------------------------
// Indexes (#indexes)
// ---------------------------------------------------------------------------------------

struct Tables {
    jis0208: Vec<(usize, u32)>,
    jis0212: HashMap<usize, u32>,
    jis0208_map: HashMap<usize, u32>,
    euc_kr: Vec<(usize, u32)>,
    euc_kr_map: HashMap<usize, u32>,
    gb18030: Vec<(usize, u32)>,
    gb18030_map: HashMap<usize, u32>,
    big5: Vec<(usize, u32)>,
    big5_map: HashMap<usize, u32>,
    ranges: Vec<(u32, u32)>,
    katakana: Vec<u32>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let widen = |v: Vec<(usize, u16)>| -> Vec<(usize, u32)> {
            v.into_iter().map(|(p, c)| (p, u32::from(c))).collect()
        };
        let jis0208 = widen(all::jis0208().collect());
        let euc_kr = widen(all::euc_kr().collect());
        let gb18030 = widen(all::gb18030().collect());
        let big5: Vec<(usize, u32)> = all::big5().collect();
        Tables {
            jis0208_map: jis0208.iter().copied().collect(),
            jis0212: all::jis0212().map(|(p, c)| (p, u32::from(c))).collect(),
            euc_kr_map: euc_kr.iter().copied().collect(),
            gb18030_map: gb18030.iter().copied().collect(),
            big5_map: big5.iter().copied().collect(),
            jis0208,
            euc_kr,
            gb18030,
            big5,
            ranges: all::gb18030_ranges().collect(),
            katakana: all::iso_2022_jp_katakana()
                .map(|(_, c)| u32::from(c))
                .collect(),
        }
    })
}

/// Which index a pointer rule applies to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Index {
    Jis0208,
    ShiftJis,
    EucKr,
    Gb18030,
    Big5,
}

/// *index pointer*: the first pointer for `code_point` by linear search, with the
/// Shift_JIS and Big5 variants.
fn index_pointer_linear(index: Index, code_point: u32) -> Option<usize> {
    let t = tables();
    match index {
        Index::Jis0208 => t.jis0208.iter().find(|e| e.1 == code_point).map(|e| e.0),
        // #index-shift_jis-pointer: exclude pointers 8272 to 8835.
        Index::ShiftJis => t
            .jis0208
            .iter()
            .filter(|e| !(8272..=8835).contains(&e.0))
            .find(|e| e.1 == code_point)
            .map(|e| e.0),
        Index::EucKr => t.euc_kr.iter().find(|e| e.1 == code_point).map(|e| e.0),
        Index::Gb18030 => t.gb18030.iter().find(|e| e.1 == code_point).map(|e| e.0),
        // #index-big5-pointer: exclude pointers < (0xA1 − 0x81) × 157; the last pointer
        // for six code points.
        Index::Big5 => {
            let mut candidates = t
                .big5
                .iter()
                .filter(|e| e.0 >= (0xA1 - 0x81) * 157)
                .filter(|e| e.1 == code_point);
            if matches!(
                code_point,
                0x2550 | 0x255E | 0x2561 | 0x256A | 0x5341 | 0x5345
            ) {
                candidates.next_back().map(|e| e.0)
            } else {
                candidates.next().map(|e| e.0)
            }
        }
    }
}

/// *index pointer*, memoised: one linear pass per index that records, for every code point,
/// the pointer the linear search would return.
pub(crate) fn index_pointer(index: Index, code_point: u32) -> Option<usize> {
    static MEMO: OnceLock<HashMap<Index, HashMap<u32, usize>>> = OnceLock::new();
    let memo = MEMO.get_or_init(|| {
        let t = tables();
        let mut all_maps = HashMap::new();
        for (index, entries) in [
            (Index::Jis0208, &t.jis0208),
            (Index::ShiftJis, &t.jis0208),
            (Index::EucKr, &t.euc_kr),
            (Index::Gb18030, &t.gb18030),
            (Index::Big5, &t.big5),
        ] {
            let mut map = HashMap::new();
            for &(_, c) in entries.iter() {
                if let std::collections::hash_map::Entry::Vacant(v) = map.entry(c) {
                    if let Some(p) = index_pointer_linear(index, c) {
                        v.insert(p);
                    }
                }
            }
            all_maps.insert(index, map);
        }
        all_maps
    });
    memo[&index].get(&code_point).copied()
}

/// Checks the memo against the linear search for a few code points (the memo is built by
/// calling the linear search, but this keeps the claim honest).
#[test]
fn memoised_index_pointer_is_the_linear_search() {
    for index in [
        Index::Jis0208,
        Index::ShiftJis,
        Index::EucKr,
        Index::Gb18030,
        Index::Big5,
    ] {
        for code_point in [
            0x2550, 0x5341, 0x5345, 0x256A, 0x2170, 0xFFE2, 0x3000, 0x4E00, 0xAC00, 0x20AC, 0x41,
            0x2010, 0xFF0D, 0x9ED1, 0x7E8A, 0x2460, 0x3231, 0xE000,
        ] {
            assert_eq!(
                index_pointer(index, code_point),
                index_pointer_linear(index, code_point),
                "{index:?} U+{code_point:04X}"
            );
        }
    }
}

/// *index code point* in index jis0208.
pub(crate) fn jis0208(pointer: usize) -> Option<u32> {
    tables().jis0208_map.get(&pointer).copied()
}

pub(crate) fn jis0212(pointer: usize) -> Option<u32> {
    tables().jis0212.get(&pointer).copied()
}

pub(crate) fn euc_kr(pointer: usize) -> Option<u32> {
    tables().euc_kr_map.get(&pointer).copied()
}

pub(crate) fn gb18030(pointer: usize) -> Option<u32> {
    tables().gb18030_map.get(&pointer).copied()
}

pub(crate) fn big5(pointer: usize) -> Option<u32> {
    tables().big5_map.get(&pointer).copied()
}

/// #index-gb18030-ranges-code-point
pub(crate) fn gb18030_ranges_code_point(pointer: u32) -> Option<u32> {
    if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
        return None;
    }
    if pointer == 7457 {
        return Some(0xE7C7);
    }
    let (offset, code_point_offset) = tables().ranges.iter().copied().rfind(|r| r.0 <= pointer)?;
    Some(code_point_offset + pointer - offset)
}

/// #index-gb18030-ranges-pointer
pub(crate) fn gb18030_ranges_pointer(code_point: u32) -> u32 {
    if code_point == 0xE7C7 {
        return 7457;
    }
    let (pointer_offset, offset) = tables()
        .ranges
        .iter()
        .copied()
        .rfind(|r| r.1 <= code_point)
        .expect("ranges start at U+0080");
    pointer_offset + code_point - offset
}

/// *index code point* in index ISO-2022-JP katakana.
pub(crate) fn katakana(pointer: usize) -> Option<u32> {
    tables().katakana.get(pointer).copied()
}

/// *index code point* in the single-byte index of `encoding` (pointer = byte − 0x80).
pub(crate) fn single_byte(encoding: Encoding, pointer: usize) -> Option<u32> {
    let index = encoding.single_byte_tables().expect("single-byte encoding");
    match index.decode[pointer + 0x80] {
        0 => None,
        c => Some(u32::from(c)),
    }
}

/// *index pointer* in a single-byte index, by linear search.
pub(crate) fn single_byte_pointer(encoding: Encoding, code_point: u32) -> Option<usize> {
    (0..128).find(|&p| single_byte(encoding, p) == Some(code_point))
}

// ---------------------------------------------------------------------------------------
// Decoders
// ---------------------------------------------------------------------------------------

/// Every decoder's state, one variant per decoder section.
#[derive(Clone, Debug)]
pub(crate) enum RefDecoder {
    Utf8 {
        code_point: u32,
        bytes_seen: u32,
        bytes_needed: u32,
        lower: u8,
        upper: u8,
    },
    SingleByte(Encoding),
    Gb18030 {
        first: u8,
        second: u8,
        third: u8,
    },
    Big5 {
        leading: u8,
    },
    EucJp {
        jis0212: bool,
        leading: u8,
    },
    Iso2022Jp {
        state: JpState,
        output_state: JpState,
        leading: u8,
        output: bool,
    },
    ShiftJis {
        leading: u8,
    },
    EucKr {
        leading: u8,
    },
    Replacement {
        error_returned: bool,
    },
    Utf16 {
        leading_byte: Option<u8>,
        leading_surrogate: Option<u16>,
        be: bool,
    },
    XUserDefined,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum JpState {
    Ascii,
    Roman,
    Katakana,
    LeadingByte,
    TrailingByte,
    EscapeStart,
    Escape,
}

impl RefDecoder {
    pub(crate) fn new(encoding: Encoding) -> RefDecoder {
        use Encoding::*;
        match encoding {
            Utf8 => RefDecoder::Utf8 {
                code_point: 0,
                bytes_seen: 0,
                bytes_needed: 0,
                lower: 0x80,
                upper: 0xBF,
            },
            Gbk | Gb18030 => RefDecoder::Gb18030 {
                first: 0,
                second: 0,
                third: 0,
            },
            Big5 => RefDecoder::Big5 { leading: 0 },
            EucJp => RefDecoder::EucJp {
                jis0212: false,
                leading: 0,
            },
            Iso2022Jp => RefDecoder::Iso2022Jp {
                state: JpState::Ascii,
                output_state: JpState::Ascii,
                leading: 0,
                output: false,
            },
            ShiftJis => RefDecoder::ShiftJis { leading: 0 },
            EucKr => RefDecoder::EucKr { leading: 0 },
            Replacement => RefDecoder::Replacement {
                error_returned: false,
            },
            Utf16Be | Utf16Le => RefDecoder::Utf16 {
                leading_byte: None,
                leading_surrogate: None,
                be: encoding == Utf16Be,
            },
            XUserDefined => RefDecoder::XUserDefined,
            e => {
                assert!(e.is_single_byte());
                RefDecoder::SingleByte(e)
            }
        }
    }

    /// How many consumed bytes the handler's state holds (the start of a sequence in
    /// progress). Used only to attribute bytes to errors for the fatal-mode checks.
    pub(crate) fn pending(&self) -> usize {
        match *self {
            RefDecoder::Utf8 {
                bytes_seen,
                bytes_needed,
                ..
            } => {
                if bytes_needed == 0 {
                    0
                } else {
                    1 + bytes_seen as usize
                }
            }
            RefDecoder::Gb18030 {
                first,
                second,
                third,
            } => [first, second, third].iter().filter(|&&b| b != 0).count(),
            RefDecoder::Big5 { leading }
            | RefDecoder::ShiftJis { leading }
            | RefDecoder::EucKr { leading } => usize::from(leading != 0),
            // The jis0212 flag counts 0x8F only while a leading byte is pending (end-of-queue
            // resets the leading byte but not the flag).
            RefDecoder::EucJp { jis0212, leading } => {
                if leading == 0 {
                    0
                } else {
                    1 + usize::from(jis0212)
                }
            }
            RefDecoder::Iso2022Jp { state, .. } => match state {
                JpState::TrailingByte | JpState::EscapeStart => 1,
                JpState::Escape => 2,
                _ => 0,
            },
            RefDecoder::Utf16 {
                leading_byte,
                leading_surrogate,
                ..
            } => 2 * usize::from(leading_surrogate.is_some()) + usize::from(leading_byte.is_some()),
            RefDecoder::SingleByte(_)
            | RefDecoder::Replacement { .. }
            | RefDecoder::XUserDefined => 0,
        }
    }

    /// The decoder's handler, given `q` and `byte` (`None` = end-of-queue).
    pub(crate) fn handle(&mut self, q: &mut IoQueue<u8>, byte: Option<u8>) -> DecResult {
        use DecResult::*;
        match self {
            // #utf-8-decoder
            RefDecoder::Utf8 {
                code_point,
                bytes_seen,
                bytes_needed,
                lower,
                upper,
            } => {
                // 1.
                if byte.is_none() && *bytes_needed != 0 {
                    *bytes_needed = 0;
                    return Error;
                }
                // 2.
                let Some(byte) = byte else { return Finished };
                // 3.
                if *bytes_needed == 0 {
                    match byte {
                        0x00..=0x7F => return One(cp(u32::from(byte))),
                        0xC2..=0xDF => {
                            *bytes_needed = 1;
                            *code_point = u32::from(byte) & 0x1F;
                        }
                        0xE0..=0xEF => {
                            if byte == 0xE0 {
                                *lower = 0xA0;
                            }
                            if byte == 0xED {
                                *upper = 0x9F;
                            }
                            *bytes_needed = 2;
                            *code_point = u32::from(byte) & 0xF;
                        }
                        0xF0..=0xF4 => {
                            if byte == 0xF0 {
                                *lower = 0x90;
                            }
                            if byte == 0xF4 {
                                *upper = 0x8F;
                            }
                            *bytes_needed = 3;
                            *code_point = u32::from(byte) & 0x7;
                        }
                        _ => return Error,
                    }
                    return Continue;
                }
                // 4.
                if !(*lower..=*upper).contains(&byte) {
                    *code_point = 0;
                    *bytes_needed = 0;
                    *bytes_seen = 0;
                    *lower = 0x80;
                    *upper = 0xBF;
                    q.restore(&[byte]);
                    return Error;
                }
                // 5–7.
                *lower = 0x80;
                *upper = 0xBF;
                *code_point = (*code_point << 6) | (u32::from(byte) & 0x3F);
                *bytes_seen += 1;
                // 8.
                if *bytes_seen != *bytes_needed {
                    return Continue;
                }
                // 9–11.
                let c = *code_point;
                *code_point = 0;
                *bytes_needed = 0;
                *bytes_seen = 0;
                One(cp(c))
            }
            // #single-byte-decoder
            RefDecoder::SingleByte(encoding) => {
                let Some(byte) = byte else { return Finished };
                if byte < 0x80 {
                    return One(cp(u32::from(byte)));
                }
                match single_byte(*encoding, usize::from(byte - 0x80)) {
                    None => Error,
                    Some(c) => One(cp(c)),
                }
            }
            // #gb18030-decoder
            RefDecoder::Gb18030 {
                first,
                second,
                third,
            } => {
                // 1–2.
                let Some(byte) = byte else {
                    if *first == 0 && *second == 0 && *third == 0 {
                        return Finished;
                    }
                    *first = 0;
                    *second = 0;
                    *third = 0;
                    return Error;
                };
                // 3.
                if *third != 0 {
                    if !(0x30..=0x39).contains(&byte) {
                        q.restore(&[*second, *third, byte]);
                        *first = 0;
                        *second = 0;
                        *third = 0;
                        return Error;
                    }
                    let pointer = (u32::from(*first) - 0x81) * (10 * 126 * 10)
                        + (u32::from(*second) - 0x30) * (10 * 126)
                        + (u32::from(*third) - 0x81) * 10
                        + u32::from(byte)
                        - 0x30;
                    let code_point = gb18030_ranges_code_point(pointer);
                    *first = 0;
                    *second = 0;
                    *third = 0;
                    return match code_point {
                        None => Error,
                        Some(c) => One(cp(c)),
                    };
                }
                // 4.
                if *second != 0 {
                    if (0x81..=0xFE).contains(&byte) {
                        *third = byte;
                        return Continue;
                    }
                    q.restore(&[*second, byte]);
                    *first = 0;
                    *second = 0;
                    return Error;
                }
                // 5.
                if *first != 0 {
                    if (0x30..=0x39).contains(&byte) {
                        *second = byte;
                        return Continue;
                    }
                    let leading = *first;
                    *first = 0;
                    let mut pointer = None;
                    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
                    if (0x40..=0x7E).contains(&byte) || (0x80..=0xFE).contains(&byte) {
                        pointer =
                            Some((usize::from(leading) - 0x81) * 190 + usize::from(byte - offset));
                    }
                    let code_point = pointer.and_then(gb18030);
                    if let Some(c) = code_point {
                        return One(cp(c));
                    }
                    if byte < 0x80 {
                        q.restore(&[byte]);
                    }
                    return Error;
                }
                // 6–9.
                match byte {
                    0x00..=0x7F => One(cp(u32::from(byte))),
                    0x80 => One('\u{20AC}'),
                    0x81..=0xFE => {
                        *first = byte;
                        Continue
                    }
                    _ => Error,
                }
            }
            // #big5-decoder
            RefDecoder::Big5 { leading } => {
                let Some(byte) = byte else {
                    if *leading != 0 {
                        *leading = 0;
                        return Error;
                    }
                    return Finished;
                };
                if *leading != 0 {
                    let lead = *leading;
                    let mut pointer = None;
                    *leading = 0;
                    let offset = if byte < 0x7F { 0x40 } else { 0x62 };
                    if (0x40..=0x7E).contains(&byte) || (0xA1..=0xFE).contains(&byte) {
                        pointer =
                            Some((usize::from(lead) - 0x81) * 157 + usize::from(byte - offset));
                    }
                    match pointer {
                        Some(1133) => return Two('\u{00CA}', '\u{0304}'),
                        Some(1135) => return Two('\u{00CA}', '\u{030C}'),
                        Some(1164) => return Two('\u{00EA}', '\u{0304}'),
                        Some(1166) => return Two('\u{00EA}', '\u{030C}'),
                        _ => {}
                    }
                    if let Some(c) = pointer.and_then(big5) {
                        return One(cp(c));
                    }
                    if byte < 0x80 {
                        q.restore(&[byte]);
                    }
                    return Error;
                }
                match byte {
                    0x00..=0x7F => One(cp(u32::from(byte))),
                    0x81..=0xFE => {
                        *leading = byte;
                        Continue
                    }
                    _ => Error,
                }
            }
            // #euc-jp-decoder
            RefDecoder::EucJp {
                jis0212: use_0212,
                leading,
            } => {
                let Some(byte) = byte else {
                    if *leading != 0 {
                        *leading = 0;
                        return Error;
                    }
                    return Finished;
                };
                if *leading == 0x8E && (0xA1..=0xDF).contains(&byte) {
                    *leading = 0;
                    return One(cp(0xFF61 - 0xA1 + u32::from(byte)));
                }
                if *leading == 0x8F && (0xA1..=0xFE).contains(&byte) {
                    *use_0212 = true;
                    *leading = byte;
                    return Continue;
                }
                if *leading != 0 {
                    let lead = *leading;
                    *leading = 0;
                    let mut code_point = None;
                    if (0xA1..=0xFE).contains(&lead) && (0xA1..=0xFE).contains(&byte) {
                        let pointer = (usize::from(lead) - 0xA1) * 94 + usize::from(byte) - 0xA1;
                        code_point = if *use_0212 {
                            jis0212(pointer)
                        } else {
                            jis0208(pointer)
                        };
                    }
                    *use_0212 = false;
                    if let Some(c) = code_point {
                        return One(cp(c));
                    }
                    if byte < 0x80 {
                        q.restore(&[byte]);
                    }
                    return Error;
                }
                match byte {
                    0x00..=0x7F => One(cp(u32::from(byte))),
                    0x8E | 0x8F | 0xA1..=0xFE => {
                        *leading = byte;
                        Continue
                    }
                    _ => Error,
                }
            }
            // #iso-2022-jp-decoder
            RefDecoder::Iso2022Jp {
                state,
                output_state,
                leading,
                output,
            } => match *state {
                JpState::Ascii => match byte {
                    Some(0x1B) => {
                        *state = JpState::EscapeStart;
                        Continue
                    }
                    Some(b @ 0x00..=0x7F) if b != 0x0E && b != 0x0F => {
                        *output = false;
                        One(cp(u32::from(b)))
                    }
                    None => Finished,
                    Some(_) => {
                        *output = false;
                        Error
                    }
                },
                JpState::Roman => match byte {
                    Some(0x1B) => {
                        *state = JpState::EscapeStart;
                        Continue
                    }
                    Some(0x5C) => {
                        *output = false;
                        One('\u{A5}')
                    }
                    Some(0x7E) => {
                        *output = false;
                        One('\u{203E}')
                    }
                    Some(b @ 0x00..=0x7F) if b != 0x0E && b != 0x0F => {
                        *output = false;
                        One(cp(u32::from(b)))
                    }
                    None => Finished,
                    Some(_) => {
                        *output = false;
                        Error
                    }
                },
                JpState::Katakana => match byte {
                    Some(0x1B) => {
                        *state = JpState::EscapeStart;
                        Continue
                    }
                    Some(b @ 0x21..=0x5F) => {
                        *output = false;
                        One(cp(0xFF61 - 0x21 + u32::from(b)))
                    }
                    None => Finished,
                    Some(_) => {
                        *output = false;
                        Error
                    }
                },
                JpState::LeadingByte => match byte {
                    Some(0x1B) => {
                        *state = JpState::EscapeStart;
                        Continue
                    }
                    Some(b @ 0x21..=0x7E) => {
                        *output = false;
                        *leading = b;
                        *state = JpState::TrailingByte;
                        Continue
                    }
                    None => Finished,
                    Some(_) => {
                        *output = false;
                        Error
                    }
                },
                JpState::TrailingByte => match byte {
                    Some(0x1B) => {
                        *state = JpState::EscapeStart;
                        Error
                    }
                    Some(b @ 0x21..=0x7E) => {
                        *state = JpState::LeadingByte;
                        let pointer = (usize::from(*leading) - 0x21) * 94 + usize::from(b) - 0x21;
                        match jis0208(pointer) {
                            None => Error,
                            Some(c) => One(cp(c)),
                        }
                    }
                    None | Some(_) => {
                        *state = JpState::LeadingByte;
                        Error
                    }
                },
                JpState::EscapeStart => {
                    if let Some(b @ (0x24 | 0x28)) = byte {
                        *leading = b;
                        *state = JpState::Escape;
                        return Continue;
                    }
                    if let Some(b) = byte {
                        q.restore(&[b]);
                    }
                    *output = false;
                    *state = *output_state;
                    Error
                }
                JpState::Escape => {
                    let lead = *leading;
                    *leading = 0;
                    let mut new_state = None;
                    if lead == 0x28 && byte == Some(0x42) {
                        new_state = Some(JpState::Ascii);
                    }
                    if lead == 0x28 && byte == Some(0x4A) {
                        new_state = Some(JpState::Roman);
                    }
                    if lead == 0x28 && byte == Some(0x49) {
                        new_state = Some(JpState::Katakana);
                    }
                    if lead == 0x24 && matches!(byte, Some(0x40 | 0x42)) {
                        new_state = Some(JpState::LeadingByte);
                    }
                    if let Some(s) = new_state {
                        *state = s;
                        *output_state = s;
                        let was = *output;
                        *output = true;
                        return if was { Error } else { Continue };
                    }
                    match byte {
                        None => q.restore(&[lead]),
                        Some(b) => q.restore(&[lead, b]),
                    }
                    *output = false;
                    *state = *output_state;
                    Error
                }
            },
            // #shift_jis-decoder
            RefDecoder::ShiftJis { leading } => {
                let Some(byte) = byte else {
                    if *leading != 0 {
                        *leading = 0;
                        return Error;
                    }
                    return Finished;
                };
                if *leading != 0 {
                    let lead = *leading;
                    let mut pointer = None;
                    *leading = 0;
                    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
                    let leading_offset = if lead < 0xA0 { 0x81 } else { 0xC1 };
                    if (0x40..=0x7E).contains(&byte) || (0x80..=0xFC).contains(&byte) {
                        pointer = Some(
                            (usize::from(lead) - leading_offset) * 188 + usize::from(byte) - offset,
                        );
                    }
                    if let Some(p) = pointer {
                        if (8836..=10715).contains(&p) {
                            return One(cp(0xE000 - 8836 + p as u32));
                        }
                    }
                    if let Some(c) = pointer.and_then(jis0208) {
                        return One(cp(c));
                    }
                    if byte < 0x80 {
                        q.restore(&[byte]);
                    }
                    return Error;
                }
                match byte {
                    0x00..=0x80 => One(cp(u32::from(byte))),
                    0xA1..=0xDF => One(cp(0xFF61 - 0xA1 + u32::from(byte))),
                    0x81..=0x9F | 0xE0..=0xFC => {
                        *leading = byte;
                        Continue
                    }
                    _ => Error,
                }
            }
            // #euc-kr-decoder
            RefDecoder::EucKr { leading } => {
                let Some(byte) = byte else {
                    if *leading != 0 {
                        *leading = 0;
                        return Error;
                    }
                    return Finished;
                };
                if *leading != 0 {
                    let lead = *leading;
                    let mut pointer = None;
                    *leading = 0;
                    if (0x41..=0xFE).contains(&byte) {
                        pointer = Some((usize::from(lead) - 0x81) * 190 + usize::from(byte) - 0x41);
                    }
                    if let Some(c) = pointer.and_then(euc_kr) {
                        return One(cp(c));
                    }
                    if byte < 0x80 {
                        q.restore(&[byte]);
                    }
                    return Error;
                }
                match byte {
                    0x00..=0x7F => One(cp(u32::from(byte))),
                    0x81..=0xFE => {
                        *leading = byte;
                        Continue
                    }
                    _ => Error,
                }
            }
            // #replacement-decoder
            RefDecoder::Replacement { error_returned } => {
                if byte.is_none() {
                    return Finished;
                }
                if !*error_returned {
                    *error_returned = true;
                    return Error;
                }
                Finished
            }
            // #shared-utf-16-decoder
            RefDecoder::Utf16 {
                leading_byte,
                leading_surrogate,
                be,
            } => {
                // 1.
                let Some(byte) = byte else {
                    if leading_byte.is_some() || leading_surrogate.is_some() {
                        *leading_byte = None;
                        *leading_surrogate = None;
                        return Error;
                    }
                    // 2.
                    return Finished;
                };
                // 3.
                let Some(lead) = *leading_byte else {
                    *leading_byte = Some(byte);
                    return Continue;
                };
                // 4.
                let code_unit = if *be {
                    (u16::from(lead) << 8) + u16::from(byte)
                } else {
                    (u16::from(byte) << 8) + u16::from(lead)
                };
                *leading_byte = None;
                // 6.
                if let Some(ls) = *leading_surrogate {
                    *leading_surrogate = None;
                    if (0xDC00..=0xDFFF).contains(&code_unit) {
                        return One(cp(0x10000
                            + ((u32::from(ls) - 0xD800) << 10)
                            + (u32::from(code_unit) - 0xDC00)));
                    }
                    let bytes = code_unit.to_be_bytes();
                    if *be {
                        q.restore(&bytes);
                    } else {
                        q.restore(&[bytes[1], bytes[0]]);
                    }
                    return Error;
                }
                // 7.
                if (0xD800..=0xDBFF).contains(&code_unit) {
                    *leading_surrogate = Some(code_unit);
                    return Continue;
                }
                // 8.
                if (0xDC00..=0xDFFF).contains(&code_unit) {
                    return Error;
                }
                // 9.
                One(cp(u32::from(code_unit)))
            }
            // #x-user-defined-decoder
            RefDecoder::XUserDefined => match byte {
                None => Finished,
                Some(b @ 0x00..=0x7F) => One(cp(u32::from(b))),
                Some(b) => One(cp(0xF780 + u32::from(b) - 0x80)),
            },
        }
    }
}

/// One thing the reference decoder produced.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Event {
    Char(char),
    /// An error: the malformed bytes (consumed for it, not restored, not held by the handler
    /// as the start of the next sequence), the stream offset of the first of them, and the
    /// stream position after the error (bytes consumed and not restored, pending included).
    Error {
        bytes: Vec<u8>,
        offset: usize,
        position: usize,
    },
}

/// *Process a queue* with a new decoder for `encoding` over `input` (no BOM handling),
/// recording every code point and every error. In "replacement" mode each error is a U+FFFD;
/// in "fatal" mode processing stops at the first error, and resuming with the same decoder
/// and queue (as `TextDecoder` does when streaming) continues with the next events.
pub(crate) fn decode_events(encoding: Encoding, input: &[u8]) -> Vec<Event> {
    let mut decoder = RefDecoder::new(encoding);
    let mut queue = IoQueue::new(input);
    let mut events = Vec::new();
    // The stream bytes of the sequence in progress.
    let mut seq: Vec<u8> = Vec::new();
    loop {
        let before = queue.len();
        let item = queue.read();
        if let Some(b) = item {
            seq.push(b);
        }
        let result = decoder.handle(&mut queue, item);
        // Whatever was restored is a suffix of the sequence's bytes.
        let restored = queue.len() + usize::from(item.is_some()) - before;
        assert!(restored <= seq.len());
        assert_eq!(queue.front(restored), seq[seq.len() - restored..]);
        seq.truncate(seq.len() - restored);
        let position = input.len() - queue.len();
        match result {
            DecResult::Finished => return events,
            DecResult::One(c) => {
                assert_eq!(decoder.pending(), 0);
                events.push(Event::Char(c));
                seq.clear();
            }
            DecResult::Two(a, b) => {
                assert_eq!(decoder.pending(), 0);
                events.push(Event::Char(a));
                events.push(Event::Char(b));
                seq.clear();
            }
            DecResult::Error => {
                let held = decoder.pending();
                let bad = seq.len() - held;
                events.push(Event::Error {
                    bytes: seq[..bad].to_vec(),
                    offset: position - seq.len(),
                    position,
                });
                seq.drain(..bad);
            }
            DecResult::Continue => {
                if decoder.pending() == 0 {
                    seq.clear();
                }
            }
        }
    }
}

/// The output of *process a queue* in "replacement" mode.
pub(crate) fn decode_replacement(encoding: Encoding, input: &[u8]) -> std::string::String {
    decode_events(encoding, input)
        .iter()
        .map(|e| match e {
            Event::Char(c) => *c,
            Event::Error { .. } => '\u{FFFD}',
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Encoders
// ---------------------------------------------------------------------------------------

/// ISO-2022-JP encoder states.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum JpEncState {
    Ascii,
    Roman,
    Jis0208,
}

/// Every encoder's state. UTF-16BE/LE have no encoder in the Standard; the variant is
/// textcodec's extension (each code unit's bytes, in order).
#[derive(Clone, Debug)]
pub(crate) enum RefEncoder {
    Utf8,
    SingleByte(Encoding),
    Gb18030 { is_gbk: bool },
    Big5,
    EucJp,
    Iso2022Jp(JpEncState),
    ShiftJis,
    EucKr,
    Utf16 { be: bool },
    XUserDefined,
}

const GB18030_SIDE_TABLE: [(u32, [u8; 2]); 18] = [
    (0xE78D, [0xA6, 0xD9]),
    (0xE78E, [0xA6, 0xDA]),
    (0xE78F, [0xA6, 0xDB]),
    (0xE790, [0xA6, 0xDC]),
    (0xE791, [0xA6, 0xDD]),
    (0xE792, [0xA6, 0xDE]),
    (0xE793, [0xA6, 0xDF]),
    (0xE794, [0xA6, 0xEC]),
    (0xE795, [0xA6, 0xED]),
    (0xE796, [0xA6, 0xF3]),
    (0xE81E, [0xFE, 0x59]),
    (0xE826, [0xFE, 0x61]),
    (0xE82B, [0xFE, 0x66]),
    (0xE82C, [0xFE, 0x67]),
    (0xE832, [0xFE, 0x6D]),
    (0xE843, [0xFE, 0x7E]),
    (0xE854, [0xFE, 0x90]),
    (0xE864, [0xFE, 0xA0]),
];

/// The gb18030 encoder's side table (#gb18030-encoder step 5), for tests.
pub(crate) fn gb18030_side_table() -> &'static [(u32, [u8; 2])] {
    &GB18030_SIDE_TABLE
}

impl RefEncoder {
    /// `None` for replacement (no encoder).
    pub(crate) fn new(encoding: Encoding) -> Option<RefEncoder> {
        use Encoding::*;
        Some(match encoding {
            Utf8 => RefEncoder::Utf8,
            Gbk => RefEncoder::Gb18030 { is_gbk: true },
            Gb18030 => RefEncoder::Gb18030 { is_gbk: false },
            Big5 => RefEncoder::Big5,
            EucJp => RefEncoder::EucJp,
            Iso2022Jp => RefEncoder::Iso2022Jp(JpEncState::Ascii),
            ShiftJis => RefEncoder::ShiftJis,
            EucKr => RefEncoder::EucKr,
            Utf16Be => RefEncoder::Utf16 { be: true },
            Utf16Le => RefEncoder::Utf16 { be: false },
            XUserDefined => RefEncoder::XUserDefined,
            Replacement => return None,
            e => RefEncoder::SingleByte(e),
        })
    }

    /// The encoder's handler, given `q` and `code_point` (`None` = end-of-queue).
    pub(crate) fn handle(&mut self, q: &mut IoQueue<char>, item: Option<char>) -> EncResult {
        use EncResult::*;
        let Some(c) = item else {
            if let RefEncoder::Iso2022Jp(state) = self {
                // #iso-2022-jp-encoder steps 1–2.
                if *state != JpEncState::Ascii {
                    *state = JpEncState::Ascii;
                    return Bytes(vec![0x1B, 0x28, 0x42]);
                }
            }
            return Finished;
        };
        let mut code_point = u32::from(c);
        match self {
            // #utf-8-encoder
            RefEncoder::Utf8 => {
                if code_point < 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                let (count, offset) = match code_point {
                    0x80..=0x7FF => (1, 0xC0),
                    0x800..=0xFFFF => (2, 0xE0),
                    _ => (3, 0xF0),
                };
                let mut bytes = vec![((code_point >> (6 * count)) + offset) as u8];
                let mut count = count;
                while count > 0 {
                    let temp = code_point >> (6 * (count - 1));
                    bytes.push((0x80 | (temp & 0x3F)) as u8);
                    count -= 1;
                }
                Bytes(bytes)
            }
            // #single-byte-encoder
            RefEncoder::SingleByte(encoding) => {
                if code_point < 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                match single_byte_pointer(*encoding, code_point) {
                    None => Error(code_point),
                    Some(p) => Bytes(vec![(p + 0x80) as u8]),
                }
            }
            // #gb18030-encoder
            RefEncoder::Gb18030 { is_gbk } => {
                if code_point < 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                if code_point == 0xE5E5 {
                    return Error(code_point);
                }
                if *is_gbk && code_point == 0x20AC {
                    return Bytes(vec![0x80]);
                }
                if let Some((_, bytes)) = GB18030_SIDE_TABLE.iter().find(|r| r.0 == code_point) {
                    return Bytes(bytes.to_vec());
                }
                if let Some(pointer) = index_pointer(Index::Gb18030, code_point) {
                    let leading = pointer / 190 + 0x81;
                    let trailing = pointer % 190;
                    let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
                    return Bytes(vec![leading as u8, (trailing + offset) as u8]);
                }
                if *is_gbk {
                    return Error(code_point);
                }
                let mut pointer = gb18030_ranges_pointer(code_point);
                let byte1 = pointer / (10 * 126 * 10);
                pointer %= 10 * 126 * 10;
                let byte2 = pointer / (10 * 126);
                pointer %= 10 * 126;
                let byte3 = pointer / 10;
                let byte4 = pointer % 10;
                Bytes(vec![
                    (byte1 + 0x81) as u8,
                    (byte2 + 0x30) as u8,
                    (byte3 + 0x81) as u8,
                    (byte4 + 0x30) as u8,
                ])
            }
            // #big5-encoder
            RefEncoder::Big5 => {
                if code_point < 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                let Some(pointer) = index_pointer(Index::Big5, code_point) else {
                    return Error(code_point);
                };
                let leading = pointer / 157 + 0x81;
                let trailing = pointer % 157;
                let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
                Bytes(vec![leading as u8, (trailing + offset) as u8])
            }
            // #euc-jp-encoder
            RefEncoder::EucJp => {
                if code_point < 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                if code_point == 0xA5 {
                    return Bytes(vec![0x5C]);
                }
                if code_point == 0x203E {
                    return Bytes(vec![0x7E]);
                }
                if (0xFF61..=0xFF9F).contains(&code_point) {
                    return Bytes(vec![0x8E, (code_point - 0xFF61 + 0xA1) as u8]);
                }
                if code_point == 0x2212 {
                    code_point = 0xFF0D;
                }
                let Some(pointer) = index_pointer(Index::Jis0208, code_point) else {
                    return Error(code_point);
                };
                Bytes(vec![
                    (pointer / 94 + 0xA1) as u8,
                    (pointer % 94 + 0xA1) as u8,
                ])
            }
            // #iso-2022-jp-encoder
            RefEncoder::Iso2022Jp(state) => {
                // 3.
                if matches!(*state, JpEncState::Ascii | JpEncState::Roman)
                    && matches!(code_point, 0x0E | 0x0F | 0x1B)
                {
                    return Error(0xFFFD);
                }
                let ascii = code_point < 0x80;
                // 4.
                if *state == JpEncState::Ascii && ascii {
                    return Bytes(vec![code_point as u8]);
                }
                // 5.
                if *state == JpEncState::Roman
                    && ((ascii && code_point != 0x5C && code_point != 0x7E)
                        || code_point == 0xA5
                        || code_point == 0x203E)
                {
                    if ascii {
                        return Bytes(vec![code_point as u8]);
                    }
                    if code_point == 0xA5 {
                        return Bytes(vec![0x5C]);
                    }
                    return Bytes(vec![0x7E]);
                }
                // 6.
                if ascii && *state != JpEncState::Ascii {
                    q.restore(&[c]);
                    *state = JpEncState::Ascii;
                    return Bytes(vec![0x1B, 0x28, 0x42]);
                }
                // 7.
                if (code_point == 0xA5 || code_point == 0x203E) && *state != JpEncState::Roman {
                    q.restore(&[c]);
                    *state = JpEncState::Roman;
                    return Bytes(vec![0x1B, 0x28, 0x4A]);
                }
                // 8.
                if code_point == 0x2212 {
                    code_point = 0xFF0D;
                }
                // 9.
                if (0xFF61..=0xFF9F).contains(&code_point) {
                    code_point = katakana((code_point - 0xFF61) as usize)
                        .expect("index ISO-2022-JP katakana covers U+FF61..U+FF9F");
                }
                // 10.
                let pointer = index_pointer(Index::Jis0208, code_point);
                // 11.
                let Some(pointer) = pointer else {
                    if *state == JpEncState::Jis0208 {
                        q.restore(&[cp(code_point)]);
                        *state = JpEncState::Ascii;
                        return Bytes(vec![0x1B, 0x28, 0x42]);
                    }
                    return Error(code_point);
                };
                // 12.
                if *state != JpEncState::Jis0208 {
                    q.restore(&[cp(code_point)]);
                    *state = JpEncState::Jis0208;
                    return Bytes(vec![0x1B, 0x24, 0x42]);
                }
                // 13–15.
                Bytes(vec![
                    (pointer / 94 + 0x21) as u8,
                    (pointer % 94 + 0x21) as u8,
                ])
            }
            // #shift_jis-encoder
            RefEncoder::ShiftJis => {
                if code_point <= 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                if code_point == 0xA5 {
                    return Bytes(vec![0x5C]);
                }
                if code_point == 0x203E {
                    return Bytes(vec![0x7E]);
                }
                if (0xFF61..=0xFF9F).contains(&code_point) {
                    return Bytes(vec![(code_point - 0xFF61 + 0xA1) as u8]);
                }
                if code_point == 0x2212 {
                    code_point = 0xFF0D;
                }
                let Some(pointer) = index_pointer(Index::ShiftJis, code_point) else {
                    return Error(code_point);
                };
                let leading = pointer / 188;
                let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
                let trailing = pointer % 188;
                let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
                Bytes(vec![
                    (leading + leading_offset) as u8,
                    (trailing + offset) as u8,
                ])
            }
            // #euc-kr-encoder
            RefEncoder::EucKr => {
                if code_point < 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                let Some(pointer) = index_pointer(Index::EucKr, code_point) else {
                    return Error(code_point);
                };
                Bytes(vec![
                    (pointer / 190 + 0x81) as u8,
                    (pointer % 190 + 0x41) as u8,
                ])
            }
            RefEncoder::Utf16 { be } => {
                let mut units = [0u16; 2];
                let mut out = Vec::new();
                for u in c.encode_utf16(&mut units) {
                    if *be {
                        out.extend_from_slice(&u.to_be_bytes());
                    } else {
                        out.extend_from_slice(&u.to_le_bytes());
                    }
                }
                Bytes(out)
            }
            // #x-user-defined-encoder
            RefEncoder::XUserDefined => {
                if code_point < 0x80 {
                    return Bytes(vec![code_point as u8]);
                }
                if (0xF780..=0xF7FF).contains(&code_point) {
                    return Bytes(vec![(code_point - 0xF780 + 0x80) as u8]);
                }
                Error(code_point)
            }
        }
    }
}

/// What the reference encoder produced: bytes, and an error (with its code point) after
/// each run of bytes it ends.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum EncEvent {
    Bytes(Vec<u8>),
    Error(u32),
}

/// *Process a queue* with a new encoder over `text`, recording bytes and errors (fatal
/// mode, resumed after each error with the same encoder and queue, as *encode or fail*'s
/// callers do). `None` for replacement.
pub(crate) fn encode_events(encoding: Encoding, text: &[char]) -> Option<Vec<EncEvent>> {
    let mut encoder = RefEncoder::new(encoding)?;
    let mut queue = IoQueue::new(text);
    let mut events = Vec::new();
    loop {
        let item = queue.read();
        match encoder.handle(&mut queue, item) {
            EncResult::Finished => return Some(events),
            EncResult::Bytes(b) => events.push(EncEvent::Bytes(b)),
            EncResult::Error(c) => events.push(EncEvent::Error(c)),
        }
    }
}

/// The output of *encode* (html mode) with `encoding`'s encoder.
pub(crate) fn encode_html(encoding: Encoding, text: &[char]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for event in encode_events(encoding, text)? {
        match event {
            EncEvent::Bytes(b) => out.extend_from_slice(&b),
            EncEvent::Error(c) => out.extend_from_slice(std::format!("&#{c};").as_bytes()),
        }
    }
    Some(out)
}

/// The bytes for one scalar value from a fresh encoder (ISO-2022-JP: with its escapes and
/// the return to ASCII at end-of-queue), or the error's code point.
pub(crate) fn encode_one(encoding: Encoding, c: char) -> Result<Vec<u8>, u32> {
    let events = encode_events(encoding, &[c]).expect("encoder");
    let mut out = Vec::new();
    for event in events {
        match event {
            EncEvent::Bytes(b) => out.extend_from_slice(&b),
            EncEvent::Error(c) => return Err(c),
        }
    }
    Ok(out)
}
