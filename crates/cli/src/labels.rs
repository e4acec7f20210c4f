//! Encoding labels on the command line: resolution with the Standard's *get an encoding*,
//! and suggestions for labels that do not exist.

use textcodec::Encoding;

/// Resolves a label (ASCII case-insensitive, surrounding ASCII whitespace ignored).
pub fn resolve(label: &str) -> Result<Encoding, String> {
    Encoding::for_label_str(label).ok_or_else(|| unknown_label_message(label))
}

/// clap value parser for `--from`/`-f`.
pub fn parse_decode_label(label: &str) -> Result<Encoding, String> {
    resolve(label)
}

/// clap value parser for `--to`/`-t`: any label whose encoding can be written. The
/// Standard has no UTF-16 encoders; textcodec writes UTF-16BE/LE as an extension.
pub fn parse_encode_label(label: &str) -> Result<Encoding, String> {
    let encoding = resolve(label)?;
    if encoding == Encoding::Replacement {
        return Err(format!(
            "\"{}\" names the replacement encoding, which has no encoder (it only decodes \
             to U+FFFD)",
            label.trim()
        ));
    }
    Ok(encoding)
}

/// "unknown encoding label …; did you mean …?"
pub fn unknown_label_message(label: &str) -> String {
    let close = suggestions(label);
    let mut message = format!("unknown encoding label \"{}\"", label.trim());
    if !close.is_empty() {
        let list: Vec<String> = close
            .iter()
            .map(|(l, e)| format!("{l} ({})", e.name()))
            .collect();
        message.push_str(&format!("; did you mean {}?", list.join(", ")));
    }
    message.push_str(" (`textcodec list` shows every label)");
    message
}

/// Up to five real labels close to `label`, closest first.
pub fn suggestions(label: &str) -> Vec<(&'static str, Encoding)> {
    let query = label
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_ascii_lowercase();
    if query.is_empty() {
        return Vec::new();
    }
    let squash = |s: &str| -> String { s.chars().filter(|c| c.is_alphanumeric()).collect() };
    let query_squashed = squash(&query);
    let limit = (query.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &'static str, Encoding)> = Encoding::labels()
        .iter()
        .filter_map(|&(candidate, encoding)| {
            let d = levenshtein(&query, candidate)
                .min(levenshtein(&query_squashed, &squash(candidate)));
            (d <= limit).then_some((d, candidate, encoding))
        })
        .collect();
    // Closest first; among equals, the encoding's own name, then shorter labels.
    scored.sort_by_key(|&(d, l, e)| (d, l != e.lowercase_name(), l.len(), l));
    scored.into_iter().take(5).map(|(_, l, e)| (l, e)).collect()
}

/// Edit distance (insertions, deletions, substitutions) between two strings, by characters.
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("utf-8", "utf-8"), 0);
    }

    #[test]
    fn close_labels() {
        let s = suggestions("shiftjis");
        assert_eq!(s[0], ("shift_jis", Encoding::ShiftJis));
        assert!(suggestions("utf-32").iter().any(|(l, _)| *l == "utf-16"));
        assert!(suggestions("latin-1").iter().any(|(l, _)| *l == "latin1"));
        assert!(suggestions("zzzzzzzzzzzzzzz").is_empty());
    }
}
