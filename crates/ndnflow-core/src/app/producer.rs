//! Producer: answers every Interest under its prefix with a Data of the same name (ndnSIM `Producer`,
//! ndnputchunks). With a segment count, the last segment carries FinalBlockId and Interests beyond
//! it are not answered.

use std::sync::Arc;

use crate::packet::data::zero_payload;
use crate::packet::{Data, Frame, NetPacket};
use crate::{Name, Time};

#[derive(Clone, Debug)]
pub struct ProducerConfig {
    pub prefix: Name,
    /// Content bytes per Data.
    pub payload: usize,
    pub segments: Option<u64>,
    pub freshness: Option<Time>,
}

pub struct Producer {
    config: ProducerConfig,
    pub interests_received: u64,
    pub data_sent: u64,
}

impl Producer {
    pub fn new(config: ProducerConfig) -> Producer {
        Producer { config, interests_received: 0, data_sent: 0 }
    }

    pub fn prefix(&self) -> &Name {
        &self.config.prefix
    }

    /// Handles a frame from the forwarder; returns the Data to send back, if any.
    pub fn handle(&mut self, _now: Time, frame: Frame) -> Option<Frame> {
        let NetPacket::Interest(interest) = frame.packet else { return None };
        self.interests_received += 1;
        if !self.config.prefix.is_prefix_of(&interest.name) {
            return None;
        }
        let segment = interest.name.last().and_then(|c| c.as_segment());
        let mut data = Data::new(interest.name.clone(), zero_payload(self.config.payload));
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
        Some(Frame::data(Arc::new(data)))
    }
}
