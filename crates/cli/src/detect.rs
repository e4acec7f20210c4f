//! `textcodec detect`: the statistical detector's guess and ranking for unlabelled bytes
//! (`textcodec::detect`), without any of the sniffing steps (BOM, headers, `<meta>`).

use serde_json::{json, Value};
use textcodec::detect::{Candidate, Detector, Guess, Hints};

use crate::cli::DetectArgs;
use crate::failure::{print_line, Failure};
use crate::input::{read_buffer_size, read_some, Input};

/// Feeds the whole input (or until the detector has seen enough) to a new detector.
fn detect_input(input: &Input, name: &str) -> Result<Detector, Failure> {
    let mut file = input.open()?;
    let mut detector = Detector::new();
    let mut buf = vec![0; read_buffer_size()];
    loop {
        let n = read_some(&mut file, &mut buf, name)?;
        if n == 0 {
            detector.feed(&[], true);
            return Ok(detector);
        }
        if detector.feed(&buf[..n], false) {
            // Saturated: the rest of the input cannot change the guess.
            return Ok(detector);
        }
    }
}

/// A score as printed: two decimals, no negative zero.
fn score(value: f32) -> String {
    let text = format!("{value:.2}");
    if text == "-0.00" {
        "0.00".to_string()
    } else {
        text
    }
}

fn human(name: &str, guess: &Guess, ranking: &[Candidate], top: usize) -> String {
    let mut text = format!("{name}: {}", guess.encoding.name());
    if guess.ascii_only {
        text.push_str(" (ASCII only: nothing to tell encodings apart; the hints' default)");
    } else {
        text.push_str(&format!(
            " (score {}, margin {})",
            score(guess.score),
            score(guess.margin)
        ));
    }
    if guess.stopped_early {
        text.push_str(" [stopped early: enough evidence]");
    }
    let shown = if top == 0 {
        ranking.len()
    } else {
        top.min(ranking.len())
    };
    for candidate in &ranking[..shown] {
        let status = if candidate.disqualified {
            "disqualified: malformed for this encoding".to_string()
        } else {
            format!("score {}", score(candidate.score))
        };
        text.push_str(&format!("\n  {:<16} {status}", candidate.encoding.name()));
    }
    text
}

fn finite(value: f32) -> Value {
    // JSON has no infinities: a disqualified candidate's score may be one.
    if value.is_finite() {
        json!(value)
    } else {
        Value::Null
    }
}

fn to_json(name: &str, detector: &Detector, guess: &Guess, ranking: &[Candidate]) -> Value {
    json!({
        "input": name,
        "encoding": guess.encoding.name(),
        "score": finite(guess.score),
        "margin": finite(guess.margin),
        "ascii_only": guess.ascii_only,
        "stopped_early": guess.stopped_early,
        "bytes_examined": detector.bytes_examined(),
        "ranking": ranking.iter().map(|c| json!({
            "encoding": c.encoding.name(),
            "score": finite(c.score),
            "disqualified": c.disqualified,
        })).collect::<Vec<_>>(),
    })
}

pub fn run(args: DetectArgs) -> Result<(), Failure> {
    let hints = Hints {
        tld: args.tld.as_deref().map(str::as_bytes),
        allow_utf8: !args.no_utf8,
        locale: args.locale.as_deref(),
        ..Hints::new()
    };
    let mut reports = Vec::new();
    let mut failed = false;
    for input in Input::from_operands(&args.inputs) {
        let name = input.name();
        let detector = match detect_input(&input, &name) {
            Ok(d) => d,
            Err(Failure::Data(message)) => {
                eprintln!("textcodec: error: {message}");
                failed = true;
                continue;
            }
            Err(other) => return Err(other),
        };
        let guess = detector.guess(&hints);
        let ranking = detector.ranking(&hints);
        if args.json {
            reports.push(to_json(&name, &detector, &guess, &ranking));
        } else {
            print_line(&human(&name, &guess, &ranking, args.top))?;
        }
    }
    if args.json {
        let text = serde_json::to_string_pretty(&Value::Array(reports))
            .map_err(|e| Failure::Data(e.to_string()))?;
        print_line(&text)?;
    }
    if failed {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}
