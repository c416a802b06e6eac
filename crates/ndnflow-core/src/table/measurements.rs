//! Strategy measurements (NFD daemon/table/measurements.hpp and fw/strategy's
//! MeasurementsAccessor): per-prefix, per-face state that a strategy keeps between packets (RTT
//! estimates, forwarding percentages, pending counts...).
//!
//! Generic over the record type so that each strategy stores exactly what it needs. Entries are kept
//! per name prefix (usually the FIB entry's prefix) and per face, in face order, so iterating them is
//! deterministic.
//!
//! Lifetime, as NFD's: a table made with `with_lifetime` (`nfd()`: NFD's initial lifetime of 4 s,
//! `Measurements::getInitialLifetime`) gives a new prefix entry that long; a strategy keeps an
//! entry it still needs with `extend_lifetime` ("kept until at least now + lifetime"); reading or
//! writing an entry does not extend it. An expired entry is gone to every `now`-taking accessor at
//! once, and a later write starts it afresh. NFD frees it at its expiry with a scheduler event;
//! here the strategy frees expired entries with `remove_expired`, from a timer at `next_expiry`.
//!
//! A table made with `default()` never expires: the pending-Interest strategies (pi, rfa, drf,
//! fpf) count Interests still in flight there, bookkeeping that must outlive a quiet spell, and
//! their `now`-less accessors serve only such tables.

use smallvec::SmallVec;

use super::FaceId;
use crate::name::NameMap;
use crate::{Name, Time};

/// NFD's initial lifetime of a measurements entry (`Measurements::getInitialLifetime`, 4 s).
pub const NFD_INITIAL_LIFETIME: Time = Time::from_secs(4);

#[derive(Debug)]
struct Entry<T> {
    /// `Time::MAX` in a table without lifetime.
    expiry: Time,
    faces: SmallVec<[(FaceId, T); 4]>,
}

impl<T> Entry<T> {
    /// An entry without lifetime is live at every instant, `Time::MAX` included.
    fn is_live(&self, now: Time) -> bool {
        self.expiry == Time::MAX || self.expiry > now
    }
}

#[derive(Debug)]
pub struct Measurements<T> {
    prefixes: NameMap<Name, Entry<T>>,
    /// How long a new entry lives; `None`: entries never expire.
    initial_lifetime: Option<Time>,
}

impl<T> Default for Measurements<T> {
    fn default() -> Self {
        Measurements { prefixes: NameMap::default(), initial_lifetime: None }
    }
}

impl<T: Default> Measurements<T> {
    /// A table whose entries live `initial` from their creation unless extended.
    pub fn with_lifetime(initial: Time) -> Self {
        Measurements { prefixes: NameMap::default(), initial_lifetime: Some(initial) }
    }

    /// A table with NFD's initial lifetime (4 s).
    pub fn nfd() -> Self {
        Self::with_lifetime(NFD_INITIAL_LIFETIME)
    }

    /// The record of `face` under `prefix` at `now`, created with `T::default()` on first use or
    /// after its prefix's entry expired (the entry then lives the initial lifetime from `now`).
    pub fn entry(&mut self, now: Time, prefix: &Name, face: FaceId) -> &mut T {
        let lifetime = self.initial_lifetime;
        let entry =
            self.prefixes.entry(prefix.clone()).or_insert_with(|| Entry { expiry: Time::ZERO, faces: SmallVec::new() });
        if !entry.is_live(now) {
            entry.faces.clear();
            entry.expiry = lifetime.map_or(Time::MAX, |l| now.saturating_add(l));
        }
        let faces = &mut entry.faces;
        let pos = match faces.binary_search_by_key(&face, |(f, _)| *f) {
            Ok(pos) => pos,
            Err(pos) => {
                faces.insert(pos, (face, T::default()));
                pos
            }
        };
        &mut faces[pos].1
    }

    /// The record of `face` under `prefix`, unless absent or expired at `now`.
    pub fn find(&self, now: Time, prefix: &Name, face: FaceId) -> Option<&T> {
        let entry = self.prefixes.get(prefix).filter(|e| e.is_live(now))?;
        let pos = entry.faces.binary_search_by_key(&face, |(f, _)| *f).ok()?;
        Some(&entry.faces[pos].1)
    }

    /// Whether `prefix` has an entry live at `now`.
    pub fn is_live(&self, now: Time, prefix: &Name) -> bool {
        self.prefixes.get(prefix).is_some_and(|e| e.is_live(now))
    }

    /// Keeps `prefix`'s entry, if live at `now`, until at least `now + lifetime` (NFD
    /// `Measurements::extendLifetime`: never shortens it).
    pub fn extend_lifetime(&mut self, now: Time, prefix: &Name, lifetime: Time) {
        if let Some(entry) = self.prefixes.get_mut(prefix).filter(|e| e.is_live(now)) {
            entry.expiry = entry.expiry.max(now.saturating_add(lifetime));
        }
    }

    /// When the next entry expires, if any does: the instant for a strategy's cleanup timer. A
    /// scan of the prefixes, as a timer is armed once per cleanup, not per packet.
    pub fn next_expiry(&self) -> Option<Time> {
        self.prefixes.values().map(|e| e.expiry).filter(|&t| t != Time::MAX).min()
    }

    /// Frees the entries expired at `now`; returns how many went.
    pub fn remove_expired(&mut self, now: Time) -> usize {
        let before = self.prefixes.len();
        self.prefixes.retain(|_, e| e.is_live(now));
        before - self.prefixes.len()
    }

    /// Prefix entries held, expired ones not yet removed included.
    pub fn len(&self) -> usize {
        self.prefixes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.prefixes.is_empty()
    }

    /// The record of `face` under `prefix`, created with `T::default()` on first use. For tables
    /// without lifetime.
    pub fn get_or_insert(&mut self, prefix: &Name, face: FaceId) -> &mut T {
        debug_assert!(self.initial_lifetime.is_none(), "an expiring table needs `entry(now, ..)`");
        self.entry(Time::ZERO, prefix, face)
    }

    /// For tables without lifetime.
    pub fn get(&self, prefix: &Name, face: FaceId) -> Option<&T> {
        self.find(Time::ZERO, prefix, face)
    }

    /// All face records of `prefix`, in face order. For tables without lifetime.
    pub fn faces(&self, prefix: &Name) -> &[(FaceId, T)] {
        self.prefixes.get(prefix).map(|e| e.faces.as_slice()).unwrap_or(&[])
    }

    /// For tables without lifetime.
    pub fn faces_mut(&mut self, prefix: &Name) -> &mut [(FaceId, T)] {
        self.prefixes.get_mut(prefix).map(|e| e.faces.as_mut_slice()).unwrap_or(&mut [])
    }
}

#[cfg(test)]
#[path = "measurements_tests.rs"]
mod tests;
