//! `algorithm = "dpccp"`: DPCCP's consumer (`ndnflow_core::app::multipath::dpccp`;
//! docs/protocols/dpccp.md).

use ndnflow_core::app::cc::CcConfig;
use ndnflow_core::app::multipath::{DpccpConfig, RateConfig};

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader {
    name: "dpccp",
    keys: &[
        &["max_paths", "probe_rate", "setpoint", "initial_window", "min_rto"],
        &["delta", "psi", "eta", "k", "drain_rate", "zeta"],
    ],
    read,
    hint: None,
};

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = DpccpConfig::default();
    if let Some(x) = t.get("max_paths") {
        c.max_paths = r.u32_value(x, &t.field("max_paths"), 1)? as usize;
    }
    if let Some(x) = t.get("min_rto") {
        c.min_rto = r.positive_duration(x, &t.field("min_rto"))?;
    }
    let positive = |key: &str, what: &str, slot: &mut f64| -> Res<()> {
        if let Some(x) = t.get(key) {
            *slot = r.cc_number(x, &t.field(key), 0.0, false, what)?;
        }
        Ok(())
    };
    positive("probe_rate", "must be positive (probing Interests per second)", &mut c.probe_rate)?;
    positive("setpoint", "must be positive (packets the flow keeps queued)", &mut c.setpoint)?;
    positive("initial_window", "must be positive (Interests per RTT)", &mut c.initial_window)?;
    // The laws' thresholds follow the setpoint unless given.
    let mut rate = RateConfig::for_setpoint(c.setpoint);
    positive("psi", "must be positive (packets)", &mut rate.psi)?;
    positive("eta", "must be positive (packets)", &mut rate.eta)?;
    positive("drain_rate", "must be positive (Interests per second)", &mut rate.drain_rate)?;
    for (key, slot) in [("delta", &mut rate.delta), ("zeta", &mut rate.zeta)] {
        if let Some(x) = t.get(key) {
            let v = r.number(x, &t.field(key))?;
            if !(v > 0.0 && v < 1.0) {
                return Err(r.ctx.err(
                    x.span(),
                    &t.field(key),
                    format!("must be between 0 and 1 exclusive, found {v}"),
                ));
            }
            *slot = v;
        }
    }
    if let Some(x) = t.get("k") {
        rate.k = r.u32_value(x, &t.field("k"), 1)? as usize;
    }
    if rate.psi >= rate.eta {
        // Blame what was written: psi or eta when given, else the setpoint, whose 3x is eta's
        // default and which can take eta to psi's default of 1 packet or below.
        let written = t.get("psi").is_some() || t.get("eta").is_some();
        let (key, span, why) = if written {
            let (key, span) = t.crossing(["psi", "eta"]);
            (key, span, format!("psi ({}) must be below eta ({})", rate.psi, rate.eta))
        } else {
            let why = format!(
                "psi ({}) must be below eta ({}, 3 x setpoint): a setpoint of 1/3 packet or less needs psi or eta given",
                rate.psi, rate.eta
            );
            ("setpoint", t.get("setpoint").map_or(t.span.clone(), |x| x.span()), why)
        };
        return Err(r.ctx.err(span, &t.field(key), why));
    }
    c.rate = rate;
    Ok(CcConfig::Dpccp(c))
}
