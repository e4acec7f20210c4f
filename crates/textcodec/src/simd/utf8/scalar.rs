pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    match core::str::from_utf8(src) {
        Ok(_) => src.len(),
        Err(e) => e.valid_up_to(),
    }
}

// Hot loop. Bounds: `written <= dst.len()` and `read <= src.len()` (they count units
// written into `dst` and bytes of characters read from `src`), so adding a character's
// length (at most 4) cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn to_utf16(src: &str, dst: &mut [u16]) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    for c in src.chars() {
        let Some(out) = dst.get_mut(written..written + c.len_utf16()) else {
            break;
        };
        c.encode_utf16(out);
        written += out.len();
        read += c.len_utf8();
    }
    (read, written)
}
