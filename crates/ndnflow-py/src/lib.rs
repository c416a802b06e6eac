//! Thin PyO3 layer: the `ndnflow._core` extension module. All logic lives in ndnflow-core and
//! ndnflow-sim; this crate only converts between Python objects and theirs.

use pyo3::prelude::*;

/// The system allocator with a memory reserve it gives back when the system refuses, so that a
/// run outgrowing the process's memory ends with its results instead of aborting
/// (`ndnflow_core::reserve`; armed when a simulation is built).
#[global_allocator]
static ALLOCATOR: ndnflow_core::reserve::ReserveAllocator = ndnflow_core::reserve::ReserveAllocator;

mod app;
mod codec;
mod facts;
mod fwd;
mod protocols;
mod sim;
mod traces;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    sim::register(m)?;
    codec::register(m)?;
    fwd::register(m)?;
    app::register(m)?;
    protocols::views::register(m)?;
    Ok(())
}
