//! Network Nack (NDNLPv2 "Nack" header field, type 800, wrapping the rejected Interest).

use std::sync::Arc;

use super::Interest;

/// NackReason codes (NDNLPv2 §"Network NACK"), ordered from least to most severe as NFD does when it
/// picks the reason to send downstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NackReason {
    None,
    Congestion,
    Duplicate,
    NoRoute,
}

impl NackReason {
    pub const fn code(self) -> u64 {
        match self {
            NackReason::None => 0,
            NackReason::Congestion => 50,
            NackReason::Duplicate => 100,
            NackReason::NoRoute => 150,
        }
    }
    /// Unknown codes decode as `None`, as ndn-cxx does.
    pub const fn from_code(code: u64) -> NackReason {
        match code {
            50 => NackReason::Congestion,
            100 => NackReason::Duplicate,
            150 => NackReason::NoRoute,
            _ => NackReason::None,
        }
    }
    /// Inverse of `as_str` (also accepts `no_route`), for bindings and config files.
    pub fn from_name(s: &str) -> Option<NackReason> {
        match s {
            "none" => Some(NackReason::None),
            "congestion" => Some(NackReason::Congestion),
            "duplicate" => Some(NackReason::Duplicate),
            "no-route" | "no_route" => Some(NackReason::NoRoute),
            _ => None,
        }
    }
    pub const fn as_str(self) -> &'static str {
        match self {
            NackReason::None => "none",
            NackReason::Congestion => "congestion",
            NackReason::Duplicate => "duplicate",
            NackReason::NoRoute => "no-route",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nack {
    pub reason: NackReason,
    pub interest: Arc<Interest>,
}
