//! Forwarding tables after NFD's daemon/table: Content Store, Pending Interest Table,
//! Forwarding Information Base, Dead Nonce List, and per-prefix strategy measurements; and PTP's
//! Forwarding Acceleration Base, a per-flow cache of FIB lookups; DPCCP's simulated caches.

pub mod cs;
pub mod dnl;
pub mod fab;
pub mod fib;
pub mod measurements;
pub mod pit;
mod pit_openers;
pub mod sim_cache;
mod slot_list;

pub use cs::{ContentStore, CsPolicy};
pub use dnl::DeadNonceList;
pub use fab::{Fab, FabCounters, ForwardingAccelerationBase};
pub use fib::{Fib, FibEntry, NextHop};
pub use measurements::Measurements;
pub use pit::{InRecord, OutRecord, PendingInterestTable, PitEntry, PitId};
pub use sim_cache::{SimulatedCache, SimulatedCacheConfig, SimulatedCacheCounters};

/// A face of one forwarder: an index into its face table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FaceId(pub u32);

impl FaceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
