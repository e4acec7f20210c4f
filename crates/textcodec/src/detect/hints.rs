//! [`Hints`]: what the caller knows of the input's origin, and which encodings may be
//! the answer.

use super::candidates::{Region, SINGLE};
#[cfg(doc)]
use super::Candidate;
use crate::Encoding;

/// Hints about the input's origin.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hints<'a> {
    /// The top-level domain of the URL the bytes came from, e.g. `b"jp"` (ASCII
    /// case-insensitive; a leading dot is ignored).
    pub tld: Option<&'a [u8]>,
    /// Whether UTF-8 is an allowed answer (`Default` gives `false`; [`Hints::new`] `true`).
    pub allow_utf8: bool,
    /// The user's locale as a language tag (`ja-JP`, `zh-Hant`, `ru`).
    pub locale: Option<&'a str>,
    /// Only these encodings may be the answer (`None`: every candidate). The others rank
    /// as disqualified ([`Candidate::excluded`]). Twins that decode alike are separate
    /// candidates: list GBK and gb18030, or ISO-8859-8 and ISO-8859-8-I, to allow both.
    pub allow: Option<&'a [Encoding]>,
    /// These encodings may not be the answer (they rank as disqualified, as with
    /// [`Hints::allow`]). `&[Encoding::Utf16Le, Encoding::Utf16Be]` turns off the
    /// recognition of UTF-16 without a byte order mark.
    pub deny: &'a [Encoding],
}

impl<'a> Hints<'a> {
    /// No TLD, no locale, every candidate allowed (UTF-8 included).
    pub fn new() -> Self {
        Hints {
            tld: None,
            allow_utf8: true,
            locale: None,
            allow: None,
            deny: &[],
        }
    }

    /// These hints with only `encodings` allowed ([`Hints::allow`]).
    ///
    /// ```
    /// use textcodec::detect::{detect, Hints};
    /// use textcodec::Encoding;
    /// let bytes = b"\xcf\xf0\xe8\xe2\xe5\xf2"; // "Привет" in windows-1251
    /// let only = [Encoding::Koi8R, Encoding::Iso8859_5];
    /// let guess = detect(bytes, &Hints::new().allowing(&only));
    /// assert!(only.contains(&guess.encoding));
    /// ```
    pub fn allowing(self, encodings: &'a [Encoding]) -> Self {
        Hints {
            allow: Some(encodings),
            ..self
        }
    }

    /// These hints with `encodings` denied ([`Hints::deny`]).
    pub fn denying(self, encodings: &'a [Encoding]) -> Self {
        Hints {
            deny: encodings,
            ..self
        }
    }

    /// Whether `encoding` may be the answer.
    pub fn allows(&self, encoding: Encoding) -> bool {
        (encoding != Encoding::Utf8 || self.allow_utf8)
            && self.allow.is_none_or(|a| a.contains(&encoding))
            && !self.deny.contains(&encoding)
    }

    pub(super) fn region(&self) -> Option<Region> {
        self.tld
            .and_then(Region::for_tld)
            .or_else(|| self.locale.and_then(Region::for_locale))
    }

    /// The encoding assumed when the bytes give no evidence (ASCII only): the region's,
    /// or if that is not allowed, the first allowed ASCII-compatible candidate.
    pub(super) fn default_encoding(&self) -> Encoding {
        let wanted = if let Some(region) = self.tld.and_then(Region::for_tld) {
            region.default_encoding()
        } else {
            match self.locale {
                Some(tag) => crate::sniff::default_for_locale(tag),
                None => Encoding::Windows1252,
            }
        };
        if self.allows(wanted) {
            return wanted;
        }
        SINGLE
            .iter()
            .chain(&[
                Encoding::Utf8,
                Encoding::Gbk,
                Encoding::Gb18030,
                Encoding::Big5,
                Encoding::EucJp,
                Encoding::ShiftJis,
                Encoding::EucKr,
                Encoding::Iso2022Jp,
            ])
            .copied()
            .find(|&e| self.allows(e))
            .unwrap_or(wanted)
    }
}
