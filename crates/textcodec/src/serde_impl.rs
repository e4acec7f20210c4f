//! Feature `serde`: an [`Encoding`] is written as its name (#names-and-labels) and read from
//! any of its labels, as *get an encoding* (#concept-encoding-get) reads them: ASCII
//! case-insensitive, leading and trailing ASCII whitespace removed. Anything else is an
//! error that says so.
//!
//! ```
//! use textcodec::Encoding;
//! assert_eq!(serde_json::to_string(&Encoding::ShiftJis).unwrap(), r#""Shift_JIS""#);
//! let e: Encoding = serde_json::from_str(r#"" SJIS ""#).unwrap();
//! assert_eq!(e, Encoding::ShiftJis);
//! let err = serde_json::from_str::<Encoding>(r#""utf-7""#).unwrap_err();
//! assert!(err.to_string().contains("not an encoding label"), "{err}");
//! ```
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use core::fmt;

use ::serde::de::{self, Deserialize, Deserializer, Visitor};
use ::serde::ser::{Serialize, Serializer};

use crate::Encoding;

impl Serialize for Encoding {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

struct LabelVisitor;

impl Visitor<'_> for LabelVisitor {
    type Value = Encoding;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "an encoding label of the WHATWG Encoding Standard, such as \"utf-8\" or \"shift_jis\"",
        )
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Encoding, E> {
        self.visit_bytes(v.as_bytes())
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Encoding, E> {
        Encoding::for_label(v).ok_or_else(|| E::custom(NotALabel(v)))
    }
}

/// The error message for a string that is not a label: the string (escaped, cut at 64
/// bytes) and what was expected.
struct NotALabel<'a>(&'a [u8]);

impl fmt::Display for NotALabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = self.0.get(..self.0.len().min(64)).unwrap_or_default();
        write!(f, "\"{}", shown.escape_ascii())?;
        if shown.len() < self.0.len() {
            write!(f, "…")?;
        }
        write!(
            f,
            "\" is not an encoding label of the WHATWG Encoding Standard (e.g. \"utf-8\", \"shift_jis\", \"windows-1252\")"
        )
    }
}

impl<'de> Deserialize<'de> for Encoding {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Encoding, D::Error> {
        deserializer.deserialize_str(LabelVisitor)
    }
}
