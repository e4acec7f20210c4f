//! The one-shot encode fast path of the stateless double-byte encoders (Shift_JIS, EUC-JP,
//! GBK, gb18030, Big5, EUC-KR) for UTF-16 input: one load per code unit from a table
//! (code unit → the bytes), which the library's own encoder fills as characters are first
//! met, so it holds exactly what the library writes.
//!
//! The library's loop pays per character for the two-level encode-table lookup, the
//! pointer's division into lead and trail, and the error-mode machinery; Node's profile of
//! `encode()` on 4 MB of Japanese put 85 % of the core's time there. Here a character the
//! table has costs one load and a two-byte store. Everything else — lone surrogates and
//! pairs, characters the encoding lacks (with the call's error mode), gb18030's four-byte
//! sequences — goes to the library one character at a time.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::UnsafeCell;

use textcodec::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};

use crate::encode::{finish, through_library, units_of_char};
use crate::Global;

/// A table entry not yet filled.
const UNKNOWN: u16 = 0;
/// A code unit the table does not answer: the library encodes it. No double-byte
/// encoding's lead byte is 0xFF, so no two-byte answer is this.
const LIBRARY: u16 = 0xFFFF;

/// Per encoding: the table (`UNKNOWN`, `LIBRARY`, a byte below 0x100 or two bytes, lead
/// first: every lead byte is at least 0x81) and the fatal-mode encoder that fills it.
struct Table {
    encoding: Encoding,
    entries: Box<[u16]>,
    filler: Encoder,
}

static TABLES: Global<Vec<Table>> = Global(UnsafeCell::new(Vec::new()));

fn table(e: Encoding) -> Option<&'static mut Table> {
    if !matches!(
        e,
        Encoding::ShiftJis
            | Encoding::EucJp
            | Encoding::Gbk
            | Encoding::Gb18030
            | Encoding::Big5
            | Encoding::EucKr
    ) {
        return None;
    }
    // SAFETY: the only reference in this call: the callers hold none across it.
    let tables = unsafe { TABLES.get() };
    let i = match tables.iter().position(|t| t.encoding == e) {
        Some(i) => i,
        None => {
            let mut entries = vec![UNKNOWN; 0x10000].into_boxed_slice();
            // Surrogates: the library pairs them or makes them U+FFFD.
            entries
                .get_mut(0xD800..0xE000)?
                .iter_mut()
                .for_each(|x| *x = LIBRARY);
            tables.push(Table {
                encoding: e,
                entries,
                filler: Encoder::new(e, EncodeErrorMode::Fatal)?,
            });
            tables.len() - 1
        }
    };
    tables.get_mut(i)
}

impl Table {
    /// The entry of non-ASCII, non-surrogate `unit`, filled by the library's encoder on
    /// first use: its bytes when it writes one or two, else `LIBRARY`.
    #[cold]
    fn fill(&mut self, unit: u16) -> u16 {
        let mut bytes = [0u8; 8];
        let r = self.filler.encode_from_utf16(&[unit], &mut bytes, true);
        self.filler.reset();
        let entry = match (r.status, r.written, bytes) {
            (EncodeStatus::InputEmpty, 1, [b, ..]) if b != 0 => u16::from(b),
            (EncodeStatus::InputEmpty, 2, [lead, trail, ..]) if lead >= 0x81 && lead != 0xFF => {
                u16::from_be_bytes([lead, trail])
            }
            _ => LIBRARY,
        };
        if let Some(slot) = self.entries.get_mut(usize::from(unit)) {
            *slot = entry;
        }
        entry
    }
}

/// Encodes all of `src` with `encoder` (fresh: a one-shot call) into `out`, if its encoding
/// has a table; `Some(status)` as `run_encoder` returns it.
pub(crate) fn try_encode(encoder: &mut Encoder, src: &[u16], out: &mut Vec<u8>) -> Option<u32> {
    let table = table(encoder.encoding())?;
    out.clear();
    // Two bytes a unit at most on the table's path; the library's characters may write
    // more (`&#…;`), and make room for themselves.
    out.resize(src.len().saturating_mul(2), 0);
    let mut o = 0;
    let mut i = 0;
    while let Some(&unit) = src.get(i) {
        let entry = if unit < 0x80 {
            unit
        } else {
            match table.entries.get(usize::from(unit)).copied() {
                Some(UNKNOWN) => table.fill(unit),
                Some(entry) => entry,
                None => LIBRARY,
            }
        };
        if entry != LIBRARY {
            if entry < 0x100 {
                *out.get_mut(o)? = entry as u8;
                o += 1;
            } else {
                out.get_mut(o..o + 2)?.copy_from_slice(&entry.to_be_bytes());
                o += 2;
            }
            i += 1;
            continue;
        }
        // One character through the library: a surrogate pair whole.
        let n = units_of_char(src, i);
        let run =
            |e: &mut Encoder, units: &[u16], dst: &mut [u8]| e.encode_from_utf16(units, dst, true);
        match through_library(encoder, src, (i, o), n, 2, out, run) {
            Ok(next) => (i, o) = next,
            Err(status) => return status,
        }
    }
    finish(out, o, src.len())
}
