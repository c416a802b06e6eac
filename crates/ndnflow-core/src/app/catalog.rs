//! The catalog workload: a consumer that fetches whole objects one after another, each chosen by
//! Zipf-Mandelbrot popularity, and records when each began and ended.
//!
//! Popularity follows ndnSIM's `ConsumerZipfMandelbrot` (apps/ndn-consumer-zipf-mandelbrot.cpp):
//! object k of N (1-based rank) has probability proportional to 1 / (k + q)^s; the cumulative table
//! is built once and a uniform draw picks the first rank whose cumulative share exceeds it. The
//! sequencing is the SMIC paper's (§5, after Table 1): "New content request is generated when
//! previous request is done", with no think time, and requests of different consumers independent
//! (each consumer draws from its own stream).
//!
//! Naming: object k is `<name>/<k>`, a generic component holding k in decimal ("/catalog/17"), its
//! segments `<name>/<k>/seg=N`. ndnSIM's consumer appends a sequence number instead, because there
//! each content is one Data; here an object has segments, and a readable component says which
//! object a Data belongs to in any trace or log.

use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::name::component_type;
use crate::{Name, Time};

/// `catalog = { objects, alpha, q }` on a consumer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CatalogConfig {
    /// N, the number of objects (ndnSIM `NumberOfContents`, default 100; SMIC: 10,000).
    pub objects: u64,
    /// s, the skewness (ndnSIM `s`, default 0.7; SMIC: alpha = 1.0).
    pub alpha: f64,
    /// q, the Mandelbrot plateau (ndnSIM `q`, default 0.7; SMIC's plain Zipf: 0).
    pub q: f64,
    /// Each object a new flow: the controller (window, sub-flows) and the RTT estimator start
    /// over at every object, as a new connection per request would. Off by default: one
    /// long-lived flow (docs/protocols/consumer.md#catalog-consumer).
    pub restart: bool,
    /// Think time: the next object is requested this long after the previous one completed (the
    /// SMIC authors' consumers wait 1 s); its retrieval time starts then. 0 by default.
    pub gap: Time,
}

impl CatalogConfig {
    /// What decides the Zipf table: consumers whose keys are equal can draw from one
    /// (`ZipfMandelbrot::new(objects, alpha, q)`), and a driver shares it by this key.
    pub fn table_key(&self) -> (u64, u64, u64) {
        (self.objects, self.alpha.to_bits(), self.q.to_bits())
    }
}

/// Zipf-Mandelbrot over ranks 1..=N, as a cumulative table. Cloning shares the table: consumers
/// of one catalog draw from one copy (8 bytes an object), which a driver builds once
/// (`Consumer::with_catalog_table`).
#[derive(Clone, Debug)]
pub struct ZipfMandelbrot {
    /// cdf[k - 1] = P(rank <= k); the last entry is exactly 1.
    cdf: Arc<[f64]>,
}

impl ZipfMandelbrot {
    /// `objects` >= 1 and `alpha` > 0 and `q` >= 0 finite (the scenario reader checks them).
    pub fn new(objects: u64, alpha: f64, q: f64) -> ZipfMandelbrot {
        let mut cdf = Vec::with_capacity(objects as usize);
        let mut sum = 0.0;
        for k in 1..=objects {
            sum += 1.0 / (k as f64 + q).powf(alpha);
            cdf.push(sum);
        }
        for c in &mut cdf {
            *c /= sum;
        }
        // Rounding may leave the last share a hair under 1; a draw just below 1 must still land.
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        ZipfMandelbrot { cdf: cdf.into() }
    }

    /// The table's bytes: 8 an object.
    pub fn table_bytes(objects: u64) -> u64 {
        objects.saturating_mul(8)
    }

    /// Whether `self` and `other` draw from one copy of the table.
    pub fn shares_table_with(&self, other: &ZipfMandelbrot) -> bool {
        Arc::ptr_eq(&self.cdf, &other.cdf)
    }

    /// P(rank = k), 1-based; 0 outside 1..=N.
    pub fn pmf(&self, k: u64) -> f64 {
        let i = k as usize;
        if k == 0 || i > self.cdf.len() {
            return 0.0;
        }
        self.cdf[i - 1] - if i >= 2 { self.cdf[i - 2] } else { 0.0 }
    }

    /// A rank for the uniform draw `u` in [0, 1): the first k with P(rank <= k) > u.
    pub fn rank_for(&self, u: f64) -> u64 {
        let i = self.cdf.partition_point(|&c| c <= u);
        (i.min(self.cdf.len() - 1) + 1) as u64
    }

    pub fn draw(&self, rng: &mut impl RngExt) -> u64 {
        self.rank_for(rng.random::<f64>())
    }
}

/// One object a catalog consumer requested.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectRecord {
    /// Its popularity rank, 1-based (1 = most popular).
    pub rank: u64,
    /// When its first Interest could leave (the previous object's end, or the consumer's start).
    pub start: Time,
    /// When its last segment arrived; `None` while unfinished.
    pub end: Option<Time>,
    /// Content bytes received for it.
    pub bytes: u64,
    /// The paths its Data came over (1 for a single-path consumer).
    pub paths: u32,
}

/// A consumer's catalog state: what it fetches now and what it fetched.
pub(crate) struct Catalog {
    zipf: ZipfMandelbrot,
    /// Its own stream, apart from the nonces': the sequence of objects does not depend on how
    /// many Interests were sent, so two congestion controllers fetch the same objects.
    rng: ChaCha8Rng,
    prefix: Name,
    /// The object being fetched (its record is the last of `done` + this).
    pub(crate) current: ObjectRecord,
    pub(crate) name: Name,
    /// The consumer's segment counter where the current object began: the consumer numbers
    /// segments on, object after object, as one connection would (controllers compare them).
    pub(crate) base: u64,
    /// The consumer's payload bytes when the current object began.
    bytes_at_start: u64,
    /// Each path's Data count when the current object began (multipath consumers).
    path_data_at_start: Vec<u64>,
    /// Per path index, the Data of the flows of earlier objects, when each object is a new flow
    /// whose paths count from zero again (`CatalogConfig::restart`): what the trace adds to keep
    /// its counts going (`Consumer::traced_paths`).
    pub(crate) earlier_flows_path_data: Vec<u64>,
    pub(crate) done: Vec<ObjectRecord>,
}

impl Catalog {
    /// Objects drawn from `zipf`, named under `prefix`.
    pub(crate) fn new(zipf: ZipfMandelbrot, prefix: Name, seed: u64) -> Catalog {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5a49_5046); // "ZIPF"
        let rank = zipf.draw(&mut rng);
        let name = object_name(&prefix, rank);
        let current = ObjectRecord { rank, start: Time::ZERO, end: None, bytes: 0, paths: 0 };
        Catalog {
            zipf,
            rng,
            prefix,
            current,
            name,
            base: 0,
            bytes_at_start: 0,
            path_data_at_start: Vec::new(),
            earlier_flows_path_data: Vec::new(),
            done: Vec::new(),
        }
    }

    pub(crate) fn zipf(&self) -> &ZipfMandelbrot {
        &self.zipf
    }

    /// Whether a Data or Nack named `name` (with its segment component) is of the current object.
    pub(crate) fn owns(&self, name: &Name) -> bool {
        name.len() == self.name.len() + 1 && self.name.is_prefix_of(name)
    }

    /// The current object begins at `now`, the consumer having `bytes` payload bytes so far and
    /// its paths the Data counts `path_data`.
    pub(crate) fn begin(&mut self, now: Time, bytes: u64, path_data: Vec<u64>) {
        self.current.start = now;
        self.bytes_at_start = bytes;
        self.path_data_at_start = path_data;
    }

    /// The current object as it stands: `bytes` and `path_data` are the consumer's now.
    pub(crate) fn snapshot(&self, bytes: u64, path_data: Option<&[u64]>) -> ObjectRecord {
        let paths = match path_data {
            None => 1,
            Some(data) => {
                let before = |i: usize| self.path_data_at_start.get(i).copied().unwrap_or(0);
                data.iter().enumerate().filter(|&(i, &d)| d > before(i)).count() as u32
            }
        };
        ObjectRecord { bytes: bytes - self.bytes_at_start, paths, ..self.current }
    }

    /// The current object is complete at `now`: it is recorded and the next one drawn, whose
    /// segments start at `next_segment` and which is requested at `start` (`now` plus the gap).
    pub(crate) fn next(&mut self, now: Time, start: Time, next_segment: u64, bytes: u64, path_data: Option<Vec<u64>>) {
        let mut record = self.snapshot(bytes, path_data.as_deref());
        record.end = Some(now);
        self.done.push(record);
        let rank = self.zipf.draw(&mut self.rng);
        self.name = object_name(&self.prefix, rank);
        self.current = ObjectRecord { rank, start, end: None, bytes: 0, paths: 0 };
        self.base = next_segment;
        self.begin(start, bytes, path_data.unwrap_or_default());
    }

    /// A flow whose paths received `path_data` ends (a restart): its counts join the earlier
    /// flows', index by index.
    pub(crate) fn retire_flow(&mut self, path_data: &[u64]) {
        let earlier = &mut self.earlier_flows_path_data;
        if earlier.len() < path_data.len() {
            earlier.resize(path_data.len(), 0);
        }
        for (sum, d) in earlier.iter_mut().zip(path_data) {
            *sum += d;
        }
    }
}

/// `<prefix>/<rank>`, the rank in decimal in a generic component.
pub fn object_name(prefix: &Name, rank: u64) -> Name {
    prefix.append(component_type::GENERIC, rank.to_string().as_bytes())
}

#[cfg(test)]
#[path = "catalog_tests.rs"]
mod tests;
