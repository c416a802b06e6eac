//! Which downstream face opened each PIT entry, kept only for a bounded PIT (`ndnflow fwd`'s
//! `pit_capacity`), so that a full table can be shared fairly among faces (fw/forwarder_pit_share.rs).
//!
//! Each face's entries form a list, oldest first, threaded through a side array indexed like the
//! PIT's slots: the face holding the most entries, and its oldest, are found without walking the
//! table. The lists sit beside the PIT rather than in its slots because a slot is exactly two cache
//! lines (pit.rs), and the simulator's PIT, which has no bound, should not pay for them.

use super::slot_list::{Linked, Links, SlotList, NIL};
use super::FaceId;

/// A PIT slot's opener and its place in that face's list (`face == NIL`: not listed).
#[derive(Clone, Copy, Debug)]
struct Opened {
    face: u32,
    links: Links,
}

impl Linked for Opened {
    fn links(&mut self) -> &mut Links {
        &mut self.links
    }
}

/// One face's entries.
#[derive(Clone, Copy, Debug)]
struct FaceEntries {
    list: SlotList,
    len: usize,
}

#[derive(Debug, Default)]
pub(super) struct Openers {
    /// Indexed by PIT slot.
    by_slot: Vec<Opened>,
    /// Indexed by face.
    by_face: Vec<FaceEntries>,
}

impl Openers {
    /// The entry in PIT slot `slot` was opened by an Interest from `face`: it joins that face's
    /// list as its newest.
    pub fn opened(&mut self, slot: u32, face: FaceId) {
        self.closed(slot);
        let i = slot as usize;
        if self.by_slot.len() <= i {
            self.by_slot.resize(i + 1, Opened { face: NIL, links: Links::DETACHED });
        }
        if self.by_face.len() <= face.index() {
            self.by_face.resize(face.index() + 1, FaceEntries { list: SlotList::EMPTY, len: 0 });
        }
        let entries = &mut self.by_face[face.index()];
        entries.list.push_back(&mut self.by_slot, slot);
        entries.len += 1;
        self.by_slot[i].face = face.0;
    }

    /// The entry in PIT slot `slot` left the table (satisfied and gone, expired, shed...).
    pub fn closed(&mut self, slot: u32) {
        let Some(&Opened { face, .. }) = self.by_slot.get(slot as usize) else { return };
        if face == NIL {
            return;
        }
        let entries = &mut self.by_face[face as usize];
        entries.list.unlink(&mut self.by_slot, slot);
        entries.len -= 1;
        self.by_slot[slot as usize] = Opened { face: NIL, links: Links::DETACHED };
    }

    /// How many live entries `face` opened.
    pub fn count(&self, face: FaceId) -> usize {
        self.by_face.get(face.index()).map_or(0, |e| e.len)
    }

    /// The face that opened the most live entries (the lowest-numbered among equals), and how many.
    pub fn largest(&self) -> Option<(FaceId, usize)> {
        let mut best: Option<(FaceId, usize)> = None;
        for (i, e) in self.by_face.iter().enumerate() {
            if e.len > best.map_or(0, |(_, n)| n) {
                best = Some((FaceId(i as u32), e.len));
            }
        }
        best
    }

    /// The PIT slot of the oldest live entry `face` opened.
    pub fn oldest(&self, face: FaceId) -> Option<u32> {
        self.by_face.get(face.index()).map(|e| e.list.head).filter(|&h| h != NIL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_opening_and_closing_and_the_oldest_is_the_first_still_open() {
        let mut o = Openers::default();
        // Face 1 opens slots 0, 2, 3; face 4 opens slot 1.
        for (slot, face) in [(0, 1), (1, 4), (2, 1), (3, 1)] {
            o.opened(slot, FaceId(face));
        }
        assert_eq!((o.count(FaceId(1)), o.count(FaceId(4)), o.count(FaceId(2))), (3, 1, 0));
        assert_eq!(o.largest(), Some((FaceId(1), 3)));
        assert_eq!((o.oldest(FaceId(1)), o.oldest(FaceId(4))), (Some(0), Some(1)));
        // Slot 0 goes (face 1's oldest): slot 2 is face 1's oldest now. Closing twice is harmless.
        o.closed(0);
        o.closed(0);
        assert_eq!((o.count(FaceId(1)), o.oldest(FaceId(1))), (2, Some(2)));
        // Slot 0 reused by face 4: face 4 now has two, as many as face 1; the lower face wins ties.
        o.opened(0, FaceId(4));
        assert_eq!(o.largest(), Some((FaceId(1), 2)));
        assert_eq!(o.oldest(FaceId(4)), Some(1), "slot 1 was opened before slot 0's reuse");
        for slot in [1, 2, 3, 0] {
            o.closed(slot);
        }
        assert_eq!((o.largest(), o.oldest(FaceId(1))), (None, None));
    }

    #[test]
    fn a_slot_opened_again_without_closing_moves_to_its_new_face() {
        let mut o = Openers::default();
        o.opened(5, FaceId(0));
        o.opened(5, FaceId(2));
        assert_eq!((o.count(FaceId(0)), o.count(FaceId(2))), (0, 1));
    }
}
