//! A memory reserve that the allocator gives back when the system refuses an allocation, so that a
//! refused allocation outside the guarded containers ends the run with what it computed instead of
//! aborting the process (issue 22, item 1).
//!
//! `crate::grow` guards the containers that grow with a run: their doublings are what fails first
//! in practice, and they fail through `try_reserve`. Every other allocation (a packet, a name, a
//! small vector) goes through `push`/`Box::new`/`Arc::new`, and on stable Rust a refusal there calls
//! `handle_alloc_error`, which aborts. Nothing can catch that; what can be done is to make the
//! refusal not happen. This is the "rainy day fund" of allocators that must not fail: keep a block
//! of `RESERVE_BYTES` set aside, and when the system refuses a request no larger than it, free the
//! block and ask again. The request then succeeds, the process goes on, and `released()` tells the
//! simulation driver, which ends the run after the event that asked (as it does for a refused
//! container) and writes its results with the room the reserve left.
//!
//! What it covers, and what not:
//! - Refusals of requests up to `RESERVE_BYTES`, once per arming: the driver arms the reserve
//!   again when it builds the next simulation (`arm`).
//! - A larger request is not helped by freeing the reserve; it is refused as before. If it was a
//!   guarded container's growth, `crate::grow` turns it into an error; otherwise it aborts.
//! - Only a process whose global allocator is `ReserveAllocator` has a reserve: the Python
//!   extension (`ndnflow-py`) and the engine's example runner install it. On Linux with memory
//!   overcommit (the default), the system rarely refuses anything: memory runs out as the kernel's
//!   OOM killer, which no process can answer. Refusals happen under an address-space limit
//!   (`ulimit -v`, `RLIMIT_AS`, some batch schedulers), which is where this helps.
//!
//! The block is allocated and never touched, so it costs address space, not resident memory. The
//! allocator's common path is the system allocator's plus one null test.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// Bytes set aside: enough for a run to finish its event and for its results (summary, traces)
/// to be assembled and written, which peak at a few tens of megabytes for the catalog's largest
/// runs (docs/performance.md, "Memory").
pub const RESERVE_BYTES: usize = 64 << 20;

/// The block set aside, null when there is none (not armed, or released).
static RESERVE: AtomicPtr<u8> = AtomicPtr::new(null_mut());
/// How many times the reserve was released: a driver compares it with the count it saw when its
/// run began.
static RELEASES: AtomicU64 = AtomicU64::new(0);
/// The size of the request that made the last release.
static REFUSED: AtomicUsize = AtomicUsize::new(0);

fn reserve_layout() -> Layout {
    Layout::from_size_align(RESERVE_BYTES, 4096).expect("a page-aligned 64 MiB layout is valid")
}

/// Sets the reserve aside if it is not; false if the system refused even that (the process then
/// runs without one). Cheap when armed already.
pub fn arm() -> bool {
    if !RESERVE.load(Ordering::Acquire).is_null() {
        return true;
    }
    // SAFETY: the layout has a non-zero size.
    let block = unsafe { System.alloc(reserve_layout()) };
    if block.is_null() {
        return false;
    }
    if RESERVE.compare_exchange(null_mut(), block, Ordering::AcqRel, Ordering::Acquire).is_err() {
        // Another thread armed it meanwhile: keep theirs.
        // SAFETY: `block` came from `System.alloc` with this layout and was never shared.
        unsafe { System.dealloc(block, reserve_layout()) };
    }
    true
}

/// Whether a reserve is set aside now.
pub fn is_armed() -> bool {
    !RESERVE.load(Ordering::Acquire).is_null()
}

/// How many times the reserve has been released in this process.
#[inline]
pub fn releases() -> u64 {
    RELEASES.load(Ordering::Relaxed)
}

/// The size of the request the system refused at the last release. Call it after `releases()`
/// has shown a new release: the fence pairs with the release's count, so the size read is the one
/// stored before it, not an older one (the per-event `releases()` stays a relaxed load).
pub fn last_refused() -> usize {
    std::sync::atomic::fence(Ordering::Acquire);
    REFUSED.load(Ordering::Relaxed)
}

/// The system refused `size` bytes: frees the reserve if that can help, and says whether to ask
/// again. Only one thread gets the block, so it is freed once.
#[cold]
#[inline(never)]
fn release_for(size: usize) -> bool {
    if size > RESERVE_BYTES {
        return false;
    }
    let block = RESERVE.swap(null_mut(), Ordering::AcqRel);
    if block.is_null() {
        return false;
    }
    // SAFETY: `block` came from `System.alloc` with this layout; the swap made it ours alone.
    unsafe { System.dealloc(block, reserve_layout()) };
    REFUSED.store(size, Ordering::Relaxed);
    RELEASES.fetch_add(1, Ordering::Release);
    true
}

/// Tests only (`alloc-limit` feature): acts as if the system had refused `size` bytes, so that a
/// test can see a driver end its run on a release without exhausting memory. The release is the
/// process's: call it only from a test binary of its own (`ndnflow-sim/tests/reserve.rs`).
#[cfg(any(test, feature = "alloc-limit"))]
pub fn refuse_for_test(size: usize) -> bool {
    release_for(size)
}

/// The system allocator, with the reserve given back on a refusal (module comment). Install it
/// with `#[global_allocator] static A: ReserveAllocator = ReserveAllocator;` in a binary or cdylib.
pub struct ReserveAllocator;

// SAFETY: every method forwards to `System` with the caller's arguments; the reserve's block is
// only ever allocated and freed through `System` with its own layout.
unsafe impl GlobalAlloc for ReserveAllocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if p.is_null() && release_for(layout.size()) {
            return unsafe { System.alloc(layout) };
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() && release_for(layout.size()) {
            return unsafe { System.alloc_zeroed(layout) };
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A failed realloc leaves the old block in place, so asking again is sound.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() && release_for(new_size) {
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The statics are the process's: one test walks the whole life of the reserve, so that no
    // other test in this binary races it (nothing else here arms or releases it).
    #[test]
    fn the_reserve_is_released_once_for_a_request_it_can_cover_and_armed_again() {
        assert!(arm());
        assert!(is_armed());
        let before = releases();
        // Larger than the reserve: freeing it would not help, so it stays.
        assert!(!release_for(RESERVE_BYTES + 1));
        assert!(is_armed());
        assert_eq!(releases(), before);
        // 92 bytes (the refusal issue 22 saw abort the process): released, counted, remembered.
        assert!(release_for(92));
        assert!(!is_armed());
        assert_eq!(releases(), before + 1);
        assert_eq!(last_refused(), 92);
        // Nothing left to give: a second refusal is passed on.
        assert!(!release_for(92));
        assert_eq!(releases(), before + 1);
        // The next simulation arms it again.
        assert!(arm());
        assert!(is_armed());
        assert!(arm(), "arming an armed reserve is a no-op");
    }
}
