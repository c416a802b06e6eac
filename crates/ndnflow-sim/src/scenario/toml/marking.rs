//! The reader of a link's `marking` option: NFD's send-queue congestion marker
//! (`ndnflow_core::link::nfd_mark`; docs/protocols/queues.md "NFD congestion marking").
//!
//! Forms: `marking = "nfd"` (NFD's defaults), `marking = { scheme = "nfd", threshold = "64KiB",
//! interval = "100ms" }` (each parameter optional), and `marking = "none"` (no marker: exempts a
//! direction from a marker set on the link). `scheme` is required in the table form so a later
//! scheme can take other parameters without guessing.

use toml::de::DeValue;

use super::error::found;
use super::{Reader, Res, Val};
use crate::scenario::model::NfdMarkSpec;

const WHAT: &str =
    "\"nfd\", \"none\", or a table such as { scheme = \"nfd\", threshold = \"64KiB\", interval = \"100ms\" }";

impl Reader<'_, '_> {
    /// `Some(spec)`: a marker; `None`: `marking = "none"`.
    pub(super) fn marking(&self, v: &Val<'_>, path: &str) -> Res<Option<NfdMarkSpec>> {
        match v.get_ref() {
            DeValue::String(_) => {
                return Ok(match self.choice(v, path, &["nfd", "none"])? {
                    "nfd" => Some(NfdMarkSpec::default()),
                    _ => None,
                })
            }
            DeValue::Table(_) => {}
            other => return Err(self.ctx.err(v.span(), path, format!("expected {WHAT}, found {}", found(other)))),
        }
        let t = self.table(v, path, &["scheme", "threshold", "interval"], WHAT)?;
        let scheme = self.required(&t, "scheme", "the marking scheme; \"nfd\" is the only one")?;
        self.choice(scheme, &t.field("scheme"), &["nfd"])?;
        let mut spec = NfdMarkSpec::default();
        if let Some(x) = t.get("threshold") {
            // Zero is allowed: every packet that finds anything queued counts as congested.
            spec.threshold = self.size(x, &t.field("threshold"))?;
        }
        if let Some(x) = t.get("interval") {
            spec.interval = self.positive_duration(x, &t.field("interval"))?;
        }
        Ok(Some(spec))
    }
}
