//! Dead Nonce List (NFD daemon/table/dead-nonce-list): (name, nonce) pairs of Interests that recently
//! left the PIT, so a looping copy that comes back after its PIT entry is gone is still recognised.

use std::collections::VecDeque;

use rustc_hash::FxHashSet;

use crate::{Name, Time};

/// NFD's default DNL lifetime.
pub const DEFAULT_LIFETIME: Time = Time::from_secs(6);

#[derive(Debug)]
pub struct DeadNonceList {
    lifetime: Time,
    set: FxHashSet<(u64, u32)>,
    queue: VecDeque<(Time, u64, u32)>,
}

impl Default for DeadNonceList {
    fn default() -> Self {
        DeadNonceList::new(DEFAULT_LIFETIME)
    }
}

impl DeadNonceList {
    pub fn new(lifetime: Time) -> DeadNonceList {
        DeadNonceList { lifetime, set: FxHashSet::default(), queue: VecDeque::new() }
    }

    pub fn add(&mut self, now: Time, name: &Name, nonce: u32) {
        self.evict(now);
        if self.set.insert((name.hash64(), nonce)) {
            self.queue.push_back((now + self.lifetime, name.hash64(), nonce));
        }
    }

    /// Whether (name, nonce) left the PIT less than a lifetime ago.
    pub fn has(&mut self, now: Time, name: &Name, nonce: u32) -> bool {
        if self.set.is_empty() {
            return false;
        }
        self.evict(now);
        self.set.contains(&(name.hash64(), nonce))
    }

    /// Forgets entries older than the lifetime.
    pub fn evict(&mut self, now: Time) {
        while let Some(&(expiry, h, nonce)) = self.queue.front() {
            if expiry > now {
                break;
            }
            self.queue.pop_front();
            self.set.remove(&(h, nonce));
        }
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_after_the_lifetime() {
        let mut dnl = DeadNonceList::new(Time::from_secs(6));
        let name = Name::parse("/a").unwrap();
        dnl.add(Time::ZERO, &name, 7);
        assert!(dnl.has(Time::ZERO, &name, 7) && !dnl.has(Time::ZERO, &name, 8));
        assert!(dnl.has(Time::from_millis(5999), &name, 7));
        // Expiry needs no new insertion to take effect.
        assert!(!dnl.has(Time::from_secs(6), &name, 7));
        assert!(dnl.is_empty());
    }
}
