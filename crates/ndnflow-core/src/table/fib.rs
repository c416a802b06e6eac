//! Forwarding Information Base: longest-prefix match on name components (NFD daemon/table/fib).
//!
//! Entries are found by hashing each prefix of the looked-up name, longest first, and starting at the
//! longest prefix length any entry has, so a lookup costs at most (that length + 1) hash probes.

use smallvec::SmallVec;

use super::FaceId;
use crate::name::NameMap;
use crate::Name;

/// A next hop and its routing cost (lower is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextHop {
    pub face: FaceId,
    pub cost: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FibEntry {
    pub prefix: Name,
    /// Sorted by cost, then face id, so the first eligible one is the best route.
    pub nexthops: SmallVec<[NextHop; 4]>,
}

#[derive(Default, Debug)]
pub struct Fib {
    entries: Vec<FibEntry>,
    /// Prefix hash -> entry indices (a vector for the rare hash collision).
    index: NameMap<u64, SmallVec<[u32; 1]>>,
    max_len: usize,
    /// Bumped by every `add_nexthop`: entries are only appended, so an index stays valid, but a new
    /// longer prefix can change what a name matches, and caches of lookups (the FAB) must know.
    version: u64,
}

impl Fib {
    pub fn new() -> Fib {
        Fib::default()
    }

    /// Entries with next hops.
    pub fn len(&self) -> usize {
        self.entries().count()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Changes whenever the table does, so a cache of lookups knows its answers may be stale.
    pub fn version(&self) -> u64 {
        self.version
    }

    fn find_exact(&self, prefix: &Name) -> Option<usize> {
        self.index.get(&prefix.hash64())?.iter().map(|&i| i as usize).find(|&i| self.entries[i].prefix == *prefix)
    }

    /// Adds a next hop, or updates its cost if the face is already one (NFD `fib::Entry::addOrUpdateNextHop`).
    pub fn add_nexthop(&mut self, prefix: &Name, face: FaceId, cost: u64) {
        self.version = self.version.wrapping_add(1);
        let i = match self.find_exact(prefix) {
            Some(i) => i,
            None => {
                self.entries.push(FibEntry { prefix: prefix.clone(), nexthops: SmallVec::new() });
                let i = self.entries.len() - 1;
                self.index.entry(prefix.hash64()).or_default().push(i as u32);
                self.max_len = self.max_len.max(prefix.len());
                i
            }
        };
        let hops = &mut self.entries[i].nexthops;
        hops.retain(|h| h.face != face);
        hops.push(NextHop { face, cost });
        hops.sort_by_key(|h| (h.cost, h.face));
    }

    /// Removes `face` as a next hop of `prefix` (NFD `Fib::removeNextHop`); an entry left without
    /// next hops leaves the index, as NFD erases it, so its names match a shorter prefix again. Its
    /// slot stays (indices held elsewhere stay valid) and is skipped by `entries`. Whether the face
    /// was a next hop there.
    pub fn remove_nexthop(&mut self, prefix: &Name, face: FaceId) -> bool {
        let Some(i) = self.find_exact(prefix) else { return false };
        let hops = &mut self.entries[i].nexthops;
        let before = hops.len();
        hops.retain(|h| h.face != face);
        if hops.len() == before {
            return false;
        }
        self.version = self.version.wrapping_add(1);
        if hops.is_empty() {
            let hash = prefix.hash64();
            if let Some(bucket) = self.index.get_mut(&hash) {
                bucket.retain(|j| *j as usize != i);
                if bucket.is_empty() {
                    self.index.remove(&hash);
                }
            }
        }
        true
    }

    /// Removes `face` from every entry (NFD does so when a face is destroyed); how many entries
    /// it left.
    pub fn remove_face(&mut self, face: FaceId) -> usize {
        let prefixes: Vec<Name> =
            self.entries().filter(|e| e.nexthops.iter().any(|h| h.face == face)).map(|e| e.prefix.clone()).collect();
        prefixes.iter().filter(|p| self.remove_nexthop(p, face)).count()
    }

    /// Longest-prefix match; `None` when not even "/" has an entry.
    pub fn longest_prefix_match(&self, name: &Name) -> Option<(usize, &FibEntry)> {
        self.longest_prefix_match_within(name, name.len())
    }

    /// Longest-prefix match of the first `len` components of `name`, without building that prefix
    /// as a name (the FAB matches an Interest's flow, its name without the segment).
    pub fn longest_prefix_match_within(&self, name: &Name, len: usize) -> Option<(usize, &FibEntry)> {
        for len in (0..=len.min(name.len()).min(self.max_len)).rev() {
            if let Some(bucket) = self.index.get(&name.prefix_hash(len)) {
                for &i in bucket {
                    let e = &self.entries[i as usize];
                    if e.prefix.len() == len && e.prefix.is_prefix_of(name) {
                        return Some((i as usize, e));
                    }
                }
            }
        }
        None
    }

    pub fn entry(&self, index: usize) -> &FibEntry {
        &self.entries[index]
    }

    /// The entries that have next hops (slots emptied by `remove_nexthop` are skipped).
    pub fn entries(&self) -> impl Iterator<Item = &FibEntry> {
        self.entries.iter().filter(|e| !e.nexthops.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Name {
        Name::parse(s).unwrap()
    }

    #[test]
    fn longest_prefix_wins_and_nexthops_are_ranked_by_cost() {
        let mut fib = Fib::new();
        fib.add_nexthop(&n("/"), FaceId(9), 1);
        fib.add_nexthop(&n("/video"), FaceId(1), 10);
        fib.add_nexthop(&n("/video"), FaceId(2), 5);
        fib.add_nexthop(&n("/video/a"), FaceId(3), 1);
        let (_, e) = fib.longest_prefix_match(&n("/video/b/seg=1")).unwrap();
        assert_eq!(e.prefix, n("/video"));
        assert_eq!(e.nexthops.iter().map(|h| h.face.0).collect::<Vec<_>>(), vec![2, 1]);
        assert_eq!(fib.longest_prefix_match(&n("/video/a/seg=1")).unwrap().1.prefix, n("/video/a"));
        assert_eq!(fib.longest_prefix_match(&n("/audio")).unwrap().1.prefix, n("/"));
        // Component boundaries matter: /vid is not a prefix of /video.
        let mut fib = Fib::new();
        fib.add_nexthop(&n("/vid"), FaceId(1), 1);
        assert!(fib.longest_prefix_match(&n("/video")).is_none());
    }

    #[test]
    fn matching_within_a_prefix_ignores_the_rest_and_changes_bump_the_version() {
        let mut fib = Fib::new();
        let before = fib.version();
        fib.add_nexthop(&n("/video"), FaceId(1), 1);
        fib.add_nexthop(&n("/video/a/seg=1"), FaceId(2), 1);
        assert_eq!(fib.version(), before + 2);
        let name = n("/video/a/seg=1");
        assert_eq!(fib.longest_prefix_match_within(&name, 2).unwrap().1.prefix, n("/video"));
        assert_eq!(fib.longest_prefix_match_within(&name, 3).unwrap().1.prefix, name);
        assert_eq!(fib.longest_prefix_match_within(&name, 9).unwrap().1.prefix, name);
        assert!(fib.longest_prefix_match_within(&name, 0).is_none());
    }

    #[test]
    fn updating_a_nexthop_replaces_its_cost() {
        let mut fib = Fib::new();
        fib.add_nexthop(&n("/p"), FaceId(1), 10);
        fib.add_nexthop(&n("/p"), FaceId(1), 3);
        assert_eq!(fib.len(), 1);
        assert_eq!(fib.entry(0).nexthops.as_slice(), &[NextHop { face: FaceId(1), cost: 3 }]);
    }

    #[test]
    fn a_removed_last_next_hop_lets_names_match_the_shorter_prefix_again() {
        let mut fib = Fib::new();
        fib.add_nexthop(&n("/a"), FaceId(1), 10);
        fib.add_nexthop(&n("/a/b"), FaceId(2), 10);
        fib.add_nexthop(&n("/a/b"), FaceId(3), 20);
        let v0 = fib.version();
        assert!(fib.remove_nexthop(&n("/a/b"), FaceId(2)));
        assert!(fib.version() != v0, "a lookup cache must see the change");
        let (_, e) = fib.longest_prefix_match(&n("/a/b/c")).unwrap();
        assert_eq!(e.nexthops.iter().map(|h| h.face).collect::<Vec<_>>(), vec![FaceId(3)]);
        // The last next hop gone: /a/b/c falls back to /a, and /a/b is no longer listed.
        assert!(fib.remove_nexthop(&n("/a/b"), FaceId(3)));
        assert_eq!(fib.longest_prefix_match(&n("/a/b/c")).unwrap().1.prefix, n("/a"));
        assert_eq!(fib.len(), 1);
        assert!(!fib.remove_nexthop(&n("/a/b"), FaceId(3)), "already gone");
        // Registered again, it matches again.
        fib.add_nexthop(&n("/a/b"), FaceId(4), 5);
        assert_eq!(fib.longest_prefix_match(&n("/a/b/c")).unwrap().1.nexthops[0].face, FaceId(4));
        assert_eq!(fib.len(), 2);
    }

    #[test]
    fn removing_a_face_leaves_every_entry_it_was_in() {
        let mut fib = Fib::new();
        fib.add_nexthop(&n("/a"), FaceId(1), 0);
        fib.add_nexthop(&n("/b"), FaceId(1), 0);
        fib.add_nexthop(&n("/b"), FaceId(2), 0);
        assert_eq!(fib.remove_face(FaceId(1)), 2);
        assert!(fib.longest_prefix_match(&n("/a/x")).is_none());
        assert_eq!(fib.longest_prefix_match(&n("/b/x")).unwrap().1.nexthops.len(), 1);
    }
}
