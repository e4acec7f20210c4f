//! The output buffers the peers of a row share, and the `memcpy` reference peer.

use std::cell::{RefCell, RefMut};
use std::hint::black_box;

use textcodec_bench::Peer;

/// One output buffer for all the peers of a row. Where a buffer lies (its page offset
/// against the input's, the cache sets its pages take) moved a peer's speed on a row by
/// up to 20 % ("mem" in BENCHMARKS.md), so the peers write into the same one. `u16`
/// storage, so that it serves as units or as bytes.
pub(crate) struct Out(RefCell<Vec<u16>>);

impl Out {
    /// Room for `bytes` bytes (and `bytes / 2` units).
    pub(crate) fn new(bytes: usize) -> Out {
        Out(RefCell::new(vec![0u16; bytes.div_ceil(2)]))
    }

    pub(crate) fn units(&self) -> RefMut<'_, [u16]> {
        RefMut::map(self.0.borrow_mut(), |v| &mut v[..])
    }

    // The byte view of the units: the only other `unsafe` in the harness.
    #[allow(unsafe_code)]
    pub(crate) fn bytes(&self) -> RefMut<'_, [u8]> {
        RefMut::map(self.0.borrow_mut(), |v| {
            let len = 2 * v.len();
            // SAFETY: the same memory as `v`, borrowed mutably for as long; `u8` has
            // alignment 1 and every byte of a `u16` is an initialised `u8`.
            unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), len) }
        })
    }
}

pub(crate) fn memcpy_peer<'a>(src: &'a [u8], out: &'a Out) -> Peer<'a> {
    Peer::new("memcpy", move || {
        let mut out = out.bytes();
        out[..src.len()].copy_from_slice(black_box(src));
        usize::from(out[src.len().saturating_sub(1)])
    })
}
