//! In-crate tests that need the private tables (exhaustive index checks, naive reference
//! decoders). Integration tests live in `crates/textcodec/tests/`.
