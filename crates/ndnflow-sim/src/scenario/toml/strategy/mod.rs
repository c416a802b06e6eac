//! The reader of a forwarding strategy, `strategy = "NAME"` or `strategy = { name = "NAME", ... }`
//! (a node's `strategy` and each entry of its `strategies`): a `StrategyReader` per strategy (its
//! names, the parameters it takes, how it is built) registered in `STRATEGIES`. Either form works
//! for every strategy; the shared part here finds the strategy and rejects, naming them, keys it
//! does not take.
//!
//! A strategy without parameters is one line in `STRATEGIES` (`StrategyReader::plain`) and no file:
//! there is nothing to read, so a file each would hold only its name. A strategy with parameters
//! gets a file here with its `READER` (`pcon.rs`, `paf.rs`, `asf.rs`).
//!
//! Adding a strategy: its `StrategyName` variant and `make_strategy` arm in ndnflow-core
//! (`fw/config.rs`), one line in `STRATEGIES` (and a file here if it takes parameters), its row in
//! docs/scenario-format.md, and a test.

mod asf;
mod paf;
mod pcon;

use toml::de::DeValue;

use super::error::{did_you_mean, quoted_list};
use super::values::Tbl;
use super::{Reader, Res, Val};
use crate::scenario::model::StrategyKind;

/// How a strategy is built from what the scenario gives.
enum Build {
    /// No parameters: always this.
    Fixed(StrategyKind),
    /// Read from the table form, or `None` for the string form (every parameter at its default).
    Read(fn(&Reader<'_, '_>, Option<&Tbl<'_, '_>>) -> Res<StrategyKind>),
}

/// One strategy's reader.
pub(super) struct StrategyReader {
    /// The scenario's word for it, then its aliases.
    names: &'static [&'static str],
    /// The parameters its table form takes besides `name`.
    keys: &'static [&'static str],
    build: Build,
}

impl StrategyReader {
    const fn plain(names: &'static [&'static str], kind: StrategyKind) -> StrategyReader {
        StrategyReader { names, keys: &[], build: Build::Fixed(kind) }
    }
}

/// Every strategy, in the order error messages list them.
const STRATEGIES: &[StrategyReader] = &[
    StrategyReader::plain(&["best-route"], StrategyKind::BestRoute),
    StrategyReader::plain(&["multicast"], StrategyKind::Multicast),
    StrategyReader::plain(&["pi"], StrategyKind::Pi),
    StrategyReader::plain(&["rfa", "cf"], StrategyKind::Rfa),
    StrategyReader::plain(&["drf"], StrategyKind::Drf),
    pcon::READER,
    StrategyReader::plain(&["fpf"], StrategyKind::Fpf),
    paf::READER,
    StrategyReader::plain(&["random"], StrategyKind::Random),
    StrategyReader::plain(&["self-learning"], StrategyKind::SelfLearning),
    asf::READER,
];

const WHAT: &str = "a strategy name, or a table such as { name = \"pcon\", change_perc = 0.02 }";

fn names() -> Vec<&'static str> {
    STRATEGIES.iter().flat_map(|s| s.names.iter().copied()).collect()
}

fn find(name: &str) -> Option<&'static StrategyReader> {
    STRATEGIES.iter().find(|s| s.names.contains(&name))
}

/// Why `key` is refused for `strategy`: what it takes, and which strategies take which keys.
fn key_refused(key: &str, name: &str, strategy: &StrategyReader) -> String {
    let mut msg = if strategy.keys.is_empty() {
        format!("{key:?} does not apply to strategy {name:?}, which takes no parameters")
    } else {
        format!("{key:?} does not apply to strategy {name:?}; it takes {}", strategy.keys.join(", "))
    };
    if let Some(m) = did_you_mean(key, strategy.keys) {
        msg.push_str(&format!(" (did you mean {m:?}?)"));
    }
    let others: Vec<String> = STRATEGIES
        .iter()
        .filter(|s| !s.keys.is_empty() && !std::ptr::eq(*s, strategy))
        .map(|s| format!("{} takes {}", s.names[0], s.keys.join(", ")))
        .collect();
    if !others.is_empty() {
        msg.push_str(&format!("; {}", others.join("; ")));
    }
    msg
}

impl Reader<'_, '_> {
    /// A strategy by name (every parameter at its default), or as a table with its parameters.
    pub(super) fn strategy(&self, v: &Val<'_>, field: &str) -> Res<StrategyKind> {
        let names = names();
        if !matches!(v.get_ref(), DeValue::Table(_)) {
            let name = self.choice(v, field, &names)?;
            return match find(name).map(|s| &s.build) {
                Some(Build::Fixed(kind)) => Ok(*kind),
                Some(Build::Read(read)) => read(self, None),
                None => Err(self.ctx.err(v.span(), field, format!("unknown strategy {name:?}"))),
            };
        }
        // Keys are checked once the name says which strategy they are for.
        let t = self.any_table(v, field, WHAT)?;
        let hint = format!("the strategy's name: one of {}", quoted_list(&names));
        let nv = self.required(&t, "name", &hint)?;
        let name = self.choice(nv, &t.field("name"), &names)?;
        let Some(strategy) = find(name) else {
            return Err(self.ctx.err(nv.span(), &t.field("name"), format!("unknown strategy {name:?}")));
        };
        if let Some((key, _)) = t.entries.iter().find(|(k, _)| {
            let k = k.get_ref().as_ref();
            k != "name" && !strategy.keys.contains(&k)
        }) {
            let key = key.get_ref().as_ref();
            return Err(self.ctx.err(t.key_span(key), &t.field(key), key_refused(key, name, strategy)));
        }
        match &strategy.build {
            Build::Fixed(kind) => Ok(*kind),
            Build::Read(read) => read(self, Some(&t)),
        }
    }
}
