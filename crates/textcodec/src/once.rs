//! A value built on first use and kept for the life of the program: the `compact` build's
//! tables, stored packed in the binary and expanded into the heap by the first decoder or
//! encoder that needs them (see `index/compact/`). `no_std` has no `OnceLock`; this is
//! the part of one that the tables need, on one atomic pointer.
// `unsafe`: turning the published pointer back into a reference and freeing a lost race's
// box, each with its SAFETY argument below.
#![allow(unsafe_code)]

#[cfg(not(target_has_atomic = "ptr"))]
compile_error!(
    "the `compact` feature builds its tables on first use behind an atomic pointer, which \
     this target lacks: build textcodec without `compact`"
);

use alloc::boxed::Box;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

/// A `&'static T` built by the first [`Once::get_or_init`] call. Threads that race to
/// build it each build one; the first to publish wins and the others free theirs, so the
/// value is built by a pure function and every caller sees the same one.
pub(crate) struct Once<T> {
    value: AtomicPtr<T>,
}

impl<T> Once<T> {
    pub(crate) const fn new() -> Self {
        Once {
            value: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// The value, built by `init` if no call has published one yet.
    #[inline(always)]
    pub(crate) fn get_or_init(&'static self, init: impl FnOnce() -> Box<T>) -> &'static T {
        let value = self.value.load(Ordering::Acquire);
        if value.is_null() {
            return self.publish(init());
        }
        // SAFETY: a non-null pointer was stored by `publish` from `Box::into_raw`, with
        // `Release` ordering paired with the `Acquire` load above, so the value it points
        // to is initialised and visible; it is never freed or written again.
        unsafe { &*value }
    }

    /// Stores `built` unless another thread stored a value first; returns the stored one.
    #[cold]
    #[inline(never)]
    fn publish(&'static self, built: Box<T>) -> &'static T {
        let built = Box::into_raw(built);
        match self.value.compare_exchange(
            ptr::null_mut(),
            built,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            // SAFETY: `built` came from `Box::into_raw` and is now owned by `self`, which
            // lives for the program and never frees it.
            Ok(_) => unsafe { &*built },
            Err(stored) => {
                // SAFETY: `built` came from `Box::into_raw` and was not published, so this
                // is its only owner; `stored` was published as in `get_or_init`.
                unsafe {
                    drop(Box::from_raw(built));
                    &*stored
                }
            }
        }
    }
}

/// `N` copies of `value` on the heap, built there (a table of tens of KiB never passes
/// through the stack, which `Box::new([value; N])` does not promise).
pub(crate) fn boxed_array<T: Copy, const N: usize>(value: T) -> Box<[T; N]> {
    let slice = alloc::vec![value; N].into_boxed_slice();
    debug_assert_eq!(slice.len(), N);
    // SAFETY: the slice holds exactly `N` initialised `T`s, the layout of `[T; N]`; the
    // allocation passes from one box to the other.
    unsafe { Box::from_raw(Box::into_raw(slice).cast::<[T; N]>()) }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    static CELL: Once<[u32; 4]> = Once::new();

    #[test]
    fn every_caller_sees_the_value_of_the_first_publisher() {
        let threads: alloc::vec::Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    core::ptr::from_ref(CELL.get_or_init(|| Box::new([1, 2, 3, 4]))) as usize
                })
            })
            .collect();
        let seen: alloc::vec::Vec<usize> =
            threads.into_iter().map(|t| t.join().unwrap_or(0)).collect();
        let first = seen.first().copied().unwrap_or(0);
        assert!(first != 0 && seen.iter().all(|&p| p == first), "{seen:?}");
        assert_eq!(CELL.get_or_init(|| Box::new([0; 4])), &[1, 2, 3, 4]);
    }
}
