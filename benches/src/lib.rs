//! Support code for textcodec's benchmark harness (`benches/codecs/main.rs` and its sections): the corpus plan
//! (which legacy encodings each language is encoded into), timing, statistics and
//! markdown output. The peers (encoding_rs, simdutf8) are dev-dependencies used only by the
//! bench target, so `cargo test` neither builds nor runs the benchmark.
//!
//! Run it with `cargo bench -p textcodec-bench` after `python3 scripts/make-corpus.py`;
//! see BENCHMARKS.md at the repository root.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use textcodec::Encoding;

/// The legacy encodings each corpus language is encoded into (UTF-8 and UTF-16LE/BE are
/// added for every language). Together they cover every legacy encoding of the Standard
/// except replacement (which has no real input) and x-user-defined (measured separately on
/// the Russian windows-1251 bytes).
pub const PLAN: &[(&str, &[Encoding])] = {
    use Encoding::*;
    &[
        ("ja", &[ShiftJis, EucJp, Iso2022Jp]),
        ("zh_Hans", &[Gb18030, Gbk]),
        ("zh_Hant", &[Big5]),
        ("ko", &[EucKr]),
        ("ru", &[Windows1251, Koi8R, Ibm866, Iso8859_5, XMacCyrillic]),
        ("uk", &[Windows1251, Koi8U]),
        ("el", &[Windows1253, Iso8859_7]),
        ("he", &[Windows1255, Iso8859_8, Iso8859_8I]),
        ("ar", &[Windows1256, Iso8859_6]),
        ("th", &[Windows874]),
        ("vi", &[Windows1258]),
        ("pl", &[Windows1250, Iso8859_2]),
        ("cs", &[Windows1250, Iso8859_2]),
        ("tr", &[Windows1254]),
        ("de", &[Windows1252, Iso8859_15]),
        ("fr", &[Windows1252, Iso8859_15, Macintosh]),
        ("en", &[Windows1252]),
        ("lt", &[Windows1257, Iso8859_13, Iso8859_4]),
        ("lv", &[Windows1257, Iso8859_13]),
        ("eo", &[Iso8859_3]),
        ("is", &[Iso8859_10]),
        ("cy", &[Iso8859_14]),
        ("ro", &[Iso8859_16]),
    ]
};

/// The family an encoding's decoder and encoder belong to (one kernel each), for the
/// geometric means.
pub fn family(e: Encoding) -> &'static str {
    use Encoding::*;
    match e {
        Utf8 => "UTF-8",
        Utf16Le | Utf16Be => "UTF-16",
        Gb18030 | Gbk => "gb18030/GBK",
        Big5 => "Big5",
        EucJp => "EUC-JP",
        Iso2022Jp => "ISO-2022-JP",
        ShiftJis => "Shift_JIS",
        EucKr => "EUC-KR",
        XUserDefined => "x-user-defined",
        Replacement => "replacement",
        _ => "single-byte",
    }
}

/// Whether `e` is a legacy encoding (not UTF-8, UTF-16 or replacement): the encodings the
/// "legacy" targets are about.
pub fn is_legacy(e: Encoding) -> bool {
    !matches!(
        e,
        Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be | Encoding::Replacement
    )
}

/// The corpus directory: `$TEXTCODEC_CORPUS`, else `bench-corpus/` at the workspace root.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("TEXTCODEC_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../bench-corpus")),
    }
}

/// The median of `values` (the mean of the middle two for an even count); NaN if empty.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The geometric mean of the positive finite values (others are skipped); NaN if none.
pub fn geomean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for v in values {
        if v.is_finite() && v > 0.0 {
            sum += v.ln();
            n += 1;
        }
    }
    if n == 0 {
        f64::NAN
    } else {
        (sum / n as f64).exp()
    }
}

/// Which clock times the samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The CPU time of the benchmark thread (`CLOCK_THREAD_CPUTIME_ID`): time the thread
    /// spends descheduled by other processes is not counted, which makes runs on a busy
    /// machine usable (cache pollution by the other processes still shows).
    ThreadCpu,
    /// Wall-clock time (`std::time::Instant`).
    Wall,
}

/// How long each sample runs at least, how many samples are taken, and with which clock.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Samples per peer (the median is reported).
    pub samples: usize,
    /// Minimum duration of one sample.
    pub sample_time: Duration,
    /// The clock.
    pub clock: Clock,
}

/// One contender in a measurement: a name and a closure doing one whole operation over
/// the input (it returns something derived from the output so the work is not elided).
pub struct Peer<'a> {
    /// Column name.
    pub name: &'static str,
    /// The operation.
    pub run: Box<dyn FnMut() -> usize + 'a>,
}

impl<'a> Peer<'a> {
    /// A peer from a closure.
    pub fn new(name: &'static str, run: impl FnMut() -> usize + 'a) -> Peer<'a> {
        Peer {
            name,
            run: Box::new(run),
        }
    }
}

fn time_iters(run: &mut dyn FnMut() -> usize, iters: u64, clock: Clock) -> Duration {
    match clock {
        Clock::Wall => {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(run());
            }
            start.elapsed()
        }
        Clock::ThreadCpu => {
            let start = cpu_time::ThreadTime::now();
            for _ in 0..iters {
                black_box(run());
            }
            start.elapsed()
        }
    }
}

/// Measures every peer: a warm-up/calibration run per peer picks an iteration count that
/// lasts at least `timing.sample_time`, then the samples are taken round-robin (peer A,
/// peer B, …, A, B, …) so that machine noise hits all peers alike. Returns each peer's
/// median throughput in MB/s (10^6 bytes per second) of `input_bytes` per operation.
pub fn measure(peers: &mut [Peer<'_>], input_bytes: usize, timing: Timing) -> Vec<f64> {
    let target = timing.sample_time.as_secs_f64();
    let mut iters = Vec::with_capacity(peers.len());
    for peer in peers.iter_mut() {
        // Warm up and calibrate: double until a run takes a quarter of the sample time.
        let mut n = 1u64;
        loop {
            let t = time_iters(&mut peer.run, n, timing.clock).as_secs_f64();
            if t >= target / 4.0 || n >= 1 << 40 {
                let per_iter = t / n as f64;
                iters.push(((target / per_iter.max(1e-12)).ceil() as u64).max(1));
                break;
            }
            n *= 2;
        }
    }
    let mut rates = vec![Vec::with_capacity(timing.samples); peers.len()];
    for _ in 0..timing.samples {
        for (i, peer) in peers.iter_mut().enumerate() {
            let t = time_iters(&mut peer.run, iters[i], timing.clock).as_secs_f64();
            rates[i].push(input_bytes as f64 * iters[i] as f64 / t / 1e6);
        }
    }
    rates.iter().map(|r| median(r)).collect()
}

/// Measures the time per call of `run` in nanoseconds (median of `timing.samples`).
pub fn measure_ns(mut run: impl FnMut() -> usize, timing: Timing) -> f64 {
    let mut peer = [Peer::new("x", &mut run)];
    // One "byte" per call: MB/s is then millions of calls per second.
    let rate = measure(&mut peer, 1, timing)[0];
    1e3 / rate
}

/// Formats a throughput for a table.
pub fn fmt_rate(v: f64) -> String {
    if v.is_nan() {
        "—".into()
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Formats a ratio for a table (`1.23×`), bold when below `floor`.
pub fn fmt_ratio(v: f64, floor: Option<f64>) -> String {
    if v.is_nan() {
        "—".into()
    } else if floor.is_some_and(|f| v < f) {
        format!("**{v:.2}×**")
    } else {
        format!("{v:.2}×")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert!((geomean([1.0, 4.0, f64::NAN, 0.0]) - 2.0).abs() < 1e-12);
        assert!(geomean([]).is_nan());
        assert_eq!(fmt_ratio(0.5, Some(1.0)), "**0.50×**");
        assert_eq!(fmt_rate(1234.4), "1234");
    }

    #[test]
    fn plan_covers_every_single_byte_encoding() {
        for &e in Encoding::all() {
            if e.is_single_byte() || matches!(family(e), "Big5" | "EUC-KR" | "Shift_JIS") {
                assert!(PLAN.iter().any(|(_, list)| list.contains(&e)), "{e}");
            }
        }
    }

    #[test]
    fn measure_runs() {
        let timing = Timing {
            samples: 3,
            sample_time: Duration::from_micros(200),
            clock: Clock::ThreadCpu,
        };
        let data = vec![1u8; 1000];
        let mut peers = [Peer::new("sum", || data.iter().map(|&b| b as usize).sum())];
        let r = measure(&mut peers, data.len(), timing);
        assert!(r[0] > 0.0);
    }
}
