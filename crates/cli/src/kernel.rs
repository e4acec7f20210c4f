//! The SIMD kernel level (`TEXTCODEC_KERNEL`): refused when unknown, shown by `--version`
//! and `list --kernels`.
//!
//! The library ignores a `TEXTCODEC_KERNEL` value it does not know and runs the best level
//! (a library must not fail over an environment variable). A command line tool can be
//! stricter: someone who sets the variable wants that level measured or tested, so a
//! misspelling (`avx`) must not silently run another one.

use std::sync::OnceLock;

use serde_json::{json, Value};
use textcodec::{KernelInfo, KernelRequest};

use crate::failure::{print_line, Failure};

/// The message for an unknown `TEXTCODEC_KERNEL` value, if it has one.
pub fn unknown_value_message(info: &KernelInfo) -> Option<String> {
    let KernelRequest::Unknown(value) = &info.request else {
        return None;
    };
    Some(format!(
        "TEXTCODEC_KERNEL={value:?} is not a kernel level; accepted: {} \
         (or leave it unset for the best level this CPU supports)",
        info.levels.join(", ")
    ))
}

/// How the active level was chosen, when `TEXTCODEC_KERNEL` had a say.
fn request_note(request: &KernelRequest) -> Option<String> {
    match request {
        KernelRequest::Honoured(_) => Some("set by TEXTCODEC_KERNEL".to_string()),
        KernelRequest::Capped(level) => Some(format!(
            "TEXTCODEC_KERNEL={level} capped: this CPU lacks {level}"
        )),
        KernelRequest::Unknown(value) => Some(format!("TEXTCODEC_KERNEL={value:?} ignored")),
        _ => None,
    }
}

/// The version `--version` prints after the program name: `0.1.0 (kernel: avx2)`.
pub fn version() -> &'static str {
    // clap wants a `&'static str`; built once.
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let info = textcodec::kernel_info();
        let mut kernel = info.active.to_string();
        if let Some(note) = request_note(&info.request) {
            kernel = format!("{kernel}, {note}");
        }
        format!("{} (kernel: {kernel})", env!("CARGO_PKG_VERSION"))
    })
}

/// `textcodec list --kernels`: every level of this target, whether this CPU supports it,
/// and which one is active.
pub fn list(json: bool) -> Result<(), Failure> {
    let info = textcodec::kernel_info();
    let supported = |level: &str| info.supported.contains(&level);
    if json {
        let levels: Vec<Value> = info
            .levels
            .iter()
            .map(|&level| {
                json!({
                    "name": level,
                    "supported": supported(level),
                    "active": level == info.active,
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&Value::Array(levels))
            .map_err(|e| Failure::Data(e.to_string()))?;
        return print_line(&text);
    }
    let width = info.levels.iter().map(|l| l.len()).max().unwrap_or(0);
    for &level in info.levels {
        let mut status = if supported(level) {
            "supported".to_string()
        } else {
            "not supported by this CPU".to_string()
        };
        if level == info.active {
            status.push_str(", active");
            if let Some(note) = request_note(&info.request) {
                status = format!("{status} ({note})");
            }
        }
        print_line(&format!("{level:width$}  {status}"))?;
    }
    Ok(())
}
