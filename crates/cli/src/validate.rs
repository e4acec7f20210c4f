//! `textcodec validate`: decode without writing anything and list each malformed sequence.

use serde_json::{json, Value};

use crate::cli::ValidateArgs;
use crate::failure::{print_line, Failure};
use crate::input::{read_buffer_size, Input};
use crate::position::Tracker;
use crate::progress::Progress;
use crate::stream::{
    decode_input, decoder_for, hex, Buffers, DecodeRun, Malformed, Resume, TextSink,
};

pub fn run(args: ValidateArgs, quiet: bool) -> Result<(), Failure> {
    let inputs = Input::from_operands(&args.inputs);
    let mut buffers = Buffers::new(read_buffer_size());
    let limit = if args.max_errors == 0 {
        u64::MAX
    } else {
        args.max_errors
    };
    let mut reports: Vec<Value> = Vec::new();
    let mut any_bad = false;
    let human = !args.json && !quiet;
    for input in &inputs {
        let name = input.name();
        let mut file = match input.open() {
            Ok(f) => f,
            Err(Failure::Data(message)) => {
                eprintln!("textcodec: error: {message}");
                any_bad = true;
                reports.push(json!({"input": name, "error": message}));
                continue;
            }
            Err(other) => return Err(other),
        };
        let total = file
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len());
        let mut progress = Progress::new(quiet || !human, total);
        let mut decoder = decoder_for(args.from, !args.no_bom_sniff);
        let mut tracker = Tracker::new(false);
        let mut count: u64 = 0;
        let mut listed: Vec<Malformed> = Vec::new();
        let decoded = decode_input(
            DecodeRun {
                prefix: &[],
                file: &mut file,
                name: &name,
                decoder: &mut decoder,
                tracker: &mut tracker,
                progress: &mut progress,
            },
            &mut buffers,
            &mut Lister {
                name: &name,
                limit,
                human,
                json: args.json,
                count: &mut count,
                listed: &mut listed,
            },
        );
        progress.finish();
        let decoded = match decoded {
            Ok(d) => d,
            Err(Failure::Data(message)) => {
                eprintln!("textcodec: error: {message}");
                any_bad = true;
                reports.push(json!({"input": name, "error": message}));
                continue;
            }
            Err(other) => return Err(other),
        };
        let encoding = decoded.encoding.name();
        any_bad |= count > 0;
        if human {
            if count == 0 {
                print_line(&format!(
                    "{name}: valid {encoding} ({} bytes)",
                    decoded.bytes
                ))?;
            } else {
                let plural = if count == 1 { "" } else { "s" };
                let more = if count > limit {
                    format!(" ({limit} listed; --max-errors 0 lists all)")
                } else {
                    String::new()
                };
                print_line(&format!(
                    "{name}: {count} error{plural} in {encoding}{more}"
                ))?;
            }
        }
        if args.json {
            let errors: Vec<Value> = listed
                .iter()
                .map(|m| {
                    json!({
                        "offset": m.offset,
                        "line": m.line,
                        "kind": m.kind(),
                        "bytes": hex(m.bytes()),
                        "next": m.next.map(|b| format!("{b:02X}")),
                        "message": m.describe(),
                    })
                })
                .collect();
            reports.push(json!({
                "input": name,
                "encoding": encoding,
                "bom_sniff": !args.no_bom_sniff,
                "bytes": decoded.bytes,
                "valid": count == 0,
                "error_count": count,
                "errors": errors,
                "errors_truncated": count > limit,
            }));
        }
    }
    if args.json {
        let text = serde_json::to_string_pretty(&Value::Array(reports))
            .map_err(|e| Failure::Data(e.to_string()))?;
        print_line(&text)?;
    }
    if any_bad {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

/// Lists errors as they are found.
struct Lister<'a> {
    name: &'a str,
    limit: u64,
    human: bool,
    json: bool,
    count: &'a mut u64,
    listed: &'a mut Vec<Malformed>,
}

impl TextSink for Lister<'_> {
    fn text(&mut self, _: &str, _: &Tracker, _: bool) -> Result<(), Failure> {
        Ok(())
    }

    fn malformed(&mut self, malformed: &Malformed) -> Result<Resume, Failure> {
        *self.count += 1;
        if *self.count <= self.limit {
            if self.human {
                let line = format!(
                    "{}: {}: {}",
                    self.name,
                    malformed.location(),
                    malformed.describe()
                );
                crate::progress::suspend(|| print_line(&line))?;
            }
            if self.json {
                self.listed.push(malformed.clone());
            }
        }
        Ok(Resume::Skip)
    }
}
