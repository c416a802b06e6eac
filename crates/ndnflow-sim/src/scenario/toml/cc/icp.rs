//! `algorithm = "icp"`: ICP (the survey's §II), with its own (RTT_min + RTT_max) / 2 timer or the
//! consumer's RFC 6298 estimator.

use ndnflow_core::app::cc::{CcConfig, IcpConfig, IcpRto};

use super::{CcReader, SIGNALS, WINDOW};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader =
    CcReader { name: "icp", keys: &[WINDOW, SIGNALS, &["rto", "rto_window"]], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = IcpConfig::default();
    r.cc_window(t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
    r.cc_signals(t, &mut c.signals)?;
    if let Some(x) = t.get("rto") {
        c.rto = match r.choice(x, &t.field("rto"), &["min-max", "rfc6298"])? {
            "rfc6298" => IcpRto::Rfc6298,
            _ => IcpRto::MinMax,
        };
    }
    if let Some(x) = t.get("rto_window") {
        c.rto_window = r.u32_value(x, &t.field("rto_window"), 0)?;
    }
    Ok(CcConfig::Icp(c))
}
