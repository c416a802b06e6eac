//! Simulated caches (DPCCP §VII-A): "Simulated caches enable a router to provide Data packets (to
//! emulate cache hit) without caching them in advance. A parameter kappa is used to control the
//! cache hit probability at router." SP-1 holds kappa fixed (0 % to 100 %); SP-2 changes it at
//! given instants (0, then 0.95 from 50 s, then 0 from 150 s).
//!
//! Each Interest under the cache's prefix that reaches the Content Store lookup draws once from
//! the cache's own seeded stream and hits with the probability in force; a hit is a Data of the
//! Interest's name with the configured payload, as the producer would send it (no FinalBlockId:
//! the cache knows no segment count), and nothing is stored. The forwarder counts it as a
//! Content Store hit, so strategies and extensions see one.
//!
//! Our choices where the paper is silent: before the schedule's first instant kappa is 0 (no
//! cache yet); every Interest under the prefix draws, kappa 0 and 1 included (a draw below 0 or
//! 1 decides them), so that the stream's use does not depend on the schedule's values; a
//! MustBeFresh Interest may hit too, since the emulated cache holds the producer's Data, which
//! the producer would answer it with.

use std::sync::Arc;

use bytes::Bytes;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::packet::data::zero_payload;
use crate::packet::{Data, Interest};
use crate::time::Stepwise;
use crate::{Name, Time};

/// What a simulated cache answers, and how often.
#[derive(Clone, Debug, PartialEq)]
pub struct SimulatedCacheConfig {
    /// Names it answers (DPCCP's experiments: the producer's prefix).
    pub prefix: Name,
    /// Content bytes per Data (the paper's segments: 1024, §VII-A).
    pub payload: usize,
    /// (from this instant, hit probability kappa in [0, 1]), instants strictly increasing.
    pub schedule: Vec<(Time, f64)>,
}

/// Hits drawn so far, for the node summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimulatedCacheCounters {
    /// Interests under the prefix that drew.
    pub lookups: u64,
    pub hits: u64,
}

pub struct SimulatedCache {
    config: SimulatedCacheConfig,
    /// Built once: every hit shares it.
    payload: Bytes,
    /// Kappa, 0 before the schedule's first instant.
    kappa: Stepwise<f64>,
    rng: ChaCha8Rng,
    pub counters: SimulatedCacheCounters,
}

impl SimulatedCache {
    /// `seed`: the cache's own stream, apart from the node's other components'.
    pub fn new(config: SimulatedCacheConfig, seed: u64) -> SimulatedCache {
        SimulatedCache {
            payload: zero_payload(config.payload),
            kappa: Stepwise::new(0.0, config.schedule.clone()),
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            counters: SimulatedCacheCounters::default(),
        }
    }

    /// The hit probability in force at `now`.
    pub fn kappa_at(&mut self, now: Time) -> f64 {
        self.kappa.at(now)
    }

    /// The Data a hit answers `interest` with, or `None` (a miss, or a name outside the prefix).
    pub fn lookup(&mut self, now: Time, interest: &Interest) -> Option<Arc<Data>> {
        if !self.config.prefix.is_prefix_of(&interest.name) {
            return None;
        }
        let kappa = self.kappa_at(now);
        self.counters.lookups += 1;
        if self.rng.random::<f64>() >= kappa {
            return None;
        }
        self.counters.hits += 1;
        Some(Arc::new(Data::new(interest.name.clone(), self.payload.clone())))
    }
}

#[cfg(test)]
#[path = "sim_cache_tests.rs"]
mod tests;
