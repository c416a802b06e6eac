//! The subset of NFD's management protocol that applications use (issue 25, item 3): prefix
//! registration, face creation, update and destruction, strategy choice, and the status datasets
//! (faces/query and cs/info among them), answered by the daemon for Interests under /localhost/nfd
//! from local faces.

pub mod control;
mod cs;
pub mod dataset;
pub mod faces;
pub mod manager;
pub mod notify;
pub mod rib;
mod status;
