//! ASF's two orders of a prefix's faces and the probe draw (NFD daemon/fw/asf-strategy.cpp
//! getFaceRankForForwarding, asf-probing-module.cpp getFaceRankForProbing and chooseFace).
//!
//! Both orders sort by (group, SRTT within the measured group, cost, face id): the face id last so
//! that no two faces tie (NFD bug #5310). They differ in the order of the groups: forwarding
//! prefers what is known to work, probing what is not known yet.

use super::{AsfFace, LastRtt};
use crate::table::{FaceId, NextHop};
use crate::Time;

/// The three groups of faces of the technical report (NDN-0042), in forwarding order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Data came back: the last RTT is a measurement.
    Measured,
    /// Never answered yet (or no record).
    Unmeasured,
    /// Marked timed out (`max_timeouts` timeouts in a row, or a Nack).
    TimedOut,
}

/// The sort key of a face; lower is better.
pub type Rank = (Group, Time, u64, FaceId);

fn group(record: Option<&AsfFace>) -> Group {
    match record.map(|r| r.last_rtt) {
        None | Some(LastRtt::NoMeasurement) => Group::Unmeasured,
        Some(LastRtt::TimedOut) => Group::TimedOut,
        Some(LastRtt::Measured(_)) => Group::Measured,
    }
}

/// The SRTT sorts measured faces only; the others tie on it and go by cost.
fn srtt_key(record: Option<&AsfFace>, group: Group) -> Time {
    match (group, record.and_then(AsfFace::srtt)) {
        (Group::Measured, Some(srtt)) => srtt,
        _ => Time::MAX,
    }
}

/// Forwarding order: measured faces by SRTT, then unmeasured, then timed out.
pub fn forwarding_rank(record: Option<&AsfFace>, hop: &NextHop) -> Rank {
    let g = group(record);
    (g, srtt_key(record, g), hop.cost, hop.face)
}

/// Probing order: unmeasured first, then measured by SRTT, then timed out. Returned with the
/// forwarding group in the first place of the key replaced by the probing priority.
pub fn probing_rank(record: Option<&AsfFace>, hop: &NextHop) -> (u8, Rank) {
    let g = group(record);
    let priority = match g {
        Group::Unmeasured => 0,
        Group::Measured => 1,
        Group::TimedOut => 2,
    };
    (priority, (g, srtt_key(record, g), hop.cost, hop.face))
}

/// NFD's chooseFace over faces sorted in probing order: the first if it is unmeasured, else the
/// face of rank j (1-based) among n with p = (n + 1 - j) / (n (n + 1) / 2), taking the first whose
/// cumulative probability reaches `u`, a uniform draw in [0, 1).
pub fn pick_probe(ranked: &[((u8, Rank), FaceId)], u: f64) -> Option<FaceId> {
    let first = ranked.first()?;
    if first.0 .1 .0 == Group::Unmeasured {
        return Some(first.1);
    }
    let n = ranked.len() as f64;
    let sum = n * (n + 1.0) / 2.0;
    let mut cumulative = 0.0;
    for (j, (_, face)) in ranked.iter().enumerate() {
        cumulative += (n - j as f64) / sum;
        if u <= cumulative {
            return Some(*face);
        }
    }
    // Rounding may leave the sum a hair under 1: the last face takes the rest.
    ranked.last().map(|r| r.1)
}

/// Why a new Interest went where it did, for the forwarding log.
pub fn reason(group: Group, probe: bool) -> &'static str {
    match (group, probe) {
        (Group::Measured, false) => "new Interest: best by SRTT",
        (Group::Measured, true) => "new Interest: best by SRTT, and a probe",
        (Group::Unmeasured, false) => "new Interest: no face measured, lowest cost unmeasured",
        (Group::Unmeasured, true) => "new Interest: no face measured, lowest cost unmeasured, and a probe",
        (Group::TimedOut, false) => "new Interest: every face timed out, lowest cost",
        (Group::TimedOut, true) => "new Interest: every face timed out, lowest cost, and a probe",
    }
}
