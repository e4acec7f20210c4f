//! The command line (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use textcodec::Encoding;

use crate::labels::{parse_decode_label, parse_encode_label};

const MAIN_EXAMPLES: &str = "\
Examples:
  textcodec convert -f shift_jis -t utf-8 examples/shift_jis.txt
  textcodec validate -f utf-8 *.txt
  textcodec sniff --content-type 'text/html; charset=euc-kr' page.html
  textcodec detect --tld jp examples/shift_jis.txt
  textcodec list sjis

Environment: TEXTCODEC_KERNEL=LEVEL caps the SIMD kernel level, for measurements and
tests (`textcodec list --kernels` lists the levels; an unknown value is a usage error).

Exit status: 0 success, 1 data or I/O error, 2 usage error.";

/// Convert, sniff, validate and list text encodings exactly as browsers do (the WHATWG
/// Encoding Standard).
#[derive(Parser, Debug)]
#[command(name = "textcodec", version = crate::kernel::version(), after_help = MAIN_EXAMPLES)]
pub struct Cli {
    /// Print no warnings, notes or progress (errors are still printed).
    #[arg(short, long, global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert text from one encoding to another, streaming.
    Convert(ConvertArgs),
    /// Tell which encoding a browser would use for some bytes, and why.
    Sniff(SniffArgs),
    /// Guess the encoding of unlabelled text from its bytes alone, with the ranking.
    Detect(DetectArgs),
    /// Check that input decodes without errors; list each error.
    Validate(ValidateArgs),
    /// List every encoding and its labels, or what one label names.
    List(ListArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
}

const CONVERT_EXAMPLES: &str = "\
Examples:
  # Shift_JIS file to UTF-8 on stdout
  textcodec convert -f shift_jis -t utf-8 examples/shift_jis.txt

  # Several files (each decoded on its own, BOM sniffed per file), one output file
  textcodec convert -f windows-1252 -t utf-8 a.txt b.txt -o all.txt

  # Rewrite files in place, atomically (permissions kept)
  textcodec convert -f latin1 -t utf-8 --in-place notes/*.txt

  # From stdin; characters windows-1252 lacks become &#NNNN; as in HTML forms
  printf 'snow \\u2603\\n' | textcodec convert -f utf-8 -t windows-1252 --encode-errors html

  # A web page, its encoding sniffed as a browser would (BOM, charset, <meta>)
  textcodec convert -f auto --content-type 'text/html' -t utf-8 examples/shift_jis.html

  # Stop at the first malformed byte sequence instead of writing U+FFFD
  textcodec convert -f euc-kr -t utf-8 --decode-errors fatal in.txt -o out.txt

  # UTF-16LE with a byte order mark (a textcodec extension: the Standard has no UTF-16 encoder)
  textcodec convert -f utf-8 -t utf-16le --add-bom in.txt -o out.txt

Several inputs are decoded one after the other, each with its own decoder and BOM sniff;
their text is encoded as one stream (ISO-2022-JP returns to ASCII once, at the very end).
With -o or --in-place the target is replaced only if the whole conversion succeeds.
Lines in messages count line feeds (U+000A) in the decoded text; columns count characters.";

#[derive(Args, Debug)]
#[command(after_help = CONVERT_EXAMPLES)]
pub struct ConvertArgs {
    /// Encoding of the input (any label of the Standard, e.g. shift_jis, latin1, utf-16le),
    /// or `auto`: sniff each input as a browser would (see `textcodec sniff --help` and the
    /// sniffing options below). A byte order mark overrides it, as in browsers, unless
    /// --no-bom-sniff.
    #[arg(short, long, value_name = "LABEL", value_parser = parse_from)]
    pub from: FromArg,

    /// Encoding to write (any label but those of "replacement").
    #[arg(short, long, value_name = "LABEL", value_parser = parse_encode_label)]
    pub to: Encoding,

    /// Input files; `-` is stdin (the default).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Write to FILE (atomically: a temporary file renamed on success) instead of stdout.
    #[arg(short, long, value_name = "FILE", conflicts_with = "in_place")]
    pub output: Option<PathBuf>,

    /// Convert each input file in place, atomically, keeping its permissions.
    #[arg(long)]
    pub in_place: bool,

    /// Decode without BOM handling: a BOM is decoded as text (U+FEFF) or as whatever the
    /// --from encoding makes of its bytes.
    #[arg(long)]
    pub no_bom_sniff: bool,

    /// What to do with malformed input: write U+FFFD (as browsers do; the count is reported
    /// as a warning) or stop with an error.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = DecodeErrors::Replace)]
    pub decode_errors: DecodeErrors,

    /// What to do with a character the output encoding lacks: stop with an error, write
    /// `&#NNNN;` (as HTML forms do), or write `?`.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = EncodeErrors::Fatal)]
    pub encode_errors: EncodeErrors,

    /// Start the output with a byte order mark (UTF-8, UTF-16LE and UTF-16BE only).
    #[arg(long)]
    pub add_bom: bool,

    /// Options for `--from auto` (last: the help lists them under their own heading).
    #[command(flatten, next_help_heading = "Sniffing (with --from auto)")]
    pub sniffing: SniffSettings,
}

/// `--from`: a label or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FromArg {
    Label(Encoding),
    Auto,
}

fn parse_from(value: &str) -> Result<FromArg, String> {
    if value.trim().eq_ignore_ascii_case("auto") {
        return Ok(FromArg::Auto);
    }
    parse_decode_label(value).map(FromArg::Label)
}

/// `--decode-errors`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrors {
    /// Write U+FFFD for each malformed sequence and go on.
    Replace,
    /// Stop at the first malformed sequence.
    Fatal,
}

/// `--encode-errors`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeErrors {
    /// Stop at the first character that cannot be encoded.
    Fatal,
    /// Write `&#NNNN;` (the code point in decimal), as HTML forms do.
    Html,
    /// Write `?`.
    Replace,
}

const VALIDATE_EXAMPLES: &str = "\
Examples:
  textcodec validate -f utf-8 README.md
  textcodec validate -f shift_jis --max-errors 5 examples/*.txt
  cat page.html | textcodec validate -f euc-jp --json

Each error is listed as `NAME: byte OFFSET (line N): invalid ENCODING byte sequence BYTES`.
Offsets count from 0 and include a BOM; lines count decoded line feeds. Exit status 1 if
any input has an error.";

#[derive(Args, Debug)]
#[command(after_help = VALIDATE_EXAMPLES)]
pub struct ValidateArgs {
    /// Encoding the input should be in (a BOM overrides it unless --no-bom-sniff).
    #[arg(short, long, value_name = "LABEL", value_parser = parse_decode_label)]
    pub from: Encoding,

    /// Input files; `-` is stdin (the default).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// List at most N errors per input (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_errors: u64,

    /// Decode without BOM handling.
    #[arg(long)]
    pub no_bom_sniff: bool,

    /// Print a JSON array, one object per input.
    #[arg(long)]
    pub json: bool,
}

const SNIFF_EXAMPLES: &str = "\
Examples:
  textcodec sniff examples/shift_jis.html
  textcodec sniff --content-type 'text/html; charset=euc-kr' page.html
  textcodec sniff --kind css --default iso-8859-2 style.css
  curl -s https://example.com/ | textcodec sniff --locale ja-JP --json

The report gives the encoding, the HTML parser's confidence (certain, tentative, or
irrelevant for XML, CSS and JSON), and what decided: a byte order mark, a user override,
the transport layer's charset (--content-type), a <meta> found by the HTML prescan, an XML
declaration, a CSS @charset rule, statistical detection (HTML and plain text: the
step the HTML Standard allows after the <meta> prescan, \"autodetect the character
encoding using frequency analysis\"; --no-detect turns it off), the fallback
(--default), the locale default or the default. The BOM, <meta> prescan and declarations
look at the first 1024 bytes; detection at up to the first 64 KiB.

The rules follow the resource kind: --kind, else the --content-type's MIME type, else the
file name's extension (.html .htm .xhtml .xml .svg .css .json .txt), else HTML.";

#[derive(Args, Debug, Clone)]
pub struct SniffSettings {
    /// The kind of resource, which selects the rules.
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Option<KindArg>,

    /// The Content-Type the bytes came with, e.g. 'text/html; charset=shift_jis'.
    #[arg(long, value_name = "TYPE")]
    pub content_type: Option<String>,

    /// The fallback encoding: the parent document's (HTML, text) or the referring
    /// document's (CSS).
    #[arg(long = "default", value_name = "LABEL", value_parser = parse_decode_label)]
    pub fallback: Option<Encoding>,

    /// The user's locale (a language tag such as ja-JP) for the HTML default table.
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,

    /// An encoding the user chose (wins over everything but a BOM; HTML, text, XML).
    #[arg(long = "override", value_name = "LABEL", value_parser = parse_decode_label)]
    pub user_override: Option<Encoding>,

    /// Skip statistical detection: with nothing in the bytes or headers, use the fallback,
    /// the locale default or the default (what the HTML Standard requires without it).
    #[arg(long)]
    pub no_detect: bool,

    /// The top-level domain the bytes came from (e.g. jp, ru, com): a hint for detection.
    #[arg(long, value_name = "TLD")]
    pub tld: Option<String>,
}

/// `--kind`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindArg {
    /// The HTML Standard's encoding sniffing algorithm.
    Html,
    /// XML 1.0 Appendix F.
    Xml,
    /// CSS Syntax: BOM, HTTP charset, @charset, referrer, UTF-8.
    Css,
    /// Plain text: the HTML algorithm without the <meta> prescan.
    Text,
    /// JSON: UTF-8 only.
    Json,
}

#[derive(Args, Debug)]
#[command(after_help = SNIFF_EXAMPLES)]
pub struct SniffArgs {
    /// Input files; `-` is stdin (the default).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    #[command(flatten)]
    pub settings: SniffSettings,

    /// Print a JSON array, one object per input.
    #[arg(long)]
    pub json: bool,
}

const DETECT_EXAMPLES: &str = "\
Examples:
  textcodec detect examples/shift_jis.txt
  textcodec detect --tld ru --top 3 old-page.html
  textcodec detect --allow windows-1251,koi8-r,ibm866 old.txt
  cat subtitles.srt | textcodec detect --json

Prints the encoding, the confidence (the probability that decoding with it gives the
text: calibrated, so that of guesses with confidence 0.9 about nine in ten are right) and
the language where the model knows it. Bytes that are binary data (an image, an archive,
an executable: a known signature, or control bytes no text has) are reported as not text.
Only the bytes are looked at: no BOM, header or <meta> (see `textcodec sniff` for what a
browser does). Candidates: UTF-8, the single-byte encodings, GBK, gb18030, Big5, EUC-JP,
ISO-2022-JP, Shift_JIS, EUC-KR, and UTF-16LE/BE without a byte order mark. --top N lists
the N best candidates with their confidence and score; an encoding whose decoder finds a
malformed sequence, or that --allow/--deny/--no-utf8 rule out, is ranked last
(\"disqualified\"). The margin is the guess's score minus the runner-up's. Each input is
read to its end or until the detector has seen enough (\"stopped early\").";

#[derive(Args, Debug)]
#[command(after_help = DETECT_EXAMPLES)]
pub struct DetectArgs {
    /// Input files; `-` is stdin (the default).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// The top-level domain the bytes came from (e.g. jp, ru, com), as a hint.
    #[arg(long, value_name = "TLD")]
    pub tld: Option<String>,

    /// The user's locale (a language tag such as ja-JP), as a hint.
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,

    /// Never guess UTF-8 (as browsers do for documents from the network).
    #[arg(long)]
    pub no_utf8: bool,

    /// Only these encodings may be the answer (labels, comma-separated).
    #[arg(long, value_name = "LABELS", value_delimiter = ',', value_parser = parse_decode_label)]
    pub allow: Vec<Encoding>,

    /// These encodings may not be the answer (labels, comma-separated).
    #[arg(long, value_name = "LABELS", value_delimiter = ',', value_parser = parse_decode_label)]
    pub deny: Vec<Encoding>,

    /// Also show the ranking: the N best candidates under the guess (0: all,
    /// disqualified ones included).
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,

    /// Print a JSON array, one object per input.
    #[arg(long)]
    pub json: bool,
}

const LIST_EXAMPLES: &str = "\
Examples:
  textcodec list
  textcodec list latin1
  textcodec list --json | jq '.[].name'
  textcodec list --kernels

`--kernels` lists the SIMD kernel levels of this build's target: the values the
environment variable TEXTCODEC_KERNEL accepts to cap the level (for measurements and
tests), which of them this CPU supports, and which one is in use. An unknown
TEXTCODEC_KERNEL value is a usage error.";

#[derive(Args, Debug)]
#[command(after_help = LIST_EXAMPLES)]
pub struct ListArgs {
    /// Show only the encoding this label names (exit 1 if it names none).
    #[arg(value_name = "LABEL")]
    pub label: Option<String>,

    /// Print JSON.
    #[arg(long)]
    pub json: bool,

    /// List the SIMD kernel levels instead: which this CPU supports, which is in use.
    #[arg(long, conflicts_with = "label")]
    pub kernels: bool,
}

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  textcodec completions bash > ~/.local/share/bash-completion/completions/textcodec
  textcodec completions zsh > ~/.zfunc/_textcodec
  textcodec completions fish > ~/.config/fish/completions/textcodec.fish";

#[derive(Args, Debug)]
#[command(after_help = COMPLETIONS_EXAMPLES)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
