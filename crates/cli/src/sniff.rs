//! `textcodec sniff`: which encoding a browser would use for some bytes, and why.
//!
//! PROVISIONAL: until the library's `textcodec::sniff` module lands, this uses a byte order
//! mark (`textcodec::bom_sniff`), then the Content-Type's charset parameter (a minimal
//! parser private to this file, marked below, to be replaced by the library's), then the
//! default. The report (encoding, confidence, source, detail) is shaped so the HTML/XML/CSS
//! prescan slots in as further sources.

use serde_json::{json, Value};
use textcodec::Encoding;

use crate::cli::SniffArgs;
use crate::failure::{print_line, Failure};
use crate::input::{read_some, Input};

/// How many bytes of the input are examined (the HTML prescan's 1024).
const PREFIX: usize = 1024;

/// Where the answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Bom,
    Transport,
    Default,
}

impl Source {
    fn key(self) -> &'static str {
        match self {
            Source::Bom => "bom",
            Source::Transport => "transport",
            Source::Default => "default",
        }
    }
}

/// The HTML Standard's confidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Confidence {
    Certain,
    Tentative,
}

impl Confidence {
    fn key(self) -> &'static str {
        match self {
            Confidence::Certain => "certain",
            Confidence::Tentative => "tentative",
        }
    }
}

struct Report {
    encoding: Encoding,
    confidence: Confidence,
    source: Source,
    detail: String,
}

fn sniff_bytes(prefix: &[u8], content_type: Option<&str>, fallback: Encoding) -> Report {
    if let Some(encoding) = textcodec::bom_sniff(prefix) {
        let hex: Vec<String> = prefix[..if encoding == Encoding::Utf8 { 3 } else { 2 }]
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect();
        return Report {
            encoding,
            confidence: Confidence::Certain,
            source: Source::Bom,
            detail: format!("byte order mark {}", hex.join(" ")),
        };
    }
    if let Some((label, encoding)) = content_type.and_then(charset_from_content_type) {
        return Report {
            encoding,
            confidence: Confidence::Certain,
            source: Source::Transport,
            detail: format!("Content-Type charset={label}"),
        };
    }
    Report {
        encoding: fallback,
        confidence: Confidence::Tentative,
        source: Source::Default,
        detail: "nothing else decided".to_string(),
    }
}

// ---- PROVISIONAL: replace with the library's Content-Type handling when it lands. ----
/// The charset parameter of a Content-Type value and the encoding it names, if any.
fn charset_from_content_type(value: &str) -> Option<(String, Encoding)> {
    let mut parts = value.split(';');
    let essence = parts.next()?.trim();
    if !essence.contains('/') {
        return None;
    }
    for param in parts {
        let Some((name, raw)) = param.split_once('=') else {
            continue;
        };
        if !name.trim().eq_ignore_ascii_case("charset") {
            continue;
        }
        let raw = raw.trim();
        let label = match raw.strip_prefix('"') {
            Some(rest) => rest.split('"').next().unwrap_or(""),
            None => raw,
        };
        return Encoding::for_label_str(label).map(|e| (label.to_string(), e));
    }
    None
}
// ---- end PROVISIONAL ----

pub fn run(args: SniffArgs, _quiet: bool) -> Result<(), Failure> {
    let fallback = args.fallback.unwrap_or(Encoding::Windows1252);
    let mut reports = Vec::new();
    let mut failed = false;
    for input in Input::from_operands(&args.inputs) {
        let name = input.name();
        let prefix = match read_prefix(&input) {
            Ok(p) => p,
            Err(Failure::Data(message)) => {
                eprintln!("textcodec: error: {message}");
                failed = true;
                continue;
            }
            Err(other) => return Err(other),
        };
        let report = sniff_bytes(&prefix, args.content_type.as_deref(), fallback);
        if args.json {
            reports.push(json!({
                "input": name,
                "encoding": report.encoding.name(),
                "confidence": report.confidence.key(),
                "source": report.source.key(),
                "detail": report.detail,
            }));
        } else {
            let source = match report.source {
                Source::Bom => "byte order mark",
                Source::Transport => "transport layer",
                Source::Default => "default",
            };
            print_line(&format!(
                "{name}: {} ({}; {source}: {})",
                report.encoding.name(),
                report.confidence.key(),
                report.detail
            ))?;
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

/// The first `PREFIX` bytes (fewer if the input is shorter).
fn read_prefix(input: &Input) -> Result<Vec<u8>, Failure> {
    let mut file = input.open()?;
    let mut buf = vec![0; PREFIX];
    let mut len = 0;
    while len < PREFIX {
        let n = read_some(&mut file, &mut buf[len..], &input.name())?;
        if n == 0 {
            break;
        }
        len += n;
    }
    buf.truncate(len);
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_charset() {
        let (label, e) = charset_from_content_type("text/html; charset=\"Shift_JIS\"").unwrap();
        assert_eq!((label.as_str(), e), ("Shift_JIS", Encoding::ShiftJis));
        assert!(charset_from_content_type("text/html").is_none());
        assert!(charset_from_content_type("text/html; charset=bogus").is_none());
    }
}
