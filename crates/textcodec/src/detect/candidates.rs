//! The candidate encodings, their priors, and the hints (top-level domain, locale) that
//! shift them.

use crate::Encoding;

/// The 28 single-byte candidates, most common on the web first: ties (the same decoded
/// text) go to the earlier one.
pub(crate) const SINGLE: [Encoding; 28] = [
    Encoding::Windows1252,
    Encoding::Windows1251,
    Encoding::Windows1250,
    Encoding::Windows1256,
    Encoding::Windows1254,
    Encoding::Windows1253,
    Encoding::Windows1255,
    Encoding::Windows874,
    Encoding::Windows1257,
    Encoding::Windows1258,
    Encoding::Koi8R,
    Encoding::Iso8859_2,
    Encoding::Iso8859_15,
    Encoding::Koi8U,
    Encoding::Iso8859_7,
    Encoding::Iso8859_8,
    Encoding::Iso8859_8I,
    Encoding::Iso8859_5,
    Encoding::Iso8859_6,
    Encoding::Ibm866,
    Encoding::XMacCyrillic,
    Encoding::Macintosh,
    Encoding::Iso8859_13,
    Encoding::Iso8859_4,
    Encoding::Iso8859_16,
    Encoding::Iso8859_10,
    Encoding::Iso8859_14,
    Encoding::Iso8859_3,
];

/// The decoders run for the multi-byte candidates (GBK and gb18030 decode alike: one
/// decoder serves both).
pub(crate) const MULTI: [Encoding; 7] = [
    Encoding::Utf8,
    Encoding::Gb18030,
    Encoding::Big5,
    Encoding::EucJp,
    Encoding::Iso2022Jp,
    Encoding::ShiftJis,
    Encoding::EucKr,
];

/// Which script model scores a single-byte encoding's text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Group {
    Western,
    Central,
    Turkish,
    Baltic,
    Vietnamese,
    Cyrillic,
    Greek,
    Hebrew,
    Arabic,
    Thai,
}

pub(crate) const fn group(encoding: Encoding) -> Group {
    use Encoding::*;
    match encoding {
        Windows1251 | Koi8R | Koi8U | Iso8859_5 | Ibm866 | XMacCyrillic => Group::Cyrillic,
        Windows1253 | Iso8859_7 => Group::Greek,
        Windows1255 | Iso8859_8 | Iso8859_8I => Group::Hebrew,
        Windows1256 | Iso8859_6 => Group::Arabic,
        Windows874 => Group::Thai,
        Windows1250 | Iso8859_2 | Iso8859_16 => Group::Central,
        Windows1254 | Iso8859_3 => Group::Turkish,
        Windows1257 | Iso8859_13 | Iso8859_4 | Iso8859_10 => Group::Baltic,
        Windows1258 => Group::Vietnamese,
        _ => Group::Western,
    }
}

/// A region of the world whose legacy encodings a hint favours.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Region {
    Western,
    Central,
    Cyrillic,
    Greek,
    Turkish,
    Hebrew,
    Arabic,
    Baltic,
    Vietnamese,
    Thai,
    Japanese,
    SimplifiedChinese,
    TraditionalChinese,
    Korean,
}

impl Region {
    /// The region's usual legacy encoding (what ASCII-only input is guessed as).
    pub(crate) fn default_encoding(self) -> Encoding {
        use Encoding::*;
        match self {
            Region::Western => Windows1252,
            Region::Central => Windows1250,
            Region::Cyrillic => Windows1251,
            Region::Greek => Windows1253,
            Region::Turkish => Windows1254,
            Region::Hebrew => Windows1255,
            Region::Arabic => Windows1256,
            Region::Baltic => Windows1257,
            Region::Vietnamese => Windows1258,
            Region::Thai => Windows874,
            Region::Japanese => ShiftJis,
            Region::SimplifiedChinese => Gbk,
            Region::TraditionalChinese => Big5,
            Region::Korean => EucKr,
        }
    }

    /// Whether the region's content commonly uses `encoding`.
    pub(crate) fn favours(self, encoding: Encoding) -> bool {
        use Encoding::*;
        matches!(
            (self, encoding),
            (Region::Western, Windows1252 | Iso8859_15 | Macintosh)
                | (Region::Central, Windows1250 | Iso8859_2 | Iso8859_16)
                | (
                    Region::Cyrillic,
                    Windows1251 | Koi8R | Koi8U | Iso8859_5 | Ibm866 | XMacCyrillic
                )
                | (Region::Greek, Windows1253 | Iso8859_7)
                | (Region::Turkish, Windows1254 | Iso8859_3)
                | (Region::Hebrew, Windows1255 | Iso8859_8 | Iso8859_8I)
                | (Region::Arabic, Windows1256 | Iso8859_6)
                | (
                    Region::Baltic,
                    Windows1257 | Iso8859_13 | Iso8859_4 | Iso8859_10
                )
                | (Region::Vietnamese, Windows1258)
                | (Region::Thai, Windows874)
                | (Region::Japanese, ShiftJis | EucJp | Iso2022Jp)
                | (Region::SimplifiedChinese, Gbk | Gb18030)
                | (Region::TraditionalChinese, Big5)
                | (Region::Korean, EucKr)
        )
    }

    /// The region of a top-level domain (ASCII case-insensitive), if it has one other than
    /// the generic West.
    pub(crate) fn for_tld(tld: &[u8]) -> Option<Region> {
        let mut buf = [0u8; 8];
        let tld = tld.strip_prefix(b".").unwrap_or(tld);
        if tld.len() > buf.len() {
            return None;
        }
        for (d, s) in buf.iter_mut().zip(tld) {
            *d = s.to_ascii_lowercase();
        }
        let tld = buf.get(..tld.len())?;
        Some(match tld {
            b"jp" => Region::Japanese,
            b"cn" => Region::SimplifiedChinese,
            b"tw" | b"hk" | b"mo" => Region::TraditionalChinese,
            b"kr" => Region::Korean,
            b"ru" | b"su" | b"ua" | b"by" | b"kz" | b"bg" | b"mk" | b"rs" | b"kg" | b"tj"
            | b"mn" | b"xn--p1ai" => Region::Cyrillic,
            b"pl" | b"cz" | b"sk" | b"hu" | b"si" | b"hr" | b"ro" | b"ba" | b"al" => {
                Region::Central
            }
            b"gr" | b"cy" => Region::Greek,
            b"tr" | b"az" => Region::Turkish,
            b"il" => Region::Hebrew,
            b"sa" | b"ae" | b"eg" | b"iq" | b"jo" | b"kw" | b"lb" | b"ly" | b"om" | b"qa"
            | b"sy" | b"ye" | b"ir" | b"af" | b"pk" | b"dz" | b"tn" | b"bh" | b"sd" | b"ps" => {
                Region::Arabic
            }
            b"lt" | b"lv" | b"ee" => Region::Baltic,
            b"vn" => Region::Vietnamese,
            b"th" => Region::Thai,
            b"fr" | b"de" | b"es" | b"it" | b"nl" | b"be" | b"at" | b"ch" | b"dk" | b"se"
            | b"no" | b"fi" | b"is" | b"pt" | b"br" | b"mx" | b"ar" | b"uk" | b"ie" | b"ca"
            | b"us" | b"au" | b"nz" | b"cl" | b"co" | b"pe" => Region::Western,
            _ => return None,
        })
    }

    /// The region of a BCP 47-ish language tag (`ja`, `zh-TW`, `sr-Cyrl`, `pt_BR.UTF-8`).
    pub(crate) fn for_locale(tag: &str) -> Option<Region> {
        let mut parts = tag.split(['-', '_', '.', '@']);
        let language = parts.next()?;
        let mut lang = [0u8; 3];
        if language.len() > 3 {
            return None;
        }
        for (d, s) in lang.iter_mut().zip(language.bytes()) {
            *d = s.to_ascii_lowercase();
        }
        let lang = lang.get(..language.len())?;
        Some(match lang {
            b"ja" => Region::Japanese,
            b"zh" => {
                let traditional = parts.any(|p| {
                    ["hant", "tw", "hk", "mo"]
                        .iter()
                        .any(|t| p.eq_ignore_ascii_case(t))
                });
                if traditional {
                    Region::TraditionalChinese
                } else {
                    Region::SimplifiedChinese
                }
            }
            b"ko" => Region::Korean,
            b"ru" | b"uk" | b"be" | b"bg" | b"mk" | b"kk" | b"ky" | b"tg" | b"mn" | b"tt" => {
                Region::Cyrillic
            }
            b"sr" => {
                if parts.any(|p| p.eq_ignore_ascii_case("latn")) {
                    Region::Central
                } else {
                    Region::Cyrillic
                }
            }
            b"pl" | b"cs" | b"sk" | b"hu" | b"sl" | b"hr" | b"ro" | b"bs" | b"sq" => {
                Region::Central
            }
            b"el" => Region::Greek,
            b"tr" | b"az" => Region::Turkish,
            b"he" | b"iw" | b"yi" => Region::Hebrew,
            b"ar" | b"fa" | b"ur" | b"ps" | b"ckb" => Region::Arabic,
            b"lt" | b"lv" | b"et" => Region::Baltic,
            b"vi" => Region::Vietnamese,
            b"th" => Region::Thai,
            _ => return None,
        })
    }
}

/// The prior of each candidate, in score units: how common it is on the legacy web,
/// whatever the text. Rarer encodings must earn their place with evidence.
pub(crate) fn base_prior(encoding: Encoding) -> i32 {
    use Encoding::*;
    match encoding {
        Windows1252 | Utf8 => 0,
        Gbk | ShiftJis | Windows1251 => -4,
        Gb18030 => -5,
        EucKr | Big5 | Windows1250 => -8,
        EucJp | Windows1256 | Windows1254 | Iso8859_15 | Windows1257 => -12,
        Windows1253 | Windows1255 | Windows874 | Koi8R | Iso8859_2 => -16,
        Windows1258 | Iso8859_7 | Iso2022Jp | Iso8859_13 => -20,
        Iso8859_4 => -24,
        Koi8U | Iso8859_8 | Iso8859_5 | Ibm866 => -28,
        Iso8859_8I | Iso8859_6 | XMacCyrillic | Iso8859_16 => -32,
        // macintosh: Mac OS Roman pages were rare on the web even then.
        Macintosh => -44,
        _ => -36,
    }
}
