//! Label lookup (#concept-encoding-get) on arbitrary strings agrees with a naive model:
//! remove leading and trailing ASCII whitespace, ASCII-lowercase, then a linear search over
//! `Encoding::labels()`. Also `for_label_str`, the `TextDecoder` constructor (RangeError
//! for failure and for replacement, #dom-textdecoder) and every encoding's own labels.
//!
//! Input: first byte even → the rest is the label as is; odd → a real label picked by the
//! second byte, then mutated (case flips, whitespace and other padding, one byte changed)
//! as the remaining bytes say, so near-misses are explored too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use textcodec::api::{ApiError, TextDecoder, TextDecoderOptions};
use textcodec::Encoding;

/// ASCII whitespace: U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020 SPACE (Infra).
fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

fn model(label: &[u8]) -> Option<Encoding> {
    let start = label.iter().position(|&b| !is_ascii_whitespace(b));
    let trimmed = match start {
        None => &[][..],
        Some(s) => {
            let end = label
                .iter()
                .rposition(|&b| !is_ascii_whitespace(b))
                .unwrap_or(s);
            &label[s..=end]
        }
    };
    let lower: Vec<u8> = trimmed.iter().map(u8::to_ascii_lowercase).collect();
    Encoding::labels()
        .iter()
        .find(|(l, _)| l.as_bytes() == lower.as_slice())
        .map(|&(_, e)| e)
}

fn structured(data: &[u8]) -> Vec<u8> {
    let [pick, ops @ ..] = data else {
        return Vec::new();
    };
    let labels = Encoding::labels();
    let (label, _) = labels[usize::from(*pick) % labels.len()];
    let mut v = label.as_bytes().to_vec();
    for op in ops.chunks(2) {
        let (a, b) = (op[0], op.get(1).copied().unwrap_or(0));
        match a % 6 {
            0 => {
                // Flip the case of one byte (the Kelvin sign and friends are not ASCII).
                if !v.is_empty() {
                    let i = usize::from(b) % v.len();
                    v[i] ^= 0x20;
                }
            }
            1 => v.insert(
                0,
                [b'\t', b'\n', b'\x0C', b'\r', b' ', 0x0B, 0xA0, 0][usize::from(b) % 8],
            ),
            2 => v.push([b'\t', b'\n', b'\x0C', b'\r', b' ', 0x0B, 0xA0, 0][usize::from(b) % 8]),
            3 => {
                if !v.is_empty() {
                    let i = usize::from(b) % v.len();
                    v[i] = a;
                }
            }
            4 => {
                if !v.is_empty() {
                    v.remove(usize::from(b) % v.len());
                }
            }
            _ => v.extend_from_slice("\u{212A}".as_bytes()),
        }
    }
    v
}

fuzz_target!(|data: &[u8]| {
    let [kind, rest @ ..] = data else {
        return;
    };
    let label = if kind & 1 == 0 {
        rest.to_vec()
    } else {
        structured(rest)
    };
    let want = model(&label);
    assert_eq!(Encoding::for_label(&label), want, "{label:02X?}");
    if let Ok(s) = std::str::from_utf8(&label) {
        assert_eq!(Encoding::for_label_str(s), want);
        match TextDecoder::new(s, TextDecoderOptions::default()) {
            Ok(d) => {
                let e = want.expect("constructed for a non-label");
                assert_ne!(e, Encoding::Replacement);
                assert_eq!(d.encoding(), e.lowercase_name());
            }
            Err(err) => {
                assert_eq!(err, ApiError::RangeError);
                assert!(matches!(want, None | Some(Encoding::Replacement)));
            }
        }
    }
    if let Some(e) = want {
        assert!(e
            .own_labels()
            .any(|l| l.as_bytes().eq_ignore_ascii_case(label.trim_ascii())));
    }
});
