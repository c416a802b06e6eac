//! Producer: answers every Interest under its prefix with a Data of the same name (ndnSIM `Producer`,
//! ndnputchunks). With a segment count, the last segment carries FinalBlockId and Interests beyond
//! it are not answered.

use std::sync::Arc;

use crate::packet::data::zero_payload;
use crate::packet::lp::flags;
use crate::packet::{Data, Frame, NetPacket};
use crate::time::Stepwise;
use crate::{Name, Time};

#[derive(Clone, Debug)]
pub struct ProducerConfig {
    pub prefix: Name,
    /// Content bytes per Data.
    pub payload: usize,
    /// From each instant on, Data carry that many bytes instead (increasing in time).
    pub payload_changes: Vec<(Time, usize)>,
    pub segments: Option<u64>,
    pub freshness: Option<Time>,
}

pub struct Producer {
    config: ProducerConfig,
    /// Payload size, following `config.payload_changes`.
    payload: Stepwise<usize>,
    pub interests_received: u64,
    pub data_sent: u64,
}

impl Producer {
    pub fn new(config: ProducerConfig) -> Producer {
        let payload = Stepwise::new(config.payload, config.payload_changes.clone());
        Producer { payload, config, interests_received: 0, data_sent: 0 }
    }

    pub fn prefix(&self) -> &Name {
        &self.config.prefix
    }

    /// Handles a frame from the forwarder; returns the Data to send back, if any.
    pub fn handle(&mut self, now: Time, frame: Frame) -> Option<Frame> {
        let hint = frame.pit_hint();
        let NetPacket::Interest(interest) = frame.packet else { return None };
        self.interests_received += 1;
        if !self.config.prefix.is_prefix_of(&interest.name) {
            return None;
        }
        let segment = interest.name.last().and_then(|c| c.as_segment());
        let payload = self.payload.at(now);
        let mut data = Data::new(interest.name.clone(), zero_payload(payload));
        data.freshness_period = self.config.freshness;
        if let (Some(count), Some(seg)) = (self.config.segments, segment) {
            if seg >= count {
                return None;
            }
            if seg + 1 == count {
                let mut value = Vec::new();
                crate::packet::tlv::write_nonneg(&mut value, seg);
                data.final_block_id = Some((crate::name::component_type::SEGMENT, value.into()));
            }
        }
        self.data_sent += 1;
        // Like NDNLPv2's PitToken, the Data echoes the Interest's hint to the forwarder.
        let mut reply = Frame::data(Arc::new(data));
        reply.set_pit_hint(hint);
        // PTP §3-A: a probing Interest gets a probing Data, with an empty tag stack for the
        // routers on the way back to fill.
        reply.lp.flags |= frame.lp.flags & flags::PTP_PROBE;
        // MIRCC: the Data is of its Interest's class, in which the links count its bytes.
        reply.lp.flags |= frame.lp.flags & flags::MIRCC_SECONDARY;
        Some(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Interest;

    fn ask(p: &mut Producer, now_ms: u64) -> usize {
        let i = Interest::new(Name::parse("/p/seg=1").unwrap(), 1, Time::from_secs(2));
        let mut frame = Frame::interest(Arc::new(i));
        frame.set_pit_hint(7);
        let reply = p.handle(Time::from_millis(now_ms), frame).expect("a Data");
        assert_eq!(reply.pit_hint(), 7, "the Data echoes the Interest's PIT hint");
        let NetPacket::Data(d) = reply.packet else { panic!("expected Data") };
        d.content.len()
    }

    #[test]
    fn payload_follows_its_schedule() {
        // PCON §4.3 "Payload x50": 100 B, 5000 B from 5 s, back to 100 B at 15 s.
        let changes = vec![(Time::from_secs(5), 5000), (Time::from_secs(15), 100)];
        let config = ProducerConfig {
            prefix: Name::parse("/p").unwrap(),
            payload: 100,
            payload_changes: changes,
            segments: None,
            freshness: None,
        };
        let mut p = Producer::new(config);
        let sizes: Vec<usize> = [0, 4999, 5000, 14_999, 15_000, 30_000].iter().map(|&t| ask(&mut p, t)).collect();
        assert_eq!(sizes, vec![100, 100, 5000, 5000, 100, 100]);
    }

    #[test]
    fn data_echoes_the_interests_mircc_class_and_probe_flag_only() {
        let config = ProducerConfig {
            prefix: Name::parse("/p").unwrap(),
            payload: 10,
            payload_changes: Vec::new(),
            segments: None,
            freshness: None,
        };
        let mut p = Producer::new(config);
        let reply = |p: &mut Producer, lp_flags: u64| {
            let i = Interest::new(Name::parse("/p/seg=1").unwrap(), 1, Time::from_secs(2));
            let mut frame = Frame::interest(Arc::new(i));
            frame.lp.flags = lp_flags;
            p.handle(Time::ZERO, frame).expect("a Data").lp.flags
        };
        let secondary = flags::MIRCC_SECONDARY;
        assert_eq!(reply(&mut p, secondary), secondary);
        assert_eq!(reply(&mut p, secondary | flags::RTT_PROBING), secondary, "only the class and PTP_PROBE echo");
        assert_eq!(reply(&mut p, flags::PTP_PROBE), flags::PTP_PROBE);
        assert_eq!(reply(&mut p, 0), 0);
    }
}
