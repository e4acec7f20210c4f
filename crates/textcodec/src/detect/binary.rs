//! Input that is not text: the MIME Sniffing Standard's *binary data bytes*
//! (<https://mimesniff.spec.whatwg.org/#binary-data-byte>), which no text has, and the
//! signatures of common binary formats (the patterns of
//! <https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern>,
//! <https://mimesniff.spec.whatwg.org/#matching-an-archive-type-pattern> and
//! <https://mimesniff.spec.whatwg.org/#matching-an-audio-or-video-type-pattern>, plus
//! executables and compressors the Standard does not list).

/// Why the detector took the input for binary data rather than text
/// ([`super::Guess::binary`]).
#[non_exhaustive]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Binary {
    /// PNG image (`89 50 4E 47 0D 0A 1A 0A`).
    Png,
    /// GIF image (`GIF87a`, `GIF89a`).
    Gif,
    /// JPEG image (`FF D8 FF`).
    Jpeg,
    /// WebP image (`RIFF` … `WEBP`).
    Webp,
    /// TIFF image (`II*\0`, `MM\0*`).
    Tiff,
    /// PDF document (`%PDF-`).
    Pdf,
    /// ZIP archive, and the formats built on it: JAR, OOXML, ODF, EPUB, APK (`PK\3\4`,
    /// `PK\5\6`, `PK\7\8`).
    Zip,
    /// gzip stream (`1F 8B 08`).
    Gzip,
    /// bzip2 stream (`BZh` + block size + block magic).
    Bzip2,
    /// xz stream (`FD 37 7A 58 5A 00`).
    Xz,
    /// Zstandard frame (`28 B5 2F FD`).
    Zstd,
    /// 7-Zip archive (`37 7A BC AF 27 1C`).
    SevenZip,
    /// RAR archive (`Rar!\x1A\x07`).
    Rar,
    /// ELF executable or object (`7F 45 4C 46`).
    Elf,
    /// Mach-O executable, or a Java class file (both `CA FE BA BE` when universal).
    MachO,
    /// WebAssembly module (`00 61 73 6D`).
    Wasm,
    /// Ogg container (`OggS\0`).
    Ogg,
    /// FLAC audio (`fLaC`).
    Flac,
    /// MP3 with an ID3v2 tag (`ID3` + version).
    Mp3,
    /// ISO base media file (MP4, MOV, HEIF, AVIF: `ftyp` at byte 4).
    Mp4,
    /// Matroska or WebM (`1A 45 DF A3`).
    Matroska,
    /// RIFF container (WAV, AVI) that is not WebP.
    Riff,
    /// SQLite database (`SQLite format 3\0`).
    Sqlite,
    /// No signature, but bytes that text does not have: binary data bytes (C0 controls
    /// other than tab, line feed, form feed, carriage return and escape) that make up
    /// more than 1 % of the input (of the code units, for UTF-16 text).
    ControlBytes,
}

impl Binary {
    /// A short name: `"PNG"`, `"gzip"`, `"control bytes"`.
    pub fn name(self) -> &'static str {
        match self {
            Binary::Png => "PNG",
            Binary::Gif => "GIF",
            Binary::Jpeg => "JPEG",
            Binary::Webp => "WebP",
            Binary::Tiff => "TIFF",
            Binary::Pdf => "PDF",
            Binary::Zip => "ZIP",
            Binary::Gzip => "gzip",
            Binary::Bzip2 => "bzip2",
            Binary::Xz => "xz",
            Binary::Zstd => "Zstandard",
            Binary::SevenZip => "7-Zip",
            Binary::Rar => "RAR",
            Binary::Elf => "ELF",
            Binary::MachO => "Mach-O",
            Binary::Wasm => "WebAssembly",
            Binary::Ogg => "Ogg",
            Binary::Flac => "FLAC",
            Binary::Mp3 => "MP3",
            Binary::Mp4 => "MP4",
            Binary::Matroska => "Matroska",
            Binary::Riff => "RIFF",
            Binary::Sqlite => "SQLite",
            Binary::ControlBytes => "control bytes",
        }
    }
}

impl core::fmt::Display for Binary {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// How many bytes of the start the signatures look at.
pub(super) const HEAD: usize = 16;

/// Whether `b` is a binary data byte (MIME Sniffing Standard, "binary data byte":
/// 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F).
#[inline(always)]
pub(super) const fn is_binary_data_byte(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F)
}

/// The format whose signature starts `head` (the first bytes of the input, at most
/// [`HEAD`]).
pub(super) fn signature(head: &[u8]) -> Option<Binary> {
    let starts = |p: &[u8]| head.starts_with(p);
    let at = |offset: usize, p: &[u8]| {
        head.get(offset..offset.saturating_add(p.len()))
            .is_some_and(|s| s == p)
    };
    Some(if starts(b"\x89PNG\r\n\x1a\n") {
        Binary::Png
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        Binary::Gif
    } else if starts(b"\xff\xd8\xff") {
        Binary::Jpeg
    } else if starts(b"RIFF") && at(8, b"WEBP") {
        Binary::Webp
    } else if starts(b"RIFF") && head.len() >= 12 {
        Binary::Riff
    } else if starts(b"II*\0") || starts(b"MM\0*") {
        Binary::Tiff
    } else if starts(b"%PDF-") {
        Binary::Pdf
    } else if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") || starts(b"PK\x07\x08") {
        Binary::Zip
    } else if starts(b"\x1f\x8b\x08") {
        Binary::Gzip
    } else if starts(b"BZh")
        && head.get(3).is_some_and(|d| (b'1'..=b'9').contains(d))
        && (at(4, b"1AY&SY") || at(4, b"\x17\x72\x45\x38\x50\x90"))
    {
        Binary::Bzip2
    } else if starts(b"\xfd7zXZ\0") {
        Binary::Xz
    } else if starts(b"\x28\xb5\x2f\xfd") {
        Binary::Zstd
    } else if starts(b"7z\xbc\xaf\x27\x1c") {
        Binary::SevenZip
    } else if starts(b"Rar!\x1a\x07") {
        Binary::Rar
    } else if starts(b"\x7fELF") {
        Binary::Elf
    } else if starts(b"\xfe\xed\xfa\xce")
        || starts(b"\xfe\xed\xfa\xcf")
        || starts(b"\xce\xfa\xed\xfe")
        || starts(b"\xcf\xfa\xed\xfe")
        || starts(b"\xca\xfe\xba\xbe")
    {
        Binary::MachO
    } else if starts(b"\0asm") {
        Binary::Wasm
    } else if starts(b"OggS\0") {
        Binary::Ogg
    } else if starts(b"fLaC") {
        Binary::Flac
    } else if starts(b"ID3") && head.get(3).is_some_and(|v| (2..=4).contains(v)) {
        Binary::Mp3
    } else if at(4, b"ftyp") {
        Binary::Mp4
    } else if starts(b"\x1a\x45\xdf\xa3") {
        Binary::Matroska
    } else if starts(b"SQLite format 3\0") {
        Binary::Sqlite
    } else {
        return None;
    })
}
