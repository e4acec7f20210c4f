//! Feature `serde`: `Encoding` as its name, from any label.
#![cfg(feature = "serde")]

use textcodec::Encoding;

#[test]
fn every_encoding_round_trips_through_its_name() {
    for &e in Encoding::all() {
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(json, format!("\"{}\"", e.name()));
        assert_eq!(serde_json::from_str::<Encoding>(&json).unwrap(), e);
    }
}

#[test]
fn every_label_deserializes_case_insensitively_and_trimmed() {
    for &(label, e) in Encoding::labels() {
        for variant in [
            label.to_string(),
            label.to_ascii_uppercase(),
            format!("\t {label}\n\u{c}\r"),
        ] {
            let json = serde_json::to_string(&variant).unwrap();
            assert_eq!(
                serde_json::from_str::<Encoding>(&json).unwrap(),
                e,
                "{json}"
            );
        }
    }
}

#[test]
fn non_labels_are_rejected_clearly() {
    for bad in [
        "",
        "utf-7",
        "utf 8",
        "\u{A0}utf-8",
        "x".repeat(100).as_str(),
    ] {
        let json = serde_json::to_string(bad).unwrap();
        let err = serde_json::from_str::<Encoding>(&json).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("is not an encoding label"), "{msg}");
        assert!(msg.len() < 300, "{msg}");
    }
    // Not a string at all.
    let err = serde_json::from_str::<Encoding>("42").unwrap_err();
    assert!(err.to_string().contains("an encoding label"), "{err}");
    // Inside a map, as configuration files hold it.
    let c: std::collections::HashMap<String, Encoding> =
        serde_json::from_str(r#"{"charset": "latin1"}"#).unwrap();
    assert_eq!(c["charset"], Encoding::Windows1252);
}
