//! The `mem` section: `textcodec::mem` against simdutf and `encoding_rs::mem`, function
//! by function, over every UTF-8 text of the corpus (its UTF-16 form for the UTF-16
//! inputs; for Latin-1, the texts at least 95 % Latin-1, with the other characters left
//! out). MB/s of input; simdutf is limited to a level by `SIMDUTF_FORCE_IMPLEMENTATION`.

use super::*;
use textcodec::mem;

/// One function both (or all three) libraries have, timed on one input.
struct MemRow {
    function: &'static str,
    input: String,
    bytes: usize,
    textcodec: f64,
    simdutf: f64,
    encoding_rs: f64,
}

/// What a row's closure set needs: the same input, in each form.
struct Forms {
    text: String,
    utf16: Vec<u16>,
    latin1: Option<Vec<u8>>,
}

fn forms(text: &str) -> Forms {
    let latin1: Vec<u8> = text
        .chars()
        .filter(|&c| c <= '\u{FF}')
        .map(|c| c as u8)
        .collect();
    let share = latin1.len() as f64 / text.chars().count().max(1) as f64;
    Forms {
        text: text.to_string(),
        utf16: text.encode_utf16().collect(),
        latin1: (share >= 0.95).then_some(latin1),
    }
}

// simdutf's API takes raw pointers into buffers sized by its own bounds.
#[allow(unsafe_code)]
fn rows_for(input: &str, f: &Forms, function: Option<&str>, timing: Timing) -> Vec<MemRow> {
    let s = f.text.as_str();
    let b = s.as_bytes();
    let u = &f.utf16[..];
    let mut rows = Vec::new();
    let wanted = |name: &str| function.is_none_or(|f| name.contains(f));
    let mut row = |function: &'static str, bytes: usize, mut peers: Vec<Peer<'_>>| {
        if !wanted(function) {
            return;
        }
        let names: Vec<&str> = peers.iter().map(|p| p.name).collect();
        let r = measure(&mut peers, bytes, timing);
        let get = |n: &str| {
            names
                .iter()
                .position(|x| *x == n)
                .map_or(f64::NAN, |i| r[i])
        };
        rows.push(MemRow {
            function,
            input: input.to_string(),
            bytes,
            textcodec: get("textcodec"),
            simdutf: get("simdutf"),
            encoding_rs: get("encoding_rs"),
        });
    };
    // Each row's peers write into one output buffer ([`Out`]).
    let d16 = Out::new(2 * (b.len() + 1));
    // Check once that the output is right before timing.
    let n = mem::str_to_utf16(s, &mut d16.units()).1;
    assert_eq!(&d16.units()[..n], u);
    row(
        "str → UTF-16",
        b.len(),
        vec![
            Peer::new("textcodec", || {
                mem::str_to_utf16(black_box(s), &mut d16.units()).1
            }),
            Peer::new("simdutf", || unsafe {
                simdutf::convert_valid_utf8_to_utf16le(
                    black_box(b).as_ptr(),
                    b.len(),
                    d16.units().as_mut_ptr(),
                )
            }),
            Peer::new("encoding_rs", || {
                encoding_rs::mem::convert_str_to_utf16(black_box(s), &mut d16.units())
            }),
        ],
    );
    row(
        "UTF-8 → UTF-16 (validating)",
        b.len(),
        vec![
            Peer::new("textcodec", || {
                mem::utf8_to_utf16_lossy(black_box(b), &mut d16.units()).1
            }),
            Peer::new("simdutf", || unsafe {
                simdutf::convert_utf8_to_utf16le(
                    black_box(b).as_ptr(),
                    b.len(),
                    d16.units().as_mut_ptr(),
                )
            }),
            Peer::new("encoding_rs", || {
                encoding_rs::mem::convert_utf8_to_utf16(black_box(b), &mut d16.units())
            }),
        ],
    );
    let d8 = Out::new(3 * u.len() + 1);
    let n = mem::utf16_to_utf8_lossy(u, &mut d8.bytes()).1;
    assert_eq!(&d8.bytes()[..n], b);
    row(
        "UTF-16 → UTF-8 (validating)",
        2 * u.len(),
        vec![
            Peer::new("textcodec", || {
                mem::utf16_to_utf8_lossy(black_box(u), &mut d8.bytes()).1
            }),
            Peer::new("simdutf", || unsafe {
                simdutf::convert_utf16le_to_utf8(
                    black_box(u).as_ptr(),
                    u.len(),
                    d8.bytes().as_mut_ptr(),
                )
            }),
            Peer::new("encoding_rs", || {
                encoding_rs::mem::convert_utf16_to_utf8(black_box(u), &mut d8.bytes())
            }),
        ],
    );
    row(
        "UTF-8 validation",
        b.len(),
        vec![
            Peer::new("textcodec", || mem::utf8_valid_up_to(black_box(b))),
            Peer::new("simdutf", || {
                usize::from(simdutf::validate_utf8(black_box(b)))
            }),
            Peer::new("encoding_rs", || {
                encoding_rs::Encoding::utf8_valid_up_to(black_box(b))
            }),
        ],
    );
    row(
        "UTF-16 validation",
        2 * u.len(),
        vec![
            Peer::new("textcodec", || mem::utf16_valid_up_to(black_box(u))),
            Peer::new("simdutf", || {
                usize::from(simdutf::validate_utf16le(black_box(u)))
            }),
            Peer::new("encoding_rs", || {
                encoding_rs::mem::utf16_valid_up_to(black_box(u))
            }),
        ],
    );
    assert_eq!(
        mem::utf16_len_from_str(s),
        simdutf::utf16_length_from_utf8(b)
    );
    row(
        "UTF-16 length of UTF-8",
        b.len(),
        vec![
            Peer::new("textcodec", || mem::utf16_len_from_str(black_box(s))),
            Peer::new("simdutf", || simdutf::utf16_length_from_utf8(black_box(b))),
        ],
    );
    assert_eq!(
        mem::utf8_len_from_utf16(u),
        simdutf::utf8_length_from_utf16le(u)
    );
    row(
        "UTF-8 length of UTF-16",
        2 * u.len(),
        vec![
            Peer::new("textcodec", || mem::utf8_len_from_utf16(black_box(u))),
            Peer::new("simdutf", || {
                simdutf::utf8_length_from_utf16le(black_box(u))
            }),
        ],
    );
    assert_eq!(mem::char_count_str(s), simdutf::count_utf8(b));
    row(
        "code points of UTF-8",
        b.len(),
        vec![
            Peer::new("textcodec", || mem::char_count_str(black_box(s))),
            Peer::new("simdutf", || simdutf::count_utf8(black_box(b))),
        ],
    );
    if let Some(l) = &f.latin1 {
        let l = &l[..];
        let o = Out::new(2 * l.len() + 1);
        let n = mem::latin1_to_utf8(l, &mut o.bytes()).1;
        let ours = o.bytes()[..n].to_vec();
        assert_eq!(n, unsafe {
            simdutf::convert_latin1_to_utf8(l.as_ptr(), l.len(), o.bytes().as_mut_ptr())
        });
        assert_eq!(o.bytes()[..n], ours);
        row(
            "Latin-1 → UTF-8",
            l.len(),
            vec![
                Peer::new("textcodec", || {
                    mem::latin1_to_utf8(black_box(l), &mut o.bytes()).1
                }),
                Peer::new("simdutf", || unsafe {
                    simdutf::convert_latin1_to_utf8(
                        black_box(l).as_ptr(),
                        l.len(),
                        o.bytes().as_mut_ptr(),
                    )
                }),
                Peer::new("encoding_rs", || {
                    encoding_rs::mem::convert_latin1_to_utf8(black_box(l), &mut o.bytes())
                }),
            ],
        );
        let w = Out::new(2 * l.len());
        row(
            "Latin-1 → UTF-16",
            l.len(),
            vec![
                Peer::new("textcodec", || {
                    mem::latin1_to_utf16(black_box(l), &mut w.units())
                }),
                Peer::new("simdutf", || unsafe {
                    simdutf::convert_latin1_to_utf16le(
                        black_box(l).as_ptr(),
                        l.len(),
                        w.units().as_mut_ptr(),
                    )
                }),
                Peer::new("encoding_rs", || {
                    let mut w = w.units();
                    encoding_rs::mem::convert_latin1_to_utf16(black_box(l), &mut w);
                    w.len()
                }),
            ],
        );
        // The checks on text that is all Latin-1 (else they stop at its first other
        // character).
        let ls = mem::latin1_to_string(l);
        let lu: Vec<u16> = ls.encode_utf16().collect();
        let (ls, lu) = (ls.as_str(), &lu[..]);
        row(
            "is str Latin-1",
            ls.len(),
            vec![
                Peer::new("textcodec", || {
                    usize::from(mem::is_latin1_str(black_box(ls)))
                }),
                Peer::new("encoding_rs", || {
                    usize::from(encoding_rs::mem::is_str_latin1(black_box(ls)))
                }),
            ],
        );
        row(
            "is UTF-8 Latin-1",
            ls.len(),
            vec![
                Peer::new("textcodec", || {
                    usize::from(mem::is_latin1_utf8(black_box(ls.as_bytes())))
                }),
                Peer::new("encoding_rs", || {
                    usize::from(encoding_rs::mem::is_utf8_latin1(black_box(ls.as_bytes())))
                }),
            ],
        );
        row(
            "is UTF-16 Latin-1",
            2 * lu.len(),
            vec![
                Peer::new("textcodec", || {
                    usize::from(mem::is_latin1_utf16(black_box(lu)))
                }),
                Peer::new("encoding_rs", || {
                    usize::from(encoding_rs::mem::is_utf16_latin1(black_box(lu)))
                }),
            ],
        );
        row(
            "UTF-8 length of Latin-1",
            l.len(),
            vec![
                Peer::new("textcodec", || mem::utf8_len_from_latin1(black_box(l))),
                Peer::new("simdutf", || simdutf::utf8_length_from_latin1(black_box(l))),
            ],
        );
    }
    rows
}

pub(crate) fn bench_mem(cases: &[Case], function: Option<&str>, timing: Timing, out: &mut String) {
    let mut rows = Vec::new();
    for case in cases.iter().filter(|c| c.encoding == Encoding::Utf8) {
        eprintln!("mem {}", case.input);
        rows.extend(rows_for(&case.input, &forms(&case.text), function, timing));
    }
    let level =
        |var: &str| std::env::var(var).map_or_else(|_| "best".to_string(), |v| format!("`{v}`"));
    let _ = writeln!(
        out,
        "\n## mem (`textcodec::mem` against simdutf and `encoding_rs::mem`)\n"
    );
    let _ = writeln!(
        out,
        "textcodec level {}, simdutf {}. Validating conversions on valid input (textcodec's \
         lossy ones; simdutf's `convert_*`; encoding_rs's lossy ones). MB/s of input.\n",
        level("TEXTCODEC_KERNEL"),
        level("SIMDUTF_FORCE_IMPLEMENTATION")
    );
    let _ = writeln!(
        out,
        "| function | input | bytes | textcodec | simdutf | encoding_rs | vs simdutf | vs encoding_rs |"
    );
    let _ = writeln!(out, "|---|---|--:|--:|--:|--:|--:|--:|");
    for r in &rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.function,
            r.input,
            r.bytes,
            fmt_rate(r.textcodec),
            fmt_rate(r.simdutf),
            fmt_rate(r.encoding_rs),
            fmt_ratio(r.textcodec / r.simdutf, Some(1.0)),
            fmt_ratio(r.textcodec / r.encoding_rs, Some(2.0)),
        );
    }
    let mut groups: Vec<&'static str> = Vec::new();
    for r in &rows {
        if !groups.contains(&r.function) {
            groups.push(r.function);
        }
    }
    let _ = writeln!(
        out,
        "\n| function | inputs | geomean vs simdutf | min | geomean vs encoding_rs | min |"
    );
    let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|");
    for g in groups {
        let rs: Vec<&MemRow> = rows.iter().filter(|r| r.function == g).collect();
        let vs = |peer: fn(&MemRow) -> f64| {
            let ratios: Vec<f64> = rs
                .iter()
                .map(|r| r.textcodec / peer(r))
                .filter(|x| x.is_finite())
                .collect();
            if ratios.is_empty() {
                (f64::NAN, f64::NAN)
            } else {
                (
                    geomean(ratios.iter().copied()),
                    ratios.iter().copied().fold(f64::INFINITY, f64::min),
                )
            }
        };
        let (gs, ms) = vs(|r| r.simdutf);
        let (ge, me) = vs(|r| r.encoding_rs);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            g,
            rs.len(),
            fmt_ratio(gs, Some(1.0)),
            fmt_ratio(ms, None),
            fmt_ratio(ge, Some(2.0)),
            fmt_ratio(me, None),
        );
    }
}
