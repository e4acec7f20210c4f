//! `textcodec sniff`, and `convert --from auto`: which encoding a browser would use for some
//! bytes, and why, with the library's `textcodec::sniff` (BOM, user override, Content-Type
//! charset, HTML `<meta>` prescan, XML declaration, CSS `@charset`, statistical detection,
//! fallback, locale default).

use std::fs::File;
use std::path::Path;

use serde_json::{json, Value};
use textcodec::sniff::{
    sniff, Confidence, PrescanSource, ResourceKind, SniffOptions, SniffReport, Source,
    SNIFF_PREFIX_LEN,
};

use crate::cli::{KindArg, SniffArgs, SniffSettings};
use crate::failure::{print_line, Failure};
use crate::input::{read_some, Input};

/// The resource kind: `--kind`, else the Content-Type's, else the file extension's, else
/// HTML.
pub fn kind_for(settings: &SniffSettings, path: Option<&Path>) -> ResourceKind {
    if let Some(kind) = settings.kind {
        return match kind {
            KindArg::Html => ResourceKind::Html,
            KindArg::Xml => ResourceKind::Xml,
            KindArg::Css => ResourceKind::Css,
            KindArg::Text => ResourceKind::PlainText,
            KindArg::Json => ResourceKind::Json,
        };
    }
    if let Some(kind) = settings
        .content_type
        .as_deref()
        .and_then(|t| ResourceKind::from_content_type(t.as_bytes()))
    {
        return kind;
    }
    let extension = path
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match extension.as_deref() {
        Some("xml" | "svg" | "xsl" | "xslt" | "rss" | "atom") => ResourceKind::Xml,
        Some("css") => ResourceKind::Css,
        Some("json") => ResourceKind::Json,
        Some("txt" | "text") => ResourceKind::PlainText,
        _ => ResourceKind::Html,
    }
}

/// Sniffs `prefix` (the first bytes of `input`) with the settings.
pub fn sniff_prefix(prefix: &[u8], settings: &SniffSettings, path: Option<&Path>) -> SniffReport {
    let options = SniffOptions {
        kind: kind_for(settings, path),
        content_type: settings.content_type.as_deref().map(str::as_bytes),
        user_override: settings.user_override,
        fallback: settings.fallback,
        locale: settings.locale.as_deref(),
        detect: !settings.no_detect,
        tld: settings.tld.as_deref().map(str::as_bytes),
    };
    sniff(prefix, &options)
}

/// How many bytes detection looks at: enough for a confident guess on any real page, small
/// enough that `convert -f auto` starts writing at once.
const DETECT_PREFIX_LEN: usize = 64 * 1024;

/// Reads the bytes sniffing looks at (fewer if the input is shorter): the first
/// [`SNIFF_PREFIX_LEN`], or [`DETECT_PREFIX_LEN`] with detection on.
pub fn read_prefix(
    file: &mut File,
    name: &str,
    settings: &SniffSettings,
) -> Result<Vec<u8>, Failure> {
    let len = if settings.no_detect {
        SNIFF_PREFIX_LEN
    } else {
        DETECT_PREFIX_LEN
    };
    let mut buf = vec![0; len];
    let mut len = 0;
    while len < buf.len() {
        let n = read_some(file, &mut buf[len..], name)?;
        if n == 0 {
            break;
        }
        len += n;
    }
    buf.truncate(len);
    Ok(buf)
}

fn source_key(source: Source) -> &'static str {
    match source {
        Source::Bom => "bom",
        Source::UserOverride => "user-override",
        Source::TransportLayer => "transport-layer",
        Source::MetaPrescan => "meta-prescan",
        Source::XmlDeclaration => "xml-declaration",
        Source::Utf16Pattern => "utf-16-pattern",
        Source::CssCharset => "css-charset",
        Source::Detection => "detection",
        Source::Fallback => "fallback",
        Source::LocaleDefault => "locale-default",
        Source::Default => "default",
        Source::Utf8Only => "utf-8-only",
    }
}

fn kind_key(kind: ResourceKind) -> &'static str {
    match kind {
        ResourceKind::Html => "html",
        ResourceKind::Xml => "xml",
        ResourceKind::Css => "css",
        ResourceKind::PlainText => "text",
        ResourceKind::Json => "json",
    }
}

fn report_json(name: &str, report: &SniffReport) -> Value {
    json!({
        "input": name,
        "kind": kind_key(report.kind),
        "encoding": report.encoding.name(),
        "confidence": match report.confidence {
            Confidence::Certain => "certain",
            Confidence::Tentative => "tentative",
            Confidence::Irrelevant => "irrelevant",
        },
        "source": source_key(report.source),
        "offset": report.offset,
        "prescan": report.prescan.map(|p| match p {
            PrescanSource::Utf16XmlDeclaration => "utf-16-xml-declaration",
            PrescanSource::MetaCharset => "meta-charset",
            PrescanSource::MetaHttpEquiv => "meta-http-equiv",
            PrescanSource::XmlDeclaration => "xml-declaration",
        }),
        "bom_length": report.bom_length,
        "fatal": report.error_mode == textcodec::DecodeErrorMode::Fatal,
        "detection": report.detection.map(|guess| json!({
            "encoding": guess.encoding.name(),
            "confidence": (f64::from(guess.confidence) * 10_000.0).round() / 10_000.0,
            "language": guess.language.map(|l| l.code()),
            "binary": guess.binary.map(|b| b.name()),
            "score": guess.score,
            "margin": guess.margin,
            "ascii_only": guess.ascii_only,
            "stopped_early": guess.stopped_early,
        })),
        "description": report.to_string(),
    })
}

pub fn run(args: SniffArgs, _quiet: bool) -> Result<(), Failure> {
    let mut reports = Vec::new();
    let mut failed = false;
    for input in Input::from_operands(&args.inputs) {
        let name = input.name();
        let prefix = input
            .open()
            .and_then(|mut file| read_prefix(&mut file, &name, &args.settings));
        let prefix = match prefix {
            Ok(p) => p,
            Err(Failure::Data(message)) => {
                eprintln!("textcodec: error: {message}");
                failed = true;
                continue;
            }
            Err(other) => return Err(other),
        };
        let report = sniff_prefix(&prefix, &args.settings, input.path());
        if args.json {
            reports.push(report_json(&name, &report));
        } else {
            print_line(&format!("{name}: {report} [{} rules]", report.kind))?;
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
