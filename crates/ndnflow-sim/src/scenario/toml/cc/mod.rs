//! The reader of a consumer's congestion control, `cc = { algorithm = "...", ... }`: one file per
//! algorithm, each a `CcReader` (its name, the keys it takes, a function that reads them)
//! registered in `READERS`. The shared part here checks the table, finds the algorithm's reader,
//! rejects keys that belong to another algorithm, and holds the helpers the readers share.
//!
//! Adding a controller: its core type and `CcConfig` variant, a file here with its `READER`, one
//! line in `READERS`, its row in docs/scenario-format.md, and a test.

mod aimd;
mod bic;
mod chopcop;
mod constant_rate;
mod cubic;
mod dpccp;
mod fixed_window;
mod icp;
mod mircc;
mod mptcp;
mod ptp;
mod raaqm;
mod smic;

use ndnflow_core::app::cc::{CcConfig, SignalConfig};

use super::values::Tbl;
use super::{Reader, Res, Val};

/// One algorithm's reader.
pub(super) struct CcReader {
    /// The `algorithm` value.
    name: &'static str,
    /// The keys it takes besides `algorithm`, as groups (shared groups below).
    keys: &'static [&'static [&'static str]],
    read: fn(&Reader<'_, '_>, &Tbl<'_, '_>) -> Res<CcConfig>,
    /// Said after "does not apply" when one of `hint_keys` is given.
    hint: Option<(&'static [&'static str], &'static str)>,
}

/// Every algorithm, in the order error messages list them.
const READERS: &[CcReader] = &[
    fixed_window::READER,
    constant_rate::READER,
    aimd::READER,
    bic::BIC,
    cubic::READER,
    bic::PCON,
    chopcop::READER,
    icp::READER,
    raaqm::READER,
    ptp::READER,
    mptcp::READER,
    dpccp::READER,
    mircc::READER,
    smic::READER,
];

/// Keys of the window controllers' loss and mark signals (PCON Algorithm 1's CWA and friends).
const SIGNALS: &[&str] =
    &["cwa", "rtt_suppress", "react_to_marks", "cwa_on_marks", "decrease_on_unmarked_nacks", "per_window"];
/// Keys every window controller takes.
const WINDOW: &[&str] = &["initial_window", "initial_ssthresh", "beta"];

impl CcReader {
    fn takes(&self) -> impl Iterator<Item = &'static str> {
        self.keys.iter().flat_map(|g| g.iter().copied())
    }
}

impl Reader<'_, '_> {
    pub(super) fn cc(&self, v: &Val<'_>, path: &str) -> Res<CcConfig> {
        let mut all: Vec<&str> = vec!["algorithm"];
        for key in READERS.iter().flat_map(CcReader::takes) {
            if !all.contains(&key) {
                all.push(key);
            }
        }
        let t = self.table(v, path, &all, "a table such as { algorithm = \"fixed-window\", window = 10 }")?;
        let names: Vec<&str> = READERS.iter().map(|r| r.name).collect();
        let listed = names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>();
        let choices = format!("{} or {}", listed[..listed.len() - 1].join(", "), listed[listed.len() - 1]);
        let av = self.required(&t, "algorithm", &choices)?;
        let algorithm = self.choice(av, &t.field("algorithm"), &names)?;
        let Some(reader) = READERS.iter().find(|r| r.name == algorithm) else {
            return Err(self.ctx.err(av.span(), &t.field("algorithm"), format!("unknown algorithm {algorithm:?}")));
        };
        let takes: Vec<&str> = reader.takes().collect();
        if let Some((key, _)) = t.entries.iter().find(|(k, _)| {
            let k = k.get_ref().as_ref();
            k != "algorithm" && !takes.contains(&k)
        }) {
            let key = key.get_ref().as_ref();
            let mut msg = format!("{key:?} does not apply to algorithm = {algorithm:?}; it takes {}", takes.join(", "));
            if let Some((keys, hint)) = reader.hint {
                if keys.contains(&key) {
                    msg.push_str(hint);
                }
            }
            return Err(self.ctx.err(t.key_span(key), &t.field(key), msg));
        }
        (reader.read)(self, &t)
    }

    /// A number above `min` (or equal to it when `inclusive`).
    pub(super) fn cc_number(&self, v: &Val<'_>, field: &str, min: f64, inclusive: bool, what: &str) -> Res<f64> {
        let x = self.number(v, field)?;
        if x < min || (!inclusive && x == min) {
            return Err(self.ctx.err(v.span(), field, format!("{what}, found {x}")));
        }
        Ok(x)
    }

    fn cc_flag(&self, t: &Tbl<'_, '_>, key: &str, slot: &mut bool) -> Res<()> {
        if let Some(x) = t.get(key) {
            *slot = self.boolean(x, &t.field(key))?;
        }
        Ok(())
    }

    /// `initial_window`, `initial_ssthresh` and `beta`, as every window controller takes them.
    fn cc_window(&self, t: &Tbl<'_, '_>, initial: &mut f64, ssthresh: &mut f64, beta: &mut f64) -> Res<()> {
        if let Some(x) = t.get("initial_window") {
            *initial = self.cc_number(x, &t.field("initial_window"), 1.0, true, "must be at least 1 (Interests)")?;
        }
        if let Some(x) = t.get("initial_ssthresh") {
            *ssthresh = self.cc_number(x, &t.field("initial_ssthresh"), 1.0, true, "must be at least 1 (Interests)")?;
        }
        if let Some(x) = t.get("beta") {
            let b = self.number(x, &t.field("beta"))?;
            if !(b > 0.0 && b < 1.0) {
                return Err(self.ctx.err(
                    x.span(),
                    &t.field("beta"),
                    format!("beta is the factor the window is multiplied by on a decrease: between 0 and 1 exclusive, found {b}"),
                ));
            }
            *beta = b;
        }
        Ok(())
    }

    fn cc_signals(&self, t: &Tbl<'_, '_>, s: &mut SignalConfig) -> Res<()> {
        self.cc_flag(t, "cwa", &mut s.cwa)?;
        self.cc_flag(t, "react_to_marks", &mut s.react_to_marks)?;
        self.cc_flag(t, "cwa_on_marks", &mut s.cwa_on_marks)?;
        self.cc_flag(t, "decrease_on_unmarked_nacks", &mut s.decrease_on_unmarked_nacks)?;
        self.cc_flag(t, "per_window", &mut s.per_window)?;
        if let Some(x) = t.get("rtt_suppress") {
            s.rtt_suppress = self.cc_number(x, &t.field("rtt_suppress"), 0.0, true, "must not be negative")?;
        }
        Ok(())
    }
}
