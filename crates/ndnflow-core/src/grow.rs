//! Growing the containers that grow with a run (the PIT, consumers' outstanding records, timer
//! queues, the simulator's event queue and trace logs) without aborting the process when the
//! allocator refuses (issue 22, item 1).
//!
//! Rust's `push` and `insert` abort the whole process when an allocation fails ("memory
//! allocation of N bytes failed"); stable Rust cannot catch that. `try_reserve` (Vec, VecDeque,
//! BinaryHeap, HashMap, hashbrown's HashTable) returns the failure instead. So a component makes
//! room for one more element before it inserts, with `try_reserve(1)`, which grows by the same
//! amortized doubling as `push` would; it does so only when the container is full (`len ==
//! capacity`), a comparison per insert, and leaves the insert itself untouched. A refusal is an
//! `OutOfMemory` the component keeps for its driver, which ends the run with what it computed.
//!
//! The limit of the approach: only these containers (and Content Stores, whose capacity a user
//! may set to millions) are guarded. The allocations of single packets and names, and of
//! containers bounded by a scenario value (queues), would abort when the allocator refuses them;
//! in practice the doubling of a large table is what fails first, because it asks for as much as
//! the table already holds, and `crate::reserve` covers a small refusal that comes first.
//!
//! With the `alloc-limit` feature (tests only), `set_test_limit` makes every guarded growth past a
//! number of bytes fail, so that tests can exercise the failure path without exhausting memory.

use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::hash::{BuildHasher, Hash};

/// A container that could not grow: which one, and about how many bytes it asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory {
    /// The container, for the message ("PIT", "outstanding Interests").
    pub container: &'static str,
    /// The size it asked for: its doubled capacity times its element's size.
    pub bytes: usize,
}

/// A container that can make room for one more element without aborting.
pub trait Grow {
    /// Ok when one more element fits without a new allocation, or the allocator granted one.
    fn room_for_one(&mut self, container: &'static str) -> Result<(), OutOfMemory>;
}

/// The cold path: asks for the doubled capacity, and turns a refusal into `OutOfMemory`.
#[cold]
#[inline(never)]
fn grow<E>(
    len: usize,
    element: usize,
    container: &'static str,
    reserve: impl FnOnce() -> Result<(), E>,
) -> Result<(), OutOfMemory> {
    let bytes = len.max(4).saturating_mul(2).saturating_mul(element);
    if over_test_limit(bytes) {
        return Err(OutOfMemory { container, bytes });
    }
    reserve().map_err(|_| OutOfMemory { container, bytes })
}

/// The sequences: full at `len == capacity`, grown by `try_reserve(1)`'s doubling.
macro_rules! grow_sequence {
    ($($kind:ident $(: $bound:path)?),*) => {$(
        impl<T $(: $bound)?> Grow for $kind<T> {
            #[inline]
            fn room_for_one(&mut self, container: &'static str) -> Result<(), OutOfMemory> {
                if self.len() < self.capacity() {
                    return Ok(());
                }
                grow(self.len(), size_of::<T>(), container, || self.try_reserve(1))
            }
        }
    )*};
}

grow_sequence!(Vec, VecDeque, BinaryHeap: Ord);

impl<K: Eq + Hash, V, S: BuildHasher> Grow for HashMap<K, V, S> {
    #[inline]
    fn room_for_one(&mut self, container: &'static str) -> Result<(), OutOfMemory> {
        // A map's capacity is what it holds before it must rehash: full at len == capacity.
        if self.len() < self.capacity() {
            return Ok(());
        }
        grow(self.len(), size_of::<(K, V)>() + 1, container, || self.try_reserve(1))
    }
}

/// Room for one more element in a hashbrown table (its `try_reserve` needs the hasher).
#[inline]
pub fn room_in_table<T>(
    table: &mut hashbrown::HashTable<T>,
    container: &'static str,
    hasher: impl Fn(&T) -> u64,
) -> Result<(), OutOfMemory> {
    if table.len() < table.capacity() {
        return Ok(());
    }
    let len = table.len();
    grow(len, size_of::<T>() + 1, container, || table.try_reserve(1, hasher))
}

#[cfg(any(test, feature = "alloc-limit"))]
thread_local! {
    static TEST_LIMIT: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// Tests only (`alloc-limit` feature): every guarded growth on this thread asking for more than
/// `bytes` fails as a refused allocation would; `usize::MAX` lifts the limit.
#[cfg(any(test, feature = "alloc-limit"))]
pub fn set_test_limit(bytes: usize) {
    TEST_LIMIT.with(|l| l.set(bytes));
}

#[cfg(any(test, feature = "alloc-limit"))]
fn over_test_limit(bytes: usize) -> bool {
    TEST_LIMIT.with(|l| bytes > l.get())
}

#[cfg(not(any(test, feature = "alloc-limit")))]
#[inline(always)]
fn over_test_limit(_bytes: usize) -> bool {
    false
}

#[cfg(test)]
#[path = "grow_tests.rs"]
mod tests;
