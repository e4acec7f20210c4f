//! Prints the detector's ranking for a file, or for a string encoded in an encoding
//! (`detect_debug ENCODING TEXT`): a tuning aid.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bytes = match args.as_slice() {
        [path] => std::fs::read(path).unwrap_or_default(),
        [label, text] => {
            let e = textcodec::Encoding::for_label(label.as_bytes())
                .unwrap_or(textcodec::Encoding::Utf8);
            textcodec::encode(text, e).0.into_owned()
        }
        _ => return eprintln!("usage: detect_debug FILE | detect_debug ENCODING TEXT"),
    };
    let mut d = textcodec::detect::Detector::new();
    d.feed(&bytes, true);
    let hints = textcodec::detect::Hints::new();
    println!("{:?}", d.guess(&hints));
    if std::env::var_os("DETECT_DEBUG").is_some() {
        println!("{d:?}");
        println!(
            "size_of::<Detector>() = {}",
            std::mem::size_of::<textcodec::detect::Detector>()
        );
    }
    for c in d.ranking(&hints).iter().take(12) {
        println!(
            "{:<16} {:>9.3} {}",
            c.encoding.name(),
            c.score,
            if c.disqualified { "disqualified" } else { "" }
        );
    }
}
