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

/// The guess in words: encoding, confidence, language; or what binary data it is.
fn summary(guess: &Guess, with_score: bool) -> String {
    if let Some(format) = guess.binary {
        return format!(
            "binary data ({format}), not text [best text reading: {}]",
            guess.encoding.name()
        );
    }
    let mut text = format!(
        "{} (confidence {:.3}",
        guess.encoding.name(),
        guess.confidence
    );
    if let Some(language) = guess.language {
        text.push_str(&format!(", {}", language.name()));
    }
    if guess.ascii_only {
        text.push_str("; ASCII only: nothing to tell encodings apart, the hints' default");
    } else if with_score {
        text.push_str(&format!(
            "; score {}, margin {}",
            score(guess.score),
            score(guess.margin)
        ));
    }
    text.push(')');
    if guess.stopped_early {
        text.push_str(" [stopped early: enough evidence]");
    }
    text
}

fn human(name: &str, guess: &Guess, ranking: &[Candidate], top: Option<usize>) -> String {
    let mut text = format!("{name}: {}", summary(guess, top.is_some()));
    let Some(top) = top else {
        return text;
    };
    let shown = if top == 0 {
        ranking.len()
    } else {
        top.min(ranking.len())
    };
    for candidate in &ranking[..shown] {
        let status = if candidate.excluded {
            "disqualified: not allowed".to_string()
        } else if candidate.disqualified {
            "disqualified: malformed for this encoding".to_string()
        } else {
            format!(
                "confidence {:.3}  score {}",
                candidate.confidence,
                score(candidate.score)
            )
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

/// A confidence as printed in JSON: rounded to four decimals (an `f32` widened to `f64`
/// would print digits it does not have).
fn confidence(value: f32) -> Value {
    json!((f64::from(value) * 10_000.0).round() / 10_000.0)
}

fn to_json(
    name: &str,
    detector: &Detector,
    guess: &Guess,
    ranking: &[Candidate],
    top: Option<usize>,
) -> Value {
    let mut report = json!({
        "input": name,
        "encoding": guess.encoding.name(),
        "confidence": confidence(guess.confidence),
        "language": guess.language.map(|l| l.code()),
        "language_name": guess.language.map(|l| l.name()),
        "binary": guess.binary.map(|b| b.name()),
        "score": finite(guess.score),
        "margin": finite(guess.margin),
        "ascii_only": guess.ascii_only,
        "stopped_early": guess.stopped_early,
        "bytes_examined": detector.bytes_examined(),
    });
    if let (Some(top), Some(object)) = (top, report.as_object_mut()) {
        let shown = if top == 0 {
            ranking.len()
        } else {
            top.min(ranking.len())
        };
        object.insert(
            "ranking".to_string(),
            ranking[..shown]
                .iter()
                .map(|c| {
                    json!({
                        "encoding": c.encoding.name(),
                        "confidence": confidence(c.confidence),
                        "score": finite(c.score),
                        "disqualified": c.disqualified,
                        "excluded": c.excluded,
                    })
                })
                .collect(),
        );
    }
    report
}

pub fn run(args: DetectArgs) -> Result<(), Failure> {
    let hints = Hints {
        tld: args.tld.as_deref().map(str::as_bytes),
        allow_utf8: !args.no_utf8,
        locale: args.locale.as_deref(),
        allow: (!args.allow.is_empty()).then_some(&args.allow[..]),
        deny: &args.deny,
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
            reports.push(to_json(&name, &detector, &guess, &ranking, args.top));
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
