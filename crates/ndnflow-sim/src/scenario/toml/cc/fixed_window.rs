//! `algorithm = "fixed-window"`: at most `window` Interests outstanding (ndnSIM ConsumerWindow
//! without adaptation, ndnget `--pipeline-type fixed`).

use ndnflow_core::app::cc::CcConfig;

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader { name: "fixed-window", keys: &[&["window"]], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let w = r.required(t, "window", "Interests in flight, e.g. window = 10")?;
    let n = r.uint(w, &t.field("window"))?;
    if n == 0 {
        return Err(r.ctx.err(w.span(), &t.field("window"), "window must be at least 1"));
    }
    let window = u32::try_from(n).map_err(|_| r.ctx.err(w.span(), &t.field("window"), format!("{n} is too large")))?;
    Ok(CcConfig::FixedWindow { window })
}
