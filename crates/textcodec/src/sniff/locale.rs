//! The HTML Standard's table of suggested default encodings by locale (§13.2.3.2, the
//! encoding sniffing algorithm, last step): "windows-1252 is recommended as a default in
//! predominantly Western demographics" and the table lists the exceptions.

use crate::Encoding;

/// The table, by primary language subtag (lowercase). Chinese is handled separately.
const TABLE: &[(&str, Encoding)] = &[
    ("ar", Encoding::Windows1256),
    ("az", Encoding::Windows1254),
    ("be", Encoding::Windows1251),
    ("bg", Encoding::Windows1251),
    ("cs", Encoding::Windows1250),
    ("el", Encoding::Iso8859_7),
    ("et", Encoding::Windows1257),
    ("fa", Encoding::Windows1256),
    ("he", Encoding::Windows1255),
    ("hr", Encoding::Windows1250),
    ("hu", Encoding::Iso8859_2),
    ("ja", Encoding::ShiftJis),
    ("kk", Encoding::Windows1251),
    ("ko", Encoding::EucKr),
    ("ku", Encoding::Windows1254),
    ("ky", Encoding::Windows1251),
    ("lt", Encoding::Windows1257),
    ("lv", Encoding::Windows1257),
    ("mk", Encoding::Windows1251),
    ("pl", Encoding::Iso8859_2),
    ("ru", Encoding::Windows1251),
    ("sah", Encoding::Windows1251),
    ("sk", Encoding::Windows1250),
    ("sl", Encoding::Iso8859_2),
    ("sr", Encoding::Windows1251),
    ("tg", Encoding::Windows1251),
    ("th", Encoding::Windows874),
    ("tr", Encoding::Windows1254),
    ("tt", Encoding::Windows1251),
    ("uk", Encoding::Windows1251),
    ("vi", Encoding::Windows1258),
];

/// The HTML Standard's suggested default encoding for a user locale given as a BCP 47
/// language tag (`"ja"`, `"zh-TW"`, `"ru-RU"`); windows-1252 for every locale the table does
/// not list (and for the generic default).
///
/// Matching is ASCII case-insensitive on the primary language subtag. POSIX-style locale
/// names are accepted too: `_` works as a separator and a `.codeset` or `@modifier` suffix
/// is ignored (`"ja_JP.UTF-8"` is Japanese). Chinese: the table lists zh-CN → GB18030 and
/// zh-TW → Big5; here a `zh` tag with the script `Hant` or the region `TW`, `HK` or `MO`
/// gives Big5 and every other `zh` tag gives GB18030 (an interpretation).
///
/// ```
/// use textcodec::{sniff::default_for_locale, Encoding};
/// assert_eq!(default_for_locale("ja"), Encoding::ShiftJis);
/// assert_eq!(default_for_locale("zh-TW"), Encoding::Big5);
/// assert_eq!(default_for_locale("zh-Hans-CN"), Encoding::Gb18030);
/// assert_eq!(default_for_locale("ru_RU.UTF-8"), Encoding::Windows1251);
/// assert_eq!(default_for_locale("en-US"), Encoding::Windows1252);
/// assert_eq!(default_for_locale(""), Encoding::Windows1252);
/// ```
pub fn default_for_locale(language_tag: &str) -> Encoding {
    // Drop a POSIX ".codeset" or "@modifier".
    let tag = language_tag
        .split(['.', '@'])
        .next()
        .unwrap_or_default()
        .trim();
    let mut subtags = tag.split(['-', '_']);
    let language = subtags.next().unwrap_or_default();
    if language.eq_ignore_ascii_case("zh") {
        let traditional = subtags.any(|s| {
            ["hant", "tw", "hk", "mo"]
                .iter()
                .any(|t| s.eq_ignore_ascii_case(t))
        });
        return if traditional {
            Encoding::Big5
        } else {
            Encoding::Gb18030
        };
    }
    TABLE
        .iter()
        .find(|(l, _)| language.eq_ignore_ascii_case(l))
        .map_or(Encoding::Windows1252, |&(_, e)| e)
}
