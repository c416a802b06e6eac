//! The subset of NFD's management protocol that applications use (issue 25, item 3): prefix
//! registration, face creation and destruction, strategy choice, and the status datasets, answered
//! by the daemon for Interests under /localhost/nfd from local faces.

pub mod control;
pub mod dataset;
pub mod manager;
pub mod rib;
mod status;
