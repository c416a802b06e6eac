//! One test binary for the codec's tests: each file of this directory is a module of it.
//!
//! Cargo builds a binary per file of `tests/` by default, and each one links the whole crate
//! graph again (thin LTO in the release profile the suite builds): with some fifty such binaries
//! the links took most of the suite's build time. Run one file's tests with
//! `cargo test -p ndnflow-core --test all FILE::`.

mod codec;
mod codec_fuzz;
mod codec_props;
