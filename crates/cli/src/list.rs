//! `textcodec list`: the Standard's encodings and labels.

use serde_json::{json, Value};
use textcodec::Encoding;

use crate::cli::ListArgs;
use crate::failure::{print_line, Failure};
use crate::labels::{suggestions, unknown_label_message};

/// What can be done with an encoding, in words.
fn capability(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Replacement => {
            "decode only: any non-empty input decodes to a single U+FFFD; no encoder"
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            "decode; encode as a textcodec extension (the Standard has no UTF-16 encoder)"
        }
        _ => "decode and encode",
    }
}

fn encoding_json(encoding: Encoding) -> Value {
    json!({
        "name": encoding.name(),
        "labels": encoding.own_labels().collect::<Vec<_>>(),
        "ascii_compatible": encoding.is_ascii_compatible(),
        "standard_encoder": encoding.has_encoder(),
        "can_encode": encoding != Encoding::Replacement,
        "output_encoding": encoding.output_encoding().name(),
    })
}

pub fn run(args: ListArgs) -> Result<(), Failure> {
    let Some(label) = args.label else {
        if args.json {
            let all: Vec<Value> = Encoding::all().iter().map(|&e| encoding_json(e)).collect();
            print_json(&Value::Array(all))?;
        } else {
            let width = Encoding::all()
                .iter()
                .map(|e| e.name().len())
                .max()
                .unwrap_or(0);
            for &encoding in Encoding::all() {
                let labels: Vec<&str> = encoding.own_labels().collect();
                print_line(&format!(
                    "{:width$}  {}",
                    encoding.name(),
                    labels.join(", ")
                ))?;
            }
        }
        return Ok(());
    };
    match Encoding::for_label_str(&label) {
        Some(encoding) => {
            if args.json {
                let mut value = encoding_json(encoding);
                value["label"] = json!(label);
                print_json(&value)?;
            } else {
                let labels: Vec<&str> = encoding.own_labels().collect();
                print_line(&format!(
                    "\"{}\" is a label of {}",
                    label.trim(),
                    encoding.name()
                ))?;
                print_line(&format!("  labels: {}", labels.join(", ")))?;
                print_line(&format!("  {}", capability(encoding)))?;
            }
            Ok(())
        }
        None => {
            if args.json {
                let close: Vec<Value> = suggestions(&label)
                    .iter()
                    .map(|(l, e)| json!({"label": l, "name": e.name()}))
                    .collect();
                print_json(&json!({"label": label, "name": null, "suggestions": close}))?;
                Err(Failure::Reported)
            } else {
                Err(Failure::Data(unknown_label_message(&label)))
            }
        }
    }
}

fn print_json(value: &Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Data(e.to_string()))?;
    print_line(&text)?;
    Ok(())
}
