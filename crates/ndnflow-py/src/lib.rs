//! Thin PyO3 layer: the `ndnflow._core` extension module. All logic lives in ndnflow-core and
//! ndnflow-sim; this crate only converts between Python objects and theirs.

use pyo3::prelude::*;

mod codec;
mod facts;
mod protocols;
mod sim;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    sim::register(m)?;
    codec::register(m)?;
    protocols::views::register(m)?;
    Ok(())
}
