//! Applications on a node's app faces: the producer and the segment-fetching consumer with its
//! pluggable congestion controllers.

pub mod batches;
pub mod catalog;
pub mod cc;
pub mod consumer;
pub mod multipath;
pub mod producer;
pub mod rtt;
pub mod rtt_histogram;
pub mod send_jitter;

pub use batches::{Batch, Batches};
pub use catalog::{CatalogConfig, ObjectRecord, ZipfMandelbrot};
pub use consumer::{Consumer, ConsumerConfig, ConsumerStats, InFlightRule, SegmentRecord};
pub use producer::{Producer, ProducerConfig};
pub use rtt::{RttEstimator, RttOptions, TimerModel};
pub use rtt_histogram::RttHistogram;
