//! `algorithm = "raaqm"`: RAAQM, single route (hICN's compiled defaults;
//! docs/protocols/congestion-control.md).

use ndnflow_core::app::cc::{CcConfig, RaaqmConfig, RaaqmTimeout};

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader {
    name: "raaqm",
    keys: &[&[
        "initial_window",
        "min_window",
        "max_window",
        "beta",
        "gamma",
        "p_min",
        "p_max",
        "samples",
        "threshold",
        "per_window",
        "slow_start",
        "on_timeout",
    ]],
    read,
    hint: None,
};

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = RaaqmConfig::default();
    let mut ssthresh = f64::INFINITY;
    // initial_window and beta as for the other window controllers.
    r.cc_window(t, &mut c.initial_window, &mut ssthresh, &mut c.beta)?;
    for (key, slot) in [("min_window", &mut c.min_window), ("max_window", &mut c.max_window)] {
        if let Some(x) = t.get(key) {
            *slot = r.cc_number(x, &t.field(key), 1.0, true, "must be at least 1 (Interests)")?;
        }
    }
    if c.min_window > c.max_window {
        let (key, span) = t.crossing(["min_window", "max_window"]);
        let msg = format!("min_window ({}) must not exceed max_window ({})", c.min_window, c.max_window);
        return Err(r.ctx.err(span, &t.field(key), msg));
    }
    if let Some(x) = t.get("gamma") {
        c.gamma = r.cc_number(x, &t.field("gamma"), 0.0, false, "must be positive (Interests per RTT)")?;
    }
    for key in ["p_min", "p_max"] {
        if let Some(x) = t.get(key) {
            let p = r.number(x, &t.field(key))?;
            if !(0.0..=1.0).contains(&p) {
                let msg = format!("{key} is a probability: between 0 and 1, found {p}");
                return Err(r.ctx.err(x.span(), &t.field(key), msg));
            }
            if key == "p_min" {
                c.p_min = p;
            } else {
                c.p_max = p;
            }
        }
    }
    if c.p_min > c.p_max {
        let (key, span) = t.crossing(["p_min", "p_max"]);
        let msg = format!("p_min ({}) must not exceed p_max ({})", c.p_min, c.p_max);
        return Err(r.ctx.err(span, &t.field(key), msg));
    }
    if let Some(x) = t.get("samples") {
        c.samples = r.u32_value(x, &t.field("samples"), 1)?;
    }
    // The options of Ye's ndnSIM consumer (docs/protocols/congestion-control.md).
    if let Some(x) = t.get("threshold") {
        c.threshold = r.duration(x, &t.field("threshold"))?;
    }
    if let Some(x) = t.get("per_window") {
        c.per_window = r.boolean(x, &t.field("per_window"))?;
    }
    if let Some(x) = t.get("slow_start") {
        c.slow_start = r.boolean(x, &t.field("slow_start"))?;
    }
    if let Some(x) = t.get("on_timeout") {
        c.on_timeout = match r.choice(x, &t.field("on_timeout"), &["decrease", "reset"])? {
            "decrease" => RaaqmTimeout::Decrease,
            _ => RaaqmTimeout::Reset,
        };
    }
    Ok(CcConfig::Raaqm(c))
}
