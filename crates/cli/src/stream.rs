//! The decoding half of every command: read an input in chunks, decode it with the
//! library's streaming [`Decoder`] (state carried across chunks, so sequences may be split
//! at any read boundary), and hand the text and each malformed sequence to the caller.
//!
//! The decoder starts in fatal mode so an error comes with its position; the caller
//! decides to stop, to skip it (validation reports every error), or to go on with U+FFFD —
//! then the decoder switches to replacement mode for the rest of the input, which gives
//! exactly the replacement mode's output (the library resumes right after the malformed
//! bytes) without a return per error.

use std::fs::File;

use textcodec::{BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, Encoding};

use crate::failure::Failure;
use crate::input::read_some;
use crate::position::Tracker;
use crate::progress::Progress;

/// A decoder for `encoding`, fatal, with or without the *decode* hook's BOM sniffing.
pub fn decoder_for(encoding: Encoding, bom_sniff: bool) -> Decoder {
    let bom = if bom_sniff {
        BomHandling::Sniff
    } else {
        BomHandling::Keep
    };
    fatal_decoder(encoding, bom)
}

/// A fatal decoder with the given BOM handling.
pub fn fatal_decoder(encoding: Encoding, bom: BomHandling) -> Decoder {
    Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Fatal,
            bom,
        },
    )
}

/// The buffers, allocated once per command.
pub struct Buffers {
    read: Vec<u8>,
    text: String,
}

impl Buffers {
    /// Buffers for reads of `read_size` bytes. The text buffer is twice as large (less
    /// in test mode so that "output full" paths are exercised too).
    pub fn new(read_size: usize) -> Buffers {
        let text_size = if read_size >= 4096 {
            read_size * 2
        } else {
            read_size.max(16)
        };
        Buffers {
            read: vec![0; read_size],
            text: String::from_utf8(vec![0; text_size]).unwrap_or_default(),
        }
    }
}

/// A malformed byte sequence with its context.
#[derive(Clone, Debug)]
pub struct Malformed {
    /// The encoding being decoded (after BOM sniffing).
    pub encoding: Encoding,
    /// Offset of the first malformed byte in the input (a BOM counts).
    pub offset: u64,
    bytes: [u8; 8],
    len: usize,
    /// The byte right after the malformed bytes, when there is one and it is known.
    pub next: Option<u8>,
    /// The malformed bytes run to the end of the input (a truncated sequence).
    pub at_end: bool,
    /// 1-based line of the error (decoded line feeds before it, plus 1).
    pub line: u64,
}

impl Malformed {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The bytes as hex, space-separated (`82 A0`).
    pub fn hex(&self) -> String {
        hex(self.bytes())
    }

    /// "byte 10482 (line 311)".
    pub fn location(&self) -> String {
        format!("byte {} (line {})", self.offset, self.line)
    }

    /// "invalid Shift_JIS byte sequence 82 (followed by 22)".
    pub fn describe(&self) -> String {
        let name = self.encoding.name();
        if self.at_end {
            if self.len == 0 {
                return format!("{name} input ends in the middle of a sequence");
            }
            return format!(
                "incomplete {name} byte sequence {} at end of input",
                self.hex()
            );
        }
        let mut s = format!("invalid {name} byte sequence {}", self.hex());
        if let Some(b) = self.next {
            s.push_str(&format!(" (followed by {b:02X})"));
        }
        s
    }

    /// "incomplete" or "invalid", for JSON.
    pub fn kind(&self) -> &'static str {
        if self.at_end {
            "incomplete"
        } else {
            "invalid"
        }
    }
}

pub fn hex(bytes: &[u8]) -> String {
    let parts: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    parts.join(" ")
}

/// What to do after a malformed sequence.
pub enum Resume {
    /// Emit U+FFFD (to `on_text`, flagged as a replacement) and let the decoder replace
    /// every later error of this input itself (replacement mode: no return per error, so
    /// all-invalid input decodes at full speed); [`Decoded::replaced_silently`] counts them.
    ReplaceRest,
    /// Go on without emitting anything (validation).
    Skip,
}

/// The last bytes read before the current chunk, to show context for errors whose bytes
/// straddle reads.
struct History {
    bytes: [u8; 16],
    len: usize,
}

impl History {
    fn push(&mut self, chunk: &[u8]) {
        if chunk.len() >= self.bytes.len() {
            let size = self.bytes.len();
            self.bytes.copy_from_slice(&chunk[chunk.len() - size..]);
            self.len = size;
        } else {
            let keep = (self.bytes.len() - chunk.len()).min(self.len);
            let from = self.len - keep;
            self.bytes.copy_within(from..self.len, 0);
            self.bytes[keep..keep + chunk.len()].copy_from_slice(chunk);
            self.len = keep + chunk.len();
        }
    }
}

/// One input's decoding: everything the callbacks need to know.
pub struct DecodeRun<'a> {
    /// Bytes already read from the start of `file` (a sniffed prefix): decoded first.
    pub prefix: &'a [u8],
    pub file: &'a mut File,
    pub name: &'a str,
    pub decoder: &'a mut Decoder,
    pub tracker: &'a mut Tracker,
    pub progress: &'a mut Progress,
}

/// What decoding one input found.
pub struct Decoded {
    /// Bytes read.
    pub bytes: u64,
    /// The encoding used: `--from`'s, or the one a BOM selected.
    pub encoding: Encoding,
    /// Malformed sequences replaced by the decoder after [`Resume::ReplaceRest`] (not
    /// reported to [`TextSink::malformed`]).
    pub replaced_silently: u64,
}

/// What receives the decoded text and the errors of one input.
pub trait TextSink {
    /// Text in order; `at`: the position of its first character; `replacement`: the text
    /// is a U+FFFD written for a malformed sequence.
    fn text(&mut self, text: &str, at: &Tracker, replacement: bool) -> Result<(), Failure>;
    /// A malformed sequence: stop (an error) or go on.
    fn malformed(&mut self, malformed: &Malformed) -> Result<Resume, Failure>;
    /// One read's worth of input has been decoded (flush output here).
    fn chunk_done(&mut self) -> Result<(), Failure> {
        Ok(())
    }
}

/// Decodes the whole input into `sink`.
pub fn decode_input(
    run: DecodeRun<'_>,
    buffers: &mut Buffers,
    sink: &mut impl TextSink,
) -> Result<Decoded, Failure> {
    let DecodeRun {
        prefix,
        file,
        name,
        decoder,
        tracker,
        progress,
    } = run;
    let Buffers { read, text } = buffers;
    let replacements_before = decoder.replacements();
    let mut chunk_start: u64 = 0;
    let mut prefix_used = 0;
    let mut used = decoder.encoding();
    let mut history = History {
        bytes: [0; 16],
        len: 0,
    };
    loop {
        let n = if prefix_used < prefix.len() {
            let n = (prefix.len() - prefix_used).min(read.len());
            read[..n].copy_from_slice(&prefix[prefix_used..prefix_used + n]);
            prefix_used += n;
            n
        } else {
            read_some(file, read, name)?
        };
        let last = n == 0;
        let chunk = &read[..n];
        let mut consumed = 0;
        loop {
            let r = decoder.decode_to_str(&chunk[consumed..], text.as_mut_str(), last);
            consumed += r.read;
            if !(last && r.status == DecodeStatus::InputEmpty) {
                // (After the last call the decoder has reset to the --from encoding.)
                used = decoder.encoding();
            }
            let decoded = &text[..r.written];
            if !decoded.is_empty() {
                sink.text(decoded, tracker, false)?;
                tracker.advance(decoded);
            }
            match r.status {
                DecodeStatus::InputEmpty => break,
                DecodeStatus::OutputFull => continue,
                DecodeStatus::Malformed(m) => {
                    let bytes = m.bytes();
                    let mut fixed = [0u8; 8];
                    fixed[..bytes.len()].copy_from_slice(bytes);
                    let after = m.offset() + bytes.len() as u64;
                    let end = chunk_start + n as u64;
                    let next = if after >= end {
                        None
                    } else if after >= chunk_start {
                        Some(chunk[(after - chunk_start) as usize])
                    } else {
                        let back = (chunk_start - after) as usize;
                        (back <= history.len).then(|| history.bytes[history.len - back])
                    };
                    let malformed = Malformed {
                        encoding: decoder.encoding(),
                        offset: m.offset(),
                        bytes: fixed,
                        len: bytes.len(),
                        next,
                        at_end: last && after >= end,
                        line: tracker.line(),
                    };
                    match sink.malformed(&malformed)? {
                        Resume::ReplaceRest => {
                            sink.text("\u{FFFD}", tracker, true)?;
                            tracker.advance("\u{FFFD}");
                            decoder.set_error_mode(DecodeErrorMode::Replacement);
                        }
                        Resume::Skip => {}
                    }
                }
            }
        }
        sink.chunk_done()?;
        progress.advance(n as u64);
        history.push(chunk);
        chunk_start += n as u64;
        if last {
            let replaced_silently = decoder.replacements() - replacements_before;
            // The next input starts fatal again, to report its first error.
            decoder.set_error_mode(DecodeErrorMode::Fatal);
            return Ok(Decoded {
                bytes: chunk_start,
                encoding: used,
                replaced_silently,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_keeps_the_last_16_bytes() {
        let mut h = History {
            bytes: [0; 16],
            len: 0,
        };
        h.push(b"abc");
        h.push(b"de");
        assert_eq!(&h.bytes[..h.len], b"abcde");
        h.push(b"0123456789ABCDEF_");
        assert_eq!(&h.bytes[..h.len], b"123456789ABCDEF_");
        h.push(b"xy");
        assert_eq!(&h.bytes[..h.len], b"3456789ABCDEF_xy");
    }
}
