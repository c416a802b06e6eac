//! The cs/info dataset (NFD daemon/mgmt/cs-manager.cpp, `serveInfo`; record layout as ndn-cxx
//! mgmt/nfd/cs-info.cpp): one CsInfo record with the Content Store's capacity, its flags, how
//! many entries it holds, and the forwarder's hit and miss counts.
//!
//! Where we differ: the Content Store here has no admit and serve switches (NFD's `cs/config`
//! sets them; it is not built), it always admits (subject to its admission probability) and
//! serves, so both flags are reported set, NFD's defaults. NHits and NMisses are the forwarder's
//! `cs_hits` and `cs_misses`: an Interest looked up in the store and answered from it, or not
//! (NFD counts the same lookups in its Cs).

use super::control::tlv as cp;
use super::dataset::{number, record, tlv};
use crate::daemon::Daemon;

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
            number(v, cp::FLAGS, CS_ENABLE_ADMIT | CS_ENABLE_SERVE);
            number(v, tlv::N_CS_ENTRIES, cs.len() as u64);
            number(v, N_HITS, c.cs_hits);
            number(v, N_MISSES, c.cs_misses);
        });
    }
}
