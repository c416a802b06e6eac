//! A doubly linked list threaded through the slots of an arena by index: the Content Store's
//! eviction order and the FAB's recency list (PTP §4-B) are both one. Indices instead of pointers
//! keep the tables free of `unsafe` and of reference counting; `NIL` ends the list.

pub(super) const NIL: u32 = u32::MAX;

/// A slot's place in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Links {
    pub prev: u32,
    pub next: u32,
}

impl Links {
    /// Not in the list (yet).
    pub const DETACHED: Links = Links { prev: NIL, next: NIL };
}

/// An arena slot that carries its `Links`.
pub(super) trait Linked {
    fn links(&mut self) -> &mut Links;
}

/// The ends of the list; the slots hold the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SlotList {
    pub head: u32,
    pub tail: u32,
}

impl SlotList {
    pub const EMPTY: SlotList = SlotList { head: NIL, tail: NIL };

    /// Takes slot `i` out of the list.
    #[inline]
    pub fn unlink<T: Linked>(&mut self, slots: &mut [T], i: u32) {
        let Links { prev, next } = *slots[i as usize].links();
        match prev {
            NIL => self.head = next,
            p => slots[p as usize].links().next = next,
        }
        match next {
            NIL => self.tail = prev,
            n => slots[n as usize].links().prev = prev,
        }
    }

    /// Puts slot `i` (not in the list) at the tail.
    #[inline]
    pub fn push_back<T: Linked>(&mut self, slots: &mut [T], i: u32) {
        *slots[i as usize].links() = Links { prev: self.tail, next: NIL };
        match self.tail {
            NIL => self.head = i,
            t => slots[t as usize].links().next = i,
        }
        self.tail = i;
    }

    /// Puts slot `i` (not in the list) at the head.
    #[inline]
    pub fn push_front<T: Linked>(&mut self, slots: &mut [T], i: u32) {
        *slots[i as usize].links() = Links { prev: NIL, next: self.head };
        match self.head {
            NIL => self.tail = i,
            h => slots[h as usize].links().prev = i,
        }
        self.head = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Slot(Links);
    impl Linked for Slot {
        fn links(&mut self) -> &mut Links {
            &mut self.0
        }
    }

    /// The slot indices from head to tail.
    fn order(list: &SlotList, slots: &mut [Slot]) -> Vec<u32> {
        let mut out = Vec::new();
        let mut i = list.head;
        while i != NIL {
            out.push(i);
            i = slots[i as usize].links().next;
        }
        out
    }

    #[test]
    fn pushes_and_unlinks_keep_both_directions_consistent() {
        let mut slots: Vec<Slot> = (0..4).map(|_| Slot(Links::DETACHED)).collect();
        let mut list = SlotList::EMPTY;
        list.push_back(&mut slots, 0);
        list.push_back(&mut slots, 1);
        list.push_front(&mut slots, 2);
        list.push_back(&mut slots, 3);
        assert_eq!(order(&list, &mut slots), vec![2, 0, 1, 3]);
        list.unlink(&mut slots, 0); // middle
        list.unlink(&mut slots, 2); // head
        list.unlink(&mut slots, 3); // tail
        assert_eq!(order(&list, &mut slots), vec![1]);
        assert_eq!((list.head, list.tail), (1, 1));
        assert_eq!(*slots[1].links(), Links::DETACHED);
        list.unlink(&mut slots, 1);
        assert_eq!(list, SlotList::EMPTY);
    }
}
