//! The `short` section: one-shot conversions of short inputs (8 to 256 bytes), where the
//! fixed costs (dispatch to a kernel level, set-up, allocation) are what is measured, in ns
//! per call against encoding_rs.

use super::*;

/// Lengths of the inputs, in bytes of the encoded text (cut back to a character boundary).
const LENGTHS: [usize; 4] = [8, 24, 64, 256];

/// The encodings timed: one per family.
const ENCODINGS: [(Encoding, &str); 7] = [
    (Encoding::Utf8, "ru.po"),
    (Encoding::Utf8, "en.po"),
    (Encoding::Windows1252, "fr.po"),
    (Encoding::Windows1251, "ru.po"),
    (Encoding::Utf16Le, "ja.po"),
    (Encoding::ShiftJis, "ja.po"),
    (Encoding::Gbk, "zh_Hans.po"),
];

pub(crate) fn bench_short(cases: &[Case], timing: Timing, out: &mut String) {
    let _ = writeln!(out, "\n## Short inputs (ns per call, one-shot)\n");
    let _ = writeln!(
        out,
        "Decode: `decode_without_bom` against encoding_rs's `decode_without_bom_handling`; \
         encode: the Standard's *encode* hook (`textcodec::encode`, HTML errors, borrowing UTF-8) against `Encoding::encode`. \
         Inputs: the first N bytes of the text, cut back to a character boundary.\n"
    );
    let _ = writeln!(
        out,
        "| input | encoding | bytes | decode textcodec | encoding_rs | ratio | encode textcodec | encoding_rs | ratio |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (encoding, input) in ENCODINGS {
        let Some(case) = cases
            .iter()
            .find(|c| c.encoding == encoding && c.input == input)
        else {
            continue;
        };
        for len in LENGTHS {
            // The longest prefix of the text whose encoding fits in `len` bytes.
            let mut end = 0;
            let mut encoded = Vec::new();
            for (i, c) in case.text.char_indices() {
                let next = i + c.len_utf8();
                let (bytes, _) = encode_html(&case.text[..next], encoding);
                if bytes.len() > len {
                    break;
                }
                end = next;
                encoded = bytes;
            }
            let text = &case.text[..end];
            let peer = ers(encoding);
            let decode_tc = measure_ns(
                || {
                    textcodec::decode_without_bom(encoding, black_box(&encoded))
                        .0
                        .len()
                },
                timing,
            );
            let decode_ers = measure_ns(
                || {
                    peer.decode_without_bom_handling(black_box(&encoded))
                        .0
                        .len()
                },
                timing,
            );
            // UTF-16 has no encoder in the Standard (its output encoding is UTF-8).
            let (encode_tc, encode_ers) = if matches!(encoding, Encoding::Utf16Le) {
                (f64::NAN, f64::NAN)
            } else {
                let tc = measure_ns(
                    || textcodec::encode(black_box(text), encoding).0.len(),
                    timing,
                );
                let rs = measure_ns(|| peer.encode(black_box(text)).0.len(), timing);
                (tc, rs)
            };
            let _ = writeln!(
                out,
                "| {input} | {} | {} | {decode_tc:.0} | {decode_ers:.0} | {} | {encode_tc:.0} | {encode_ers:.0} | {} |",
                encoding.name(),
                encoded.len(),
                fmt_ratio(decode_ers / decode_tc, None),
                fmt_ratio(encode_ers / encode_tc, None),
            );
        }
    }
}
