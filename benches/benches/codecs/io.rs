//! The `io` section: the streaming adapters (`textcodec::io`, `textcodec::tokio`) over an
//! in-memory source against the one-shot conversion of the same input, ≥ 1 MB per input.

use std::io::{Read, Write};

use super::*;

/// Each input repeated to at least this many bytes (the targets are for ≥ 1 MB).
const MIN_BYTES: usize = 2 << 20;

fn grown(bytes: &[u8], text: &str) -> (Vec<u8>, String) {
    let times = MIN_BYTES / bytes.len().max(1) + 1;
    (bytes.repeat(times), text.repeat(times))
}

/// One row: the adapter's MB/s, the one-shot conversion's, and their ratio.
fn row(out: &mut String, op: &str, e: Encoding, input: &str, r: &[f64]) {
    let _ = writeln!(
        out,
        "| {op} | {} | {input} | {} | {} | {} |",
        e.name(),
        fmt_rate(r[0]),
        fmt_rate(r[1]),
        fmt_ratio(r[0] / r[1], Some(0.9)),
    );
}

pub(crate) fn bench_io(cases: &[Case], timing: Timing, out: &mut String) {
    const PICKS: &[(&str, &str, &str)] = &[
        // (source encoding, input, transcode target)
        ("Shift_JIS", "ja.text", "UTF-8"),
        ("ISO-2022-JP", "ja.text", "UTF-8"),
        ("gb18030", "zh_Hans.text", "UTF-8"),
        ("EUC-KR", "ko.text", "UTF-8"),
        ("windows-1251", "ru.text", "UTF-8"),
        ("windows-1252", "fr.po", "UTF-8"),
        ("UTF-16LE", "ru.text", "UTF-8"),
        ("UTF-8", "ja.text", "Shift_JIS"),
        ("UTF-8", "fr.po", "windows-1252"),
        ("UTF-8", "en.text", "windows-1252"),
    ];
    let rt = &tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let _ = writeln!(out, "\n## Streaming adapters against one-shot conversion\n");
    let _ = writeln!(
        out,
        "MB/s of input, inputs repeated to ≥ {} MiB, read from memory. \"one-shot\": \
         `decode_to_string` / `encode_from_utf8_to_vec` of the whole input into a cleared, \
         reused `String`/`Vec` (transcode: both in turn). Adapters: `io::DecodeReader::\
         read_to_string`, `io::DecodeReader` read in 8 KiB pieces (`read`), the same two \
         through `io::DecodeBufReader` (the slice as its `BufRead`), \
         `io::EncodeWriter::write_all` in 64 KiB pieces + `finish`, \
         `io::TranscodeReader::read_to_end`, and the `tokio` twins (`read_to_string`, \
         `write_all` + `shutdown`) on a current-thread runtime. Ratio < 0.90 in bold.\n",
        MIN_BYTES >> 20
    );
    let _ = writeln!(
        out,
        "| operation | encoding | input | adapter MB/s | one-shot MB/s | adapter / one-shot |"
    );
    let _ = writeln!(out, "|---|---|---|--:|--:|--:|");
    for &(name, input, target) in PICKS {
        let Some(case) = cases
            .iter()
            .find(|c| c.encoding.name() == name && c.input == input)
        else {
            continue;
        };
        eprintln!("io {input} {name}");
        let e = case.encoding;
        let (src, text) = grown(&case.bytes, &case.text);
        let (src, text) = (&src[..], &text[..]);
        let to = Encoding::for_label_str(target).expect("target");

        // Decoding.
        let mut s1 = String::new();
        let mut s2 = String::new();
        let mut s3 = String::new();
        let mut s4 = String::new();
        let mut peers = [
            Peer::new("DecodeReader::read_to_string", move || {
                s1.clear();
                let mut r = textcodec::io::DecodeReader::new(black_box(src), decoder(e));
                r.read_to_string(&mut s1).expect("read");
                s1.len()
            }),
            Peer::new("one-shot", move || {
                s2.clear();
                let _ = decoder(e).decode_to_string(black_box(src), &mut s2, true);
                s2.len()
            }),
            Peer::new("tokio read_to_string", move || {
                // The reader's inherent `read_to_string` (not `AsyncReadExt`'s).
                s3.clear();
                let mut r = textcodec::tokio::DecodeReader::new(black_box(src), decoder(e));
                rt.block_on(r.read_to_string(&mut s3)).expect("read");
                s3.len()
            }),
            Peer::new("DecodeBufReader::read_to_string", move || {
                s4.clear();
                let mut r = textcodec::io::DecodeBufReader::new(black_box(src), decoder(e));
                r.read_to_string(&mut s4).expect("read");
                s4.len()
            }),
        ];
        let r = measure(&mut peers, src.len(), timing);
        row(out, "decode, read_to_string", e, input, &r[..2]);
        row(
            out,
            "decode, DecodeBufReader read_to_string",
            e,
            input,
            &[r[3], r[1]],
        );
        row(out, "decode, tokio read_to_string", e, input, &[r[2], r[1]]);
        drop(peers);

        let mut piece = vec![0u8; 8192];
        let mut piece2 = vec![0u8; 8192];
        let mut s2 = String::new();
        let mut peers = [
            Peer::new("DecodeReader::read", move || {
                let mut r = textcodec::io::DecodeReader::new(black_box(src), decoder(e));
                let mut total = 0;
                loop {
                    let n = r.read(&mut piece).expect("read");
                    if n == 0 {
                        break total;
                    }
                    total += n;
                }
            }),
            Peer::new("one-shot", move || {
                s2.clear();
                let _ = decoder(e).decode_to_string(black_box(src), &mut s2, true);
                s2.len()
            }),
            Peer::new("DecodeBufReader::read", move || {
                let mut r = textcodec::io::DecodeBufReader::new(black_box(src), decoder(e));
                let mut total = 0;
                loop {
                    let n = r.read(&mut piece2).expect("read");
                    if n == 0 {
                        break total;
                    }
                    total += n;
                }
            }),
        ];
        let r = measure(&mut peers, src.len(), timing);
        row(out, "decode, read 8 KiB", e, input, &r[..2]);
        row(
            out,
            "decode, DecodeBufReader read 8 KiB",
            e,
            input,
            &[r[2], r[1]],
        );
        drop(peers);

        // Encoding (from the text, into the source encoding), when it has an encoder.
        if !e.is_utf16() && e != Encoding::Utf8 {
            let mut v1 = Vec::new();
            let mut v2 = Vec::new();
            let mut v3 = Vec::new();
            let mut peers = [
                Peer::new("EncodeWriter", move || {
                    v1.clear();
                    let enc = Encoder::new(e, EncodeErrorMode::Html).expect("encoder");
                    let mut w = textcodec::io::EncodeWriter::new(&mut v1, enc);
                    for chunk in black_box(text).as_bytes().chunks(64 << 10) {
                        w.write_all(chunk).expect("write");
                    }
                    w.finish().expect("finish");
                    v1.len()
                }),
                Peer::new("one-shot", move || {
                    v2.clear();
                    let mut enc = Encoder::new(e, EncodeErrorMode::Html).expect("encoder");
                    let _ = enc.encode_from_utf8_to_vec(black_box(text), &mut v2, true);
                    v2.len()
                }),
                Peer::new("tokio EncodeWriter", move || {
                    use tokio::io::AsyncWriteExt;
                    v3.clear();
                    let enc = Encoder::new(e, EncodeErrorMode::Html).expect("encoder");
                    let mut w = textcodec::tokio::EncodeWriter::new(&mut v3, enc);
                    rt.block_on(async {
                        for chunk in black_box(text).as_bytes().chunks(64 << 10) {
                            w.write_all(chunk).await.expect("write");
                        }
                        w.shutdown().await.expect("shutdown");
                    });
                    drop(w);
                    v3.len()
                }),
            ];
            let r = measure(&mut peers, text.len(), timing);
            row(out, "encode, EncodeWriter", e, input, &r[..2]);
            row(out, "encode, tokio EncodeWriter", e, input, &[r[2], r[1]]);
        }

        // Transcoding to `target`.
        let mut v1 = Vec::new();
        let mut s2 = String::new();
        let mut v2 = Vec::new();
        let mut peers = [
            Peer::new("TranscodeReader", move || {
                v1.clear();
                let enc = Encoder::new(to, EncodeErrorMode::Html).expect("encoder");
                let mut r = textcodec::io::TranscodeReader::new(black_box(src), decoder(e), enc);
                r.read_to_end(&mut v1).expect("read");
                v1.len()
            }),
            Peer::new("one-shot", move || {
                s2.clear();
                v2.clear();
                let _ = decoder(e).decode_to_string(black_box(src), &mut s2, true);
                let mut enc = Encoder::new(to, EncodeErrorMode::Html).expect("encoder");
                let _ = enc.encode_from_utf8_to_vec(&s2, &mut v2, true);
                v2.len()
            }),
        ];
        let r = measure(&mut peers, src.len(), timing);
        row(out, &format!("transcode → {target}"), e, input, &r);
    }
}
