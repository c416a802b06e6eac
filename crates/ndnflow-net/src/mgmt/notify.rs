//! NFD's face status change notifications (NFD Face Management, "Face Status Change
//! Notification"; ndn-cxx `NotificationStream` and `NotificationSubscriber`): each face created,
//! destroyed, gone up or down is a Data named /localhost/nfd/faces/events/seq=N (a typed
//! SequenceNumNameComponent, N from 0), fresh for 1 s, whose Content is a FaceEventNotification:
//! FaceEventKind (1 created, 2 destroyed, 3 up, 4 down), FaceId, Uri, LocalUri, FaceScope,
//! FacePersistency, LinkType and Flags.
//!
//! A subscriber first asks for /localhost/nfd/faces/events with CanBePrefix and MustBeFresh, then
//! for seq=N+1 after each notification N. In NFD those Interests wait in the PIT for the
//! notification the manager puts on its internal face, and one posted less than its freshness ago
//! comes from the Content Store. Here the daemon keeps them itself: an Interest is answered at once
//! by a notification it already names (the last one, if still fresh, for the stream's own name;
//! any of the last `KEPT` for seq=N), and otherwise waits, at most `PENDING_LIMIT` of them, until
//! a notification satisfies it or its lifetime ends.

use std::collections::VecDeque;
use std::sync::Arc;

use bytes::Bytes;
use ndnflow_core::name::component_type::SEQUENCE_NUM;
use ndnflow_core::packet::{Data, Frame, Interest};
use ndnflow_core::table::FaceId;
use ndnflow_core::{Name, Time};

use super::control::tlv as cp;
use super::dataset::{number, record};
use crate::daemon::Daemon;

/// FaceEventNotification's TLV-TYPE, and FaceEventKind's.
const FACE_EVENT_NOTIFICATION: u64 = 0xc0;
const FACE_EVENT_KIND: u64 = 0xc1;

/// NFD's FaceEventKind values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceEvent {
    Created = 1,
    Destroyed = 2,
    Up = 3,
    Down = 4,
}

/// A notification's FreshnessPeriod: ndn-cxx `NotificationStream::postNotification`, 1 s.
pub const FRESHNESS: Time = Time::from_secs(1);
/// Notifications kept to answer a subscriber that asks for one already posted.
pub const KEPT: usize = 64;
/// Interests waiting for a notification, at most; the oldest goes first.
pub const PENDING_LIMIT: usize = 256;

/// The stream's state: its next sequence number, the last notifications and the waiting Interests.
#[derive(Debug)]
pub struct FaceEvents {
    prefix: Name,
    next: u64,
    /// The last notifications, oldest first, with when each was posted.
    kept: VecDeque<(Time, Arc<Data>)>,
    /// Interests not yet answered: the face, the Interest, and when it expires.
    pending: VecDeque<(FaceId, Arc<Interest>, Time)>,
}

impl Default for FaceEvents {
    fn default() -> FaceEvents {
        let prefix = Name::parse("/localhost/nfd/faces/events").expect("a constant name");
        FaceEvents { prefix, next: 0, kept: VecDeque::new(), pending: VecDeque::new() }
    }
}

impl FaceEvents {
    /// Whether `name` is the stream's: /localhost/nfd/faces/events or a name under it.
    pub fn covers(&self, name: &Name) -> bool {
        self.prefix.is_prefix_of(name)
    }

    /// The kept notification that answers `interest` at `now`, if any.
    fn kept_answer(&self, interest: &Interest, now: Time) -> Option<Arc<Data>> {
        if interest.name == self.prefix {
            // The stream's own name (CanBePrefix): the last notification, while it is fresh.
            let (at, data) = self.kept.back()?;
            let fresh = !interest.must_be_fresh || now < at.saturating_add(FRESHNESS);
            return (interest.can_be_prefix && fresh).then(|| Arc::clone(data));
        }
        self.kept.iter().find(|(_, d)| d.name == interest.name).map(|(_, d)| Arc::clone(d))
    }

    /// Whether `data` satisfies `interest`: the same name, or a longer one under CanBePrefix.
    fn satisfies(data: &Data, interest: &Interest) -> bool {
        data.name == interest.name || interest.can_be_prefix && interest.name.is_prefix_of(&data.name)
    }

    /// Posts the notification `content` at `now`: its Data, signed, and the faces whose waiting
    /// Interests it answers.
    fn post(&mut self, content: Vec<u8>, now: Time) -> (Arc<Data>, Vec<FaceId>) {
        let mut seq = Vec::new();
        ndnflow_core::packet::tlv::write_nonneg(&mut seq, self.next);
        let mut data = Data::new(self.prefix.append(SEQUENCE_NUM, &seq), Bytes::from(content));
        data.freshness_period = Some(FRESHNESS);
        crate::sign::sign_digest_sha256(&mut data);
        let data = Arc::new(data);
        self.next += 1;
        if self.kept.len() == KEPT {
            self.kept.pop_front();
        }
        self.kept.push_back((now, Arc::clone(&data)));
        let mut answered = Vec::new();
        self.pending.retain(|(face, interest, expires)| {
            if now >= *expires {
                return false;
            }
            let hit = FaceEvents::satisfies(&data, interest);
            if hit && !answered.contains(face) {
                answered.push(*face);
            }
            !hit
        });
        (data, answered)
    }

    /// Keeps `interest` from `face` until a notification answers it or it expires.
    fn wait(&mut self, face: FaceId, interest: Arc<Interest>, now: Time) {
        self.pending.retain(|(_, _, expires)| now < *expires);
        if self.pending.len() == PENDING_LIMIT {
            self.pending.pop_front();
        }
        let expires = now.saturating_add(interest.effective_lifetime());
        self.pending.push_back((face, interest, expires));
    }

    /// Interests waiting.
    pub fn waiting(&self) -> usize {
        self.pending.len()
    }
}

impl Daemon {
    /// An Interest for the face event stream from a local face: answered by a kept notification,
    /// or kept until one comes.
    pub(crate) fn on_face_events_interest(&mut self, face: FaceId, interest: &Arc<Interest>) {
        let now = self.clock.now();
        match self.face_events.kept_answer(interest, now) {
            Some(data) => self.out.push((face, Frame::data(data))),
            None => self.face_events.wait(face, Arc::clone(interest), now),
        }
    }

    /// `face` was created, destroyed, went up or down: the notification is posted, and sent to
    /// the subscribers waiting for it.
    pub(crate) fn face_event(&mut self, event: FaceEvent, face: FaceId) {
        let content = self.face_event_content(event, face);
        let (data, faces) = self.face_events.post(content, self.clock.now());
        for to in faces {
            self.out.push((to, Frame::data(Arc::clone(&data))));
        }
    }

    /// A FaceEventNotification for `face`.
    fn face_event_content(&self, event: FaceEvent, face: FaceId) -> Vec<u8> {
        let mut out = Vec::new();
        record(&mut out, FACE_EVENT_NOTIFICATION, |v| {
            number(v, FACE_EVENT_KIND, event as u64);
            self.face_identity(v, face);
            number(v, cp::FLAGS, self.face_flags(face));
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interest(uri: &str, can_be_prefix: bool, fresh: bool, lifetime_ms: u64) -> Arc<Interest> {
        let mut i = Interest::new(Name::parse(uri).unwrap(), 1, Time::from_millis(lifetime_ms));
        i.can_be_prefix = can_be_prefix;
        i.must_be_fresh = fresh;
        Arc::new(i)
    }

    #[test]
    fn notifications_are_numbered_from_0_and_answer_the_interests_waiting_for_them() {
        let mut s = FaceEvents::default();
        let (a, b) = (FaceId(1), FaceId(2));
        // a subscribes to the stream, b waits for seq=1, a second Interest of a for seq=0.
        s.wait(a, interest("/localhost/nfd/faces/events", true, true, 4000), Time::ZERO);
        s.wait(b, interest("/localhost/nfd/faces/events/seq=1", false, false, 4000), Time::ZERO);
        s.wait(a, interest("/localhost/nfd/faces/events/seq=0", false, false, 4000), Time::ZERO);
        let (first, to) = s.post(b"x".to_vec(), Time::from_millis(10));
        assert_eq!(first.name.to_string(), "/localhost/nfd/faces/events/seq=0");
        assert_eq!(first.freshness_period, Some(FRESHNESS));
        assert_eq!(to, vec![a], "both of a's Interests, one Data");
        assert_eq!(s.waiting(), 1);
        let (second, to) = s.post(b"y".to_vec(), Time::from_millis(20));
        assert_eq!((second.name.to_string().as_str(), to), ("/localhost/nfd/faces/events/seq=1", vec![b]));
        assert_eq!(s.waiting(), 0);
    }

    #[test]
    fn a_kept_notification_answers_at_once_and_the_stream_name_only_while_fresh() {
        let mut s = FaceEvents::default();
        s.post(b"x".to_vec(), Time::from_millis(100));
        let stream = interest("/localhost/nfd/faces/events", true, true, 4000);
        // Posted at 100 ms, fresh for 1 s: the stream's name gets it until 1,100 ms.
        assert!(s.kept_answer(&stream, Time::from_millis(1099)).is_some());
        assert!(s.kept_answer(&stream, Time::from_millis(1100)).is_none());
        // seq=0 by its name, whenever asked, while kept; seq=1 is not posted yet.
        let seq0 = interest("/localhost/nfd/faces/events/seq=0", false, false, 4000);
        assert!(s.kept_answer(&seq0, Time::from_secs(60)).is_some());
        assert!(s
            .kept_answer(&interest("/localhost/nfd/faces/events/seq=1", false, false, 4000), Time::ZERO)
            .is_none());
    }

    #[test]
    fn an_expired_interest_is_not_answered_and_the_waiting_are_bounded() {
        let mut s = FaceEvents::default();
        s.wait(FaceId(1), interest("/localhost/nfd/faces/events", true, true, 100), Time::ZERO);
        // Its lifetime ended at 100 ms: a notification at 100 ms does not go to it.
        let (_, to) = s.post(b"x".to_vec(), Time::from_millis(100));
        assert!(to.is_empty() && s.waiting() == 0);
        for k in 0..PENDING_LIMIT as u32 + 10 {
            s.wait(FaceId(k), interest("/localhost/nfd/faces/events/seq=9", false, false, 4000), Time::ZERO);
        }
        assert_eq!(s.waiting(), PENDING_LIMIT);
    }
}
