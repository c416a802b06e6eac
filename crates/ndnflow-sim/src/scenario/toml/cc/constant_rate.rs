//! `algorithm = "constant-rate"`: `rate` Interests per second regardless of feedback (ndnSIM
//! ConsumerCbr `Frequency`), evenly spaced or at random gaps of the same mean (`randomize`,
//! ConsumerCbr's `Randomize`).

use ndnflow_core::app::cc::{CcConfig, Randomize};

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader =
    CcReader { name: "constant-rate", keys: &[&["rate", "randomize"]], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let v = r.required(t, "rate", "Interests per second, e.g. rate = 100.0")?;
    let rate = r.number(v, &t.field("rate"))?;
    if rate <= 0.0 {
        return Err(r.ctx.err(
            v.span(),
            &t.field("rate"),
            format!("rate must be positive (Interests per second), found {rate}"),
        ));
    }
    let randomize = match t.get("randomize") {
        Some(x) => {
            let name = r.choice(x, &t.field("randomize"), &Randomize::NAMES)?;
            Randomize::parse(name).unwrap_or_default()
        }
        None => Randomize::None,
    };
    Ok(CcConfig::ConstantRate { rate, randomize })
}
