//! <https://encoding.spec.whatwg.org/#names-and-labels> and
//! <https://encoding.spec.whatwg.org/#output-encodings>
//!
//! The [`Encoding`] type: the 40 encodings, their names and labels, and the queries callers
//! need before choosing a decoder or encoder.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

#[rustfmt::skip]
mod generated;

pub use generated::Encoding;
pub(crate) use generated::{LABELS, LABEL_HASH_SEED, LABEL_MAX_PROBES, LABEL_SLOTS, MAX_LABEL_LEN};

use crate::index::{single_byte, SingleByteIndex, SingleByteTables};

impl Encoding {
    /// Every encoding, in the order of the Standard's table (#names-and-labels).
    ///
    /// ```
    /// assert_eq!(textcodec::Encoding::all().len(), 40);
    /// ```
    pub fn all() -> &'static [Encoding] {
        &generated::ALL
    }

    /// Every label with the encoding it names, sorted by label (228 pairs).
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert!(Encoding::labels().contains(&("sjis", Encoding::ShiftJis)));
    /// ```
    pub fn labels() -> &'static [(&'static str, Encoding)] {
        &generated::LABELS
    }

    /// This encoding's labels, in ascending order.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert_eq!(Encoding::Utf16Be.own_labels().collect::<Vec<_>>(), ["unicodefffe", "utf-16be"]);
    /// ```
    pub fn own_labels(self) -> impl Iterator<Item = &'static str> {
        generated::LABELS
            .iter()
            .filter(move |l| l.1 == self)
            .map(|l| l.0)
    }

    /// The encoding's name as the Standard spells it (e.g. `"Shift_JIS"`, `"windows-1252"`).
    ///
    /// ```
    /// assert_eq!(textcodec::Encoding::EucKr.name(), "EUC-KR");
    /// ```
    pub fn name(self) -> &'static str {
        // The generated table has one entry per variant, in declaration order (the
        // `names` tests check every one): `get` never misses.
        generated::NAMES
            .get(self as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The name, ASCII-lowercased: what `TextDecoder.encoding` returns (#dom-textdecoder-encoding).
    ///
    /// ```
    /// assert_eq!(textcodec::Encoding::ShiftJis.lowercase_name(), "shift_jis");
    /// ```
    pub fn lowercase_name(self) -> &'static str {
        // The generated table has one entry per variant, in declaration order (the
        // `names` tests check every one): `get` never misses.
        generated::LOWERCASE_NAMES
            .get(self as usize)
            .copied()
            .unwrap_or_default()
    }

    /// <https://encoding.spec.whatwg.org/#concept-encoding-get>: the encoding for a label,
    /// after removing leading and trailing ASCII whitespace and comparing ASCII
    /// case-insensitively; `None` (failure) for anything else. Never allocates.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert_eq!(Encoding::for_label(b"\t UTF8\n"), Some(Encoding::Utf8));
    /// assert_eq!(Encoding::for_label(b"utf-16"), Some(Encoding::Utf16Le));
    /// assert_eq!(Encoding::for_label(b"utf 8"), None);
    /// ```
    #[inline]
    pub fn for_label(label: &[u8]) -> Option<Encoding> {
        crate::label::get_an_encoding(label)
    }

    /// [`Encoding::for_label`] for a `&str` label.
    ///
    /// ```
    /// assert_eq!(textcodec::Encoding::for_label_str("Latin1"), Some(textcodec::Encoding::Windows1252));
    /// ```
    #[inline]
    pub fn for_label_str(label: &str) -> Option<Encoding> {
        crate::label::get_an_encoding(label.as_bytes())
    }

    /// <https://encoding.spec.whatwg.org/#get-an-output-encoding>: replacement and UTF-16BE/LE
    /// become UTF-8; every other encoding is returned as is.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert_eq!(Encoding::Utf16Le.output_encoding(), Encoding::Utf8);
    /// assert_eq!(Encoding::Gbk.output_encoding(), Encoding::Gbk);
    /// ```
    pub fn output_encoding(self) -> Encoding {
        match self {
            Encoding::Replacement | Encoding::Utf16Be | Encoding::Utf16Le => Encoding::Utf8,
            other => other,
        }
    }

    /// Whether the Standard defines an encoder for this encoding (all but replacement and
    /// UTF-16BE/LE, #encoders-and-decoders). textcodec also offers UTF-16 encoders as a
    /// documented extension ([`crate::Encoder::new`]); they do not count here.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert!(Encoding::Iso2022Jp.has_encoder());
    /// assert!(!Encoding::Replacement.has_encoder());
    /// ```
    pub fn has_encoder(self) -> bool {
        self.output_encoding() == self
    }

    /// Whether every ASCII byte decodes to the same ASCII code point in every state, and every
    /// ASCII code point encodes to that byte: true for all encodings but UTF-16BE/LE,
    /// ISO-2022-JP and replacement. Such encodings can be sniffed and parsed as ASCII.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert!(Encoding::ShiftJis.is_ascii_compatible());
    /// assert!(!Encoding::Iso2022Jp.is_ascii_compatible());
    /// ```
    pub fn is_ascii_compatible(self) -> bool {
        !matches!(
            self,
            Encoding::Utf16Be | Encoding::Utf16Le | Encoding::Iso2022Jp | Encoding::Replacement
        )
    }

    /// Whether this is one of the 28 *single-byte encodings* (#legacy-single-byte-encodings).
    /// x-user-defined is technically single-byte too but the Standard defines it separately;
    /// [`Encoding::is_single_byte`] is false for it.
    ///
    /// ```
    /// use textcodec::Encoding;
    /// assert!(Encoding::Koi8U.is_single_byte());
    /// assert!(!Encoding::XUserDefined.is_single_byte());
    /// ```
    pub fn is_single_byte(self) -> bool {
        self.single_byte_index().is_some()
    }

    /// Whether this is UTF-16BE or UTF-16LE (*UTF-16BE/LE*).
    pub fn is_utf16(self) -> bool {
        matches!(self, Encoding::Utf16Be | Encoding::Utf16Le)
    }

    /// The tables of a single-byte encoding's *index single-byte* (in the `compact` build,
    /// built on first use).
    pub(crate) fn single_byte_tables(self) -> Option<&'static SingleByteTables> {
        self.single_byte_index().map(SingleByteIndex::tables)
    }

    /// The *index single-byte* of a single-byte encoding.
    pub(crate) const fn single_byte_index(self) -> Option<&'static SingleByteIndex> {
        use Encoding::*;
        Some(match self {
            Ibm866 => &single_byte::IBM866,
            Iso8859_2 => &single_byte::ISO_8859_2,
            Iso8859_3 => &single_byte::ISO_8859_3,
            Iso8859_4 => &single_byte::ISO_8859_4,
            Iso8859_5 => &single_byte::ISO_8859_5,
            Iso8859_6 => &single_byte::ISO_8859_6,
            Iso8859_7 => &single_byte::ISO_8859_7,
            // ISO-8859-8 and ISO-8859-8-I share index ISO-8859-8.
            Iso8859_8 | Iso8859_8I => &single_byte::ISO_8859_8,
            Iso8859_10 => &single_byte::ISO_8859_10,
            Iso8859_13 => &single_byte::ISO_8859_13,
            Iso8859_14 => &single_byte::ISO_8859_14,
            Iso8859_15 => &single_byte::ISO_8859_15,
            Iso8859_16 => &single_byte::ISO_8859_16,
            Koi8R => &single_byte::KOI8_R,
            Koi8U => &single_byte::KOI8_U,
            Macintosh => &single_byte::MACINTOSH,
            Windows874 => &single_byte::WINDOWS_874,
            Windows1250 => &single_byte::WINDOWS_1250,
            Windows1251 => &single_byte::WINDOWS_1251,
            Windows1252 => &single_byte::WINDOWS_1252,
            Windows1253 => &single_byte::WINDOWS_1253,
            Windows1254 => &single_byte::WINDOWS_1254,
            Windows1255 => &single_byte::WINDOWS_1255,
            Windows1256 => &single_byte::WINDOWS_1256,
            Windows1257 => &single_byte::WINDOWS_1257,
            Windows1258 => &single_byte::WINDOWS_1258,
            XMacCyrillic => &single_byte::X_MAC_CYRILLIC,
            Utf8 | Gbk | Gb18030 | Big5 | EucJp | Iso2022Jp | ShiftJis | EucKr | Replacement
            | Utf16Be | Utf16Le | XUserDefined => return None,
        })
    }
}

impl core::fmt::Display for Encoding {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
