//! The `labels` section: `Encoding::for_label` against encoding_rs.

use super::*;

pub(crate) fn bench_labels(timing: Timing, out: &mut String) -> [f64; 4] {
    let labels: Vec<&str> = Encoding::labels().iter().map(|l| l.0).collect();
    let variants: Vec<String> = labels
        .iter()
        .map(|l| format!(" {}\t", l.to_ascii_uppercase()))
        .collect();
    let non_labels = [
        "utf-9",
        "latin-1",
        "iso-8859-99",
        "x-unknown-charset",
        "",
        "windows-1252x",
        "shift-jis",
        "koi8-ru-x",
        "a-label-far-too-long-to-be-one",
        "gb2312-80",
    ];
    let ns_per = |list: &[&str], tc: bool, timing: Timing| {
        let total = if tc {
            measure_ns(
                || {
                    let mut n = 0usize;
                    for l in list {
                        n += Encoding::for_label(black_box(l.as_bytes())).map_or(0, |e| e as usize);
                    }
                    n
                },
                timing,
            )
        } else {
            measure_ns(
                || {
                    let mut n = 0usize;
                    for l in list {
                        n += encoding_rs::Encoding::for_label(black_box(l.as_bytes()))
                            .map_or(0, |e| e.name().len());
                    }
                    n
                },
                timing,
            )
        };
        total / list.len() as f64
    };
    let variant_refs: Vec<&str> = variants.iter().map(String::as_str).collect();
    let short = Timing {
        samples: timing.samples,
        sample_time: timing.sample_time / 10,
        clock: timing.clock,
    };
    // Each string timed alone too, for the slowest one: a quick pass over all of them, then
    // the five slowest of that pass timed again with the full sample time (the maximum of
    // 228 short, noisy timings is mostly the noise of the VM).
    let slowest = |list: &[&str], tc: bool| {
        let mut quick: Vec<(f64, &str)> =
            list.iter().map(|l| (ns_per(&[l], tc, short), *l)).collect();
        quick.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut worst = (0.0f64, String::new());
        for &(_, l) in quick.iter().take(5) {
            let ns = ns_per(&[l], tc, timing);
            if ns > worst.0 {
                worst = (ns, l.to_string());
            }
        }
        worst
    };
    // The harness's own cost per single-string call (closure, loop, black_box).
    let one = ["utf-8"];
    let overhead = measure_ns(
        || {
            let mut n = 0usize;
            for l in &one {
                n += black_box(l.as_bytes()).len();
            }
            n
        },
        short,
    );
    let rows = [
        ("the 228 labels", &labels[..]),
        (
            "the 228 labels upper-cased, in whitespace",
            &variant_refs[..],
        ),
        ("10 non-labels", &non_labels[..]),
    ];
    let _ = writeln!(out, "\n## Label lookup (`Encoding::for_label`)\n");
    let _ = writeln!(
        out,
        "ns per lookup: the mean over each list (one call looks up the whole list), and the \
         slowest string of the list when each is timed alone (the five slowest of a quick \
         pass over every string, timed again with the full sample time; harness overhead per \
         single call, included: {overhead:.1} ns).\n"
    );
    let _ = writeln!(
        out,
        "| labels | textcodec mean ns | textcodec slowest ns | encoding_rs mean ns | encoding_rs slowest ns | mean vs encoding_rs |"
    );
    let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|");
    let mut means = [0.0; 4];
    for (i, (name, list)) in rows.iter().enumerate() {
        let tc = ns_per(list, true, timing);
        let er = ns_per(list, false, timing);
        let (tc_worst, tc_label) = slowest(list, true);
        let (er_worst, er_label) = slowest(list, false);
        means[i] = tc;
        means[3] = means[3].max(tc_worst);
        let _ = writeln!(
            out,
            "| {name} | {tc:.1} | {tc_worst:.1} ({tc_label:?}) | {er:.1} | {er_worst:.1} ({er_label:?}) | {} |",
            fmt_ratio(er / tc, None)
        );
    }
    means
}
