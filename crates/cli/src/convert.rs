//! `textcodec convert`.
//!
//! Several inputs: each is decoded on its own (its own decoder, its own BOM sniff, its own
//! byte offsets and line numbers in messages) and the texts are encoded one after the other
//! as a single stream, so the output is the encoding of the concatenated text (ISO-2022-JP
//! returns to ASCII only at the very end). `--add-bom` writes one BOM at the start. With
//! `--in-place`, each file is converted separately and replaced atomically.

use textcodec::{BomHandling, EncodeErrorMode, EncodeStatus, Encoder, Encoding};

use crate::cli::{ConvertArgs, DecodeErrors, EncodeErrors, FromArg, SniffSettings};
use crate::failure::{note, warn, Failure};
use crate::input::{identity_of, read_buffer_size, Input};
use crate::output::{install_signal_handler, AtomicFile, Destination};
use crate::position::Tracker;
use crate::progress::Progress;
use crate::sniff::{read_prefix, sniff_prefix};
use crate::stream::{
    decode_input, decoder_for, fatal_decoder, Buffers, DecodeRun, Malformed, Resume, TextSink,
};

pub fn run(args: ConvertArgs, quiet: bool) -> Result<(), Failure> {
    if args.add_bom
        && !matches!(
            args.to,
            Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be
        )
    {
        return Err(Failure::Usage(format!(
            "--add-bom needs UTF-8, UTF-16LE or UTF-16BE output, not {}",
            args.to.name()
        )));
    }
    let inputs = Input::from_operands(&args.inputs);
    let identities: Vec<Option<(u64, u64)>> = inputs.iter().map(Input::identity).collect();
    let input_named = |id: (u64, u64)| {
        inputs
            .iter()
            .zip(&identities)
            .find(|(_, i)| **i == Some(id))
            .map(|(input, _)| input.name())
    };
    let output = args.output.as_ref().filter(|p| p.as_os_str() != "-");

    if args.in_place {
        if inputs.iter().any(|i| matches!(i, Input::Stdin)) {
            return Err(Failure::Usage(
                "--in-place needs input files, not stdin".to_string(),
            ));
        }
        // Converting a file twice would convert the converted text again.
        for (i, id) in identities.iter().enumerate() {
            if id.is_some() && identities[..i].contains(id) {
                return Err(Failure::Usage(format!(
                    "--in-place: {} is given more than once",
                    inputs[i].name()
                )));
            }
        }
    } else if let Some(target) = output {
        let target_id = std::fs::metadata(target)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| {
                use std::os::unix::fs::MetadataExt;
                (m.dev(), m.ino())
            });
        if let Some(name) = target_id.and_then(input_named) {
            return Err(Failure::Usage(format!(
                "refusing to overwrite input file {name} (use --in-place to convert it in place)"
            )));
        }
    } else {
        let stdout = Destination::stdout()?;
        if let Destination::Stdout(f) = &stdout {
            if let Some(name) = identity_of(f).and_then(input_named) {
                return Err(Failure::Usage(format!(
                    "input file {name} is also the standard output"
                )));
            }
        }
    }

    install_signal_handler();
    let settings = Settings {
        from: args.from,
        sniffing: args.sniffing.clone(),
        to: args.to,
        bom_sniff: !args.no_bom_sniff,
        decode_errors: args.decode_errors,
        encode_errors: args.encode_errors,
        add_bom: args.add_bom,
        quiet,
    };
    let read_size = read_buffer_size();
    let mut buffers = Buffers::new(read_size);

    if args.in_place {
        let mut failed = false;
        for input in &inputs {
            let Some(path) = input.path() else { continue };
            let result = AtomicFile::create(path).and_then(|temp| {
                convert(
                    std::slice::from_ref(input),
                    Destination::Atomic(temp),
                    &settings,
                    &mut buffers,
                    read_size,
                )
            });
            match result {
                Ok(()) => {}
                Err(Failure::Data(message)) => {
                    eprintln!(
                        "textcodec: error: {message} ({} left unchanged)",
                        input.name()
                    );
                    failed = true;
                }
                Err(other) => return Err(other),
            }
        }
        return if failed {
            Err(Failure::Reported)
        } else {
            Ok(())
        };
    }

    let destination = match output {
        Some(target) => Destination::for_path(target)?,
        None => Destination::stdout()?,
    };
    convert(&inputs, destination, &settings, &mut buffers, read_size)
}

struct Settings {
    from: FromArg,
    sniffing: SniffSettings,
    to: Encoding,
    bom_sniff: bool,
    decode_errors: DecodeErrors,
    encode_errors: EncodeErrors,
    add_bom: bool,
    quiet: bool,
}

/// Converts `inputs` into `destination`, committing it only on success.
fn convert(
    inputs: &[Input],
    destination: Destination,
    settings: &Settings,
    buffers: &mut Buffers,
    read_size: usize,
) -> Result<(), Failure> {
    // The library's fatal mode: html and replace are done here, so each unencodable
    // character's position is known (the output is the same as the library's modes).
    let encoder = Encoder::new(settings.to, EncodeErrorMode::Fatal)
        .ok_or_else(|| Failure::Usage(format!("{} has no encoder", settings.to.name())))?;
    let out_size = if read_size >= 4096 {
        read_size * 2
    } else {
        read_size.max(32)
    };
    let mut sink = EncodeSink {
        encoder,
        mode: settings.encode_errors,
        out: vec![0; out_size],
        out_len: 0,
        destination,
        unmappables: 0,
        first_unmappable: None,
    };
    if settings.add_bom {
        sink.write_text("\u{FEFF}", &Tracker::default(), "<bom>", false)?;
    }
    let total = inputs.iter().try_fold(0u64, |sum, input| match input {
        Input::File(p) => std::fs::metadata(p)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| sum + m.len()),
        Input::Stdin => None,
    });
    let mut progress = Progress::new(settings.quiet, total);
    let track_columns = settings.to != Encoding::Utf8 && !settings.to.is_utf16();
    for input in inputs {
        let name = input.name();
        let mut file = input.open()?;
        let (mut decoder, prefix) = match settings.from {
            FromArg::Label(encoding) => (decoder_for(encoding, settings.bom_sniff), Vec::new()),
            FromArg::Auto => {
                let prefix = read_prefix(&mut file, &name, &settings.sniffing)?;
                let report = sniff_prefix(&prefix, &settings.sniffing, input.path());
                note(settings.quiet, &format!("{name}: {report}"));
                let bom = if settings.bom_sniff {
                    report.decoder_options().bom
                } else {
                    BomHandling::Keep
                };
                (fatal_decoder(report.encoding, bom), prefix)
            }
        };
        let from = decoder.encoding();
        let mut tracker = Tracker::new(track_columns);
        let mut replaced: u64 = 0;
        let mut first_error: Option<Malformed> = None;
        let decoded = decode_input(
            DecodeRun {
                prefix: &prefix,
                file: &mut file,
                name: &name,
                decoder: &mut decoder,
                tracker: &mut tracker,
                progress: &mut progress,
            },
            buffers,
            &mut InputSink {
                sink: &mut sink,
                name: &name,
                decode_errors: settings.decode_errors,
                replaced: &mut replaced,
                first_error: &mut first_error,
            },
        )?;
        replaced += decoded.replaced_silently;
        if decoded.encoding != from {
            note(
                settings.quiet,
                &format!(
                    "{name}: a {} byte order mark overrides --from {}",
                    decoded.encoding.name(),
                    from.name()
                ),
            );
        }
        if let Some(first) = first_error {
            let plural = if replaced == 1 { "" } else { "s" };
            warn(
                settings.quiet,
                &format!(
                    "{name}: {replaced} malformed {} byte sequence{plural} replaced with \
                     U+FFFD; the first at {}: {}",
                    first.encoding.name(),
                    first.location(),
                    first.describe()
                ),
            );
        }
    }
    sink.finish()?;
    progress.finish();
    if let Some(first) = &sink.first_unmappable {
        let n = sink.unmappables;
        let plural = if n == 1 { "" } else { "s" };
        let written = match settings.encode_errors {
            EncodeErrors::Html => "HTML character references (&#NNNN;)",
            _ => "\"?\"",
        };
        warn(
            settings.quiet,
            &format!(
                "{n} character{plural} not in {} written as {written}; the first: {first}",
                settings.to.name()
            ),
        );
    }
    sink.destination.commit()
}

/// One input's text going into the shared encoder.
struct InputSink<'a> {
    sink: &'a mut EncodeSink,
    name: &'a str,
    decode_errors: DecodeErrors,
    replaced: &'a mut u64,
    first_error: &'a mut Option<Malformed>,
}

impl TextSink for InputSink<'_> {
    fn text(&mut self, text: &str, at: &Tracker, replacement: bool) -> Result<(), Failure> {
        self.sink.write_text(text, at, self.name, replacement)
    }

    fn malformed(&mut self, malformed: &Malformed) -> Result<Resume, Failure> {
        match self.decode_errors {
            DecodeErrors::Fatal => Err(Failure::Data(format!(
                "{}: {}: {} (--decode-errors replace would write U+FFFD)",
                self.name,
                malformed.location(),
                malformed.describe()
            ))),
            DecodeErrors::Replace => {
                // Only the first error is reported: the decoder replaces the rest itself.
                *self.replaced += 1;
                if self.first_error.is_none() {
                    *self.first_error = Some(malformed.clone());
                }
                Ok(Resume::ReplaceRest)
            }
        }
    }

    fn chunk_done(&mut self) -> Result<(), Failure> {
        self.sink.flush()
    }
}

/// The encoding half: text in, bytes out through a fixed buffer.
struct EncodeSink {
    encoder: Encoder,
    mode: EncodeErrors,
    out: Vec<u8>,
    out_len: usize,
    destination: Destination,
    unmappables: u64,
    first_unmappable: Option<String>,
}

impl EncodeSink {
    /// Encodes `text`, whose first character is at `at` in input `name`. `replacement`: the
    /// text is a U+FFFD standing for a malformed sequence.
    fn write_text(
        &mut self,
        text: &str,
        at: &Tracker,
        name: &str,
        replacement: bool,
    ) -> Result<(), Failure> {
        let mut read = 0;
        loop {
            let r =
                self.encoder
                    .encode_from_utf8(&text[read..], &mut self.out[self.out_len..], false);
            read += r.read;
            self.out_len += r.written;
            match r.status {
                EncodeStatus::InputEmpty => return Ok(()),
                EncodeStatus::OutputFull => self.flush()?,
                EncodeStatus::Unmappable(u) => {
                    let c = u.character();
                    let need_position =
                        self.mode == EncodeErrors::Fatal || self.first_unmappable.is_none();
                    let what = if need_position {
                        let (line, column) = at.line_column_after(&text[..read - c.len_utf8()]);
                        let mut what =
                            format!("{} at line {line}, column {column}", describe_char(c));
                        if replacement {
                            what.push_str(" (written for a malformed byte sequence)");
                        }
                        format!("{name}: {what}")
                    } else {
                        String::new()
                    };
                    self.unmappables += 1;
                    match self.mode {
                        EncodeErrors::Fatal => {
                            return Err(Failure::Data(format!(
                                "{what} cannot be encoded in {} (use --encode-errors html or \
                                 replace)",
                                self.encoder.encoding().name()
                            )))
                        }
                        EncodeErrors::Html => {
                            let mut reference = [0u8; 16];
                            let n = html_reference(u.code_point(), &mut reference);
                            self.put(&reference[..n])?;
                        }
                        EncodeErrors::Replace => self.put(b"?")?,
                    }
                    if need_position {
                        self.first_unmappable = Some(what);
                    }
                }
            }
        }
    }

    /// Appends bytes the encoder did not write (an error's replacement).
    fn put(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        if self.out.len() - self.out_len < bytes.len() {
            self.flush()?;
        }
        self.out[self.out_len..self.out_len + bytes.len()].copy_from_slice(bytes);
        self.out_len += bytes.len();
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Failure> {
        if self.out_len > 0 {
            self.destination.write_all(&self.out[..self.out_len])?;
            self.out_len = 0;
        }
        Ok(())
    }

    /// Ends the stream (ISO-2022-JP's return to ASCII) and writes everything out.
    fn finish(&mut self) -> Result<(), Failure> {
        loop {
            let r = self
                .encoder
                .encode_from_utf8("", &mut self.out[self.out_len..], true);
            self.out_len += r.written;
            match r.status {
                EncodeStatus::OutputFull => self.flush()?,
                _ => break,
            }
        }
        self.flush()
    }
}

/// `U+00E9 'é'` (the character itself only when it is printable).
fn describe_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("U+{:04X} '{c}'", u32::from(c))
    }
}

/// `&#NNNN;` for `code_point`, into `out`; returns its length.
fn html_reference(code_point: char, out: &mut [u8; 16]) -> usize {
    let mut digits = [0u8; 10];
    let mut v = u32::from(code_point);
    let mut n = 0;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out[0] = b'&';
    out[1] = b'#';
    for i in 0..n {
        out[2 + i] = digits[n - 1 - i];
    }
    out[2 + n] = b';';
    n + 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        let mut buf = [0u8; 16];
        let n = html_reference('\u{1F4A9}', &mut buf);
        assert_eq!(&buf[..n], b"&#128169;");
        let n = html_reference('\0', &mut buf);
        assert_eq!(&buf[..n], b"&#0;");
        let n = html_reference('\u{10FFFF}', &mut buf);
        assert_eq!(&buf[..n], b"&#1114111;");
    }
}
