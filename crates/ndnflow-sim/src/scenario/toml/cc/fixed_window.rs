//! `algorithm = "fixed-window"`: at most `window` Interests outstanding (ndnSIM ConsumerWindow
//! without adaptation, ndnget `--pipeline-type fixed`).

use ndnflow_core::app::cc::CcConfig;

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader { name: "fixed-window", keys: &[&["window"]], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let w = r.required(t, "window", "Interests in flight, e.g. window = 10")?;
    let window = r.u32_value(w, &t.field("window"), 1)?;
    Ok(CcConfig::FixedWindow { window })
}
