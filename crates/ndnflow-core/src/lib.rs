//! ndnflow-core: the sans-IO protocol core of ndnflow.
//!
//! Every element here is a state machine handed `now` and an input, returning outputs and timers.
//! Nothing reads a clock, sleeps or touches a socket, so the discrete-event simulator
//! (`ndnflow-sim`) and, later, a real-time driver run the same code.

pub mod app;
pub mod fw;
pub mod grow;
pub mod link;
pub mod mix;
pub mod name;
pub mod packet;
pub mod reserve;
pub mod table;
pub mod time;
pub mod timers;

pub use name::Name;
pub use packet::{Data, Frame, Interest, Nack, NackReason, NetPacket};
pub use time::Time;
