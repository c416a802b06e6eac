//! The Content Store's management (NFD daemon/mgmt/cs-manager.cpp): the cs/info dataset
//! (`serveInfo`; record layout as ndn-cxx mgmt/nfd/cs-info.cpp), and the cs/config and cs/erase
//! commands (`changeConfig`, `erase`).
//!
//! - cs/info: one CsInfo record with the store's capacity, its admit and serve flags, how many
//!   entries it holds, and the forwarder's hit and miss counts. NHits and NMisses are the
//!   forwarder's `cs_hits` and `cs_misses`: an Interest looked up in the store and answered from
//!   it, or not (NFD counts the same lookups in its Cs).
//! - cs/config: Capacity sets the store's limit (evicting down to it at once, as NFD's
//!   `setLimit`); Flags with Mask turn admitting and serving on or off (CS_ENABLE_ADMIT,
//!   CS_ENABLE_SERVE). The reply carries the capacity and both flags as they are now.
//! - cs/erase: removes Data under Name, at most Count (if given, above 0) and at most 256 per
//!   command (NFD's ERASE_LIMIT); the reply carries Name and Count, the number removed, and
//!   Capacity 256 when the limit stopped it with more left (so a tool asks again, as nfdc does).
//!   NFD erases in name order; here, past the limit, the ones in the lowest slots go.
//! - Where the store differs from NFD's: it answers exact names only (no CanBePrefix lookups),
//!   and its admission probability (`cs_admit`, a scenario's) still applies when admitting is on.

use super::control::tlv as cp;
use super::control::{ControlParameters, ControlResponse};
use super::dataset::{number, record, tlv};
use crate::daemon::Daemon;

/// NFD's `CsManager::ERASE_LIMIT`: Data removed by one cs/erase at most.
pub const ERASE_LIMIT: usize = 256;

/// ndn-cxx CsFlagBit: enable-admit is bit 0, enable-serve bit 1.
pub const CS_ENABLE_ADMIT: u64 = 1;
pub const CS_ENABLE_SERVE: u64 = 2;

/// CsInfo's TLV-TYPEs (ndn-cxx tlv-nfd.hpp): the record itself, its NHits and NMisses; Capacity,
/// Flags and NCsEntries share their numbers with ControlParameters and ForwarderStatus.
const CS_INFO: u64 = 0x80;
const N_HITS: u64 = 0x81;
const N_MISSES: u64 = 0x82;

impl Daemon {
    /// The CsInfo record.
    pub(super) fn cs_info(&self, out: &mut Vec<u8>) {
        let cs = &self.forwarder.cs;
        let c = &self.forwarder.counters;
        record(out, CS_INFO, |v| {
            number(v, cp::CAPACITY, cs.capacity() as u64);
            number(v, cp::FLAGS, self.cs_flags());
            number(v, tlv::N_CS_ENTRIES, cs.len() as u64);
            number(v, N_HITS, c.cs_hits);
            number(v, N_MISSES, c.cs_misses);
        });
    }

    /// The store's admit and serve bits, as cs/info and cs/config report them.
    fn cs_flags(&self) -> u64 {
        let cs = &self.forwarder.cs;
        (u64::from(cs.admit_enabled()) * CS_ENABLE_ADMIT) | (u64::from(cs.serve_enabled()) * CS_ENABLE_SERVE)
    }

    pub(super) fn cs_config(&mut self, p: ControlParameters) -> ControlResponse {
        // A bit the Mask names is set to its value in Flags; the others stay as they are.
        let (flags, mask) = match (p.flags, p.mask) {
            (None, None) => (0, 0),
            (Some(flags), Some(mask)) => (flags, mask),
            _ => return ControlResponse::error(400, "Flags and Mask must come together"),
        };
        let cs = &mut self.forwarder.cs;
        if let Some(capacity) = p.capacity {
            cs.set_capacity(usize::try_from(capacity).unwrap_or(usize::MAX));
        }
        if mask & CS_ENABLE_ADMIT != 0 {
            cs.set_admit(flags & CS_ENABLE_ADMIT != 0);
        }
        if mask & CS_ENABLE_SERVE != 0 {
            cs.set_serve(flags & CS_ENABLE_SERVE != 0);
        }
        let capacity = Some(self.forwarder.cs.capacity() as u64);
        ControlResponse::ok(ControlParameters { capacity, flags: Some(self.cs_flags()), ..Default::default() })
    }

    pub(super) fn cs_erase(&mut self, p: ControlParameters) -> ControlResponse {
        let Some(prefix) = p.name else { return ControlResponse::error(400, "Name is required") };
        if p.count == Some(0) {
            return ControlResponse::error(400, "Count must be positive");
        }
        let asked = p.count.map_or(usize::MAX, |c| usize::try_from(c).unwrap_or(usize::MAX));
        let cs = &mut self.forwarder.cs;
        let erased = cs.erase(&prefix, asked.min(ERASE_LIMIT));
        let more = erased == ERASE_LIMIT && asked > ERASE_LIMIT && cs.count_under(&prefix) > 0;
        ControlResponse::ok(ControlParameters {
            name: Some(prefix),
            count: Some(erased as u64),
            capacity: more.then_some(ERASE_LIMIT as u64),
            ..Default::default()
        })
    }
}
