//! The typed value readers of the scenario reader: [`Tbl`] (a document table with its field path)
//! and the `Reader` methods that turn one value into a duration, bandwidth, size, integer,
//! probability, NDN name, node reference, ..., each with an error that says what was expected.

use std::borrow::Cow;
use std::ops::Range;

use ndnflow_core::{Name, Time};
use toml::de::DeValue;
use toml::Spanned;

use super::error::{did_you_mean, found, join, name_list, quoted_list, ScenarioError};
use super::{Reader, Res, Val};
use crate::scenario::model::NodeId;
use crate::scenario::units::{parse_bandwidth, parse_duration, parse_size};

/// A table of the document with its field path; entries in source order.
pub(super) struct Tbl<'a, 'i> {
    path: String,
    pub(super) span: Range<usize>,
    pub(super) entries: Vec<(&'a Spanned<Cow<'i, str>>, &'a Val<'i>)>,
}

impl<'a, 'i> Tbl<'a, 'i> {
    pub(super) fn get(&self, key: &str) -> Option<&'a Val<'i>> {
        self.entries.iter().find(|(k, _)| k.get_ref().as_ref() == key).map(|(_, v)| *v)
    }
    pub(super) fn key_span(&self, key: &str) -> Range<usize> {
        self.entries.iter().find(|(k, _)| k.get_ref().as_ref() == key).map_or(self.span.clone(), |(k, _)| k.span())
    }
    pub(super) fn field(&self, key: &str) -> String {
        join(&self.path, key)
    }
    /// Of two bounds that cross, the one to blame and where: the first of `keys` that was
    /// written (a value given alone that crosses the other's default is the one at fault), or
    /// the first when neither was.
    pub(super) fn crossing<'k>(&self, keys: [&'k str; 2]) -> (&'k str, Range<usize>) {
        let key = keys.into_iter().find(|k| self.get(k).is_some()).unwrap_or(keys[0]);
        (key, self.get(key).map_or(self.span.clone(), |v| v.span()))
    }
}

impl Reader<'_, '_> {
    // ---------------------------------------------------------------- generic value readers

    /// A table whose keys the caller checks itself (when which keys are allowed depends on one of them).
    pub(super) fn any_table<'a, 'i>(&self, v: &'a Val<'i>, path: &str, what: &str) -> Res<Tbl<'a, 'i>> {
        let DeValue::Table(t) = v.get_ref() else {
            return Err(self.ctx.err(v.span(), path, format!("expected {what}, found {}", found(v.get_ref()))));
        };
        let mut entries: Vec<_> = t.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        Ok(Tbl { path: path.to_string(), span: v.span(), entries })
    }

    pub(super) fn table<'a, 'i>(&self, v: &'a Val<'i>, path: &str, allowed: &[&str], what: &str) -> Res<Tbl<'a, 'i>> {
        let t = self.any_table(v, path, what)?;
        for (k, _) in &t.entries {
            let key = k.get_ref().as_ref();
            if !allowed.contains(&key) {
                let mut msg = if path.is_empty() {
                    format!("unknown top-level key {key:?}; expected one of: {}", allowed.join(", "))
                } else {
                    format!("unknown field {key:?}; expected one of: {}", allowed.join(", "))
                };
                if let Some(s) = did_you_mean(key, allowed) {
                    msg.push_str(&format!(" (did you mean {s:?}?)"));
                }
                return Err(self.ctx.err(k.span(), &join(path, key), msg));
            }
        }
        Ok(t)
    }

    pub(super) fn required<'a, 'i>(&self, t: &Tbl<'a, 'i>, key: &str, hint: &str) -> Res<&'a Val<'i>> {
        t.get(key).ok_or_else(|| {
            let mut msg = format!("missing required field {key:?}");
            if !hint.is_empty() {
                msg.push_str(&format!(" ({hint})"));
            }
            self.ctx.err(t.span.clone(), &t.field(key), msg)
        })
    }

    pub(super) fn string<'a>(&self, v: &'a Val<'_>, field: &str, what: &str) -> Res<&'a str> {
        match v.get_ref() {
            DeValue::String(s) => Ok(s.as_ref()),
            other => Err(self.ctx.err(v.span(), field, format!("expected {what}, found {}", found(other)))),
        }
    }

    pub(super) fn choice<'o>(&self, v: &Val<'_>, field: &str, options: &[&'o str]) -> Res<&'o str> {
        let s = self.string(v, field, &format!("one of {}", quoted_list(options)))?;
        if let Some(o) = options.iter().find(|o| **o == s) {
            return Ok(o);
        }
        let mut msg = format!("unknown value {s:?}; expected one of {}", quoted_list(options));
        if let Some(m) = did_you_mean(s, options) {
            msg.push_str(&format!(" (did you mean {m:?}?)"));
        }
        Err(self.ctx.err(v.span(), field, msg))
    }

    pub(super) fn duration(&self, v: &Val<'_>, field: &str) -> Res<Time> {
        let s = self.string(v, field, "a duration string such as \"5ms\"")?;
        parse_duration(s).map_err(|m| self.ctx.err(v.span(), field, m))
    }

    pub(super) fn positive_duration(&self, v: &Val<'_>, field: &str) -> Res<Time> {
        let t = self.duration(v, field)?;
        if t == Time::ZERO {
            return Err(self.ctx.err(v.span(), field, "must be longer than 0"));
        }
        Ok(t)
    }

    pub(super) fn bandwidth(&self, v: &Val<'_>, field: &str) -> Res<u64> {
        let s = self.string(v, field, "a bandwidth string such as \"10Mbps\"")?;
        parse_bandwidth(s).map_err(|m| self.ctx.err(v.span(), field, m))
    }

    /// A size in bytes: a non-negative integer or a string with a unit ("150KB").
    pub(super) fn size(&self, v: &Val<'_>, field: &str) -> Res<usize> {
        match v.get_ref() {
            DeValue::String(s) => parse_size(s).map_err(|m| self.ctx.err(v.span(), field, m)),
            DeValue::Integer(_) => {
                let n = self.uint(v, field)?;
                usize::try_from(n).map_err(|_| self.ctx.err(v.span(), field, "too large"))
            }
            other => Err(self.ctx.err(
                v.span(),
                field,
                format!("expected a number of bytes (1500) or a size string such as \"150KB\", found {}", found(other)),
            )),
        }
    }

    pub(super) fn uint(&self, v: &Val<'_>, field: &str) -> Res<u64> {
        self.uint_at_least(v, field, 0)
    }

    /// An integer of at least `min`; the message of a value of another type says the same as the
    /// docs' type column ("integer >= 1"), not merely "a non-negative integer".
    fn uint_at_least(&self, v: &Val<'_>, field: &str, min: u64) -> Res<u64> {
        let DeValue::Integer(i) = v.get_ref() else {
            let expected = if min == 0 { "a non-negative integer".to_string() } else { format!("an integer >= {min}") };
            return Err(self.ctx.err(v.span(), field, format!("expected {expected}, found {}", found(v.get_ref()))));
        };
        match i128::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) if n < 0 && min == 0 => {
                Err(self.ctx.err(v.span(), field, format!("must not be negative, found {n}")))
            }
            Ok(n) if n < i128::from(min) => {
                Err(self.ctx.err(v.span(), field, format!("must be at least {min}, found {n}")))
            }
            Ok(n) => u64::try_from(n).map_err(|_| self.ctx.err(v.span(), field, format!("{n} is too large"))),
            Err(_) => Err(self.ctx.err(v.span(), field, format!("{i} is too large"))),
        }
    }

    pub(super) fn positive_uint(&self, v: &Val<'_>, field: &str) -> Res<u64> {
        self.uint_at_least(v, field, 1)
    }

    pub(super) fn u32_value(&self, v: &Val<'_>, field: &str, min: u32) -> Res<u32> {
        let n = self.uint_at_least(v, field, u64::from(min))?;
        u32::try_from(n).map_err(|_| self.ctx.err(v.span(), field, format!("{n} is too large (at most {})", u32::MAX)))
    }

    pub(super) fn number(&self, v: &Val<'_>, field: &str) -> Res<f64> {
        let x = match v.get_ref() {
            DeValue::Float(f) => f.as_str().parse::<f64>().ok(),
            DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix()).ok().map(|n| n as f64),
            other => return Err(self.ctx.err(v.span(), field, format!("expected a number, found {}", found(other)))),
        };
        match x {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(self.ctx.err(v.span(), field, "expected a finite number")),
        }
    }

    pub(super) fn probability(&self, v: &Val<'_>, field: &str) -> Res<f64> {
        let p = self.number(v, field)?;
        if !(0.0..=1.0).contains(&p) {
            return Err(self.ctx.err(v.span(), field, format!("probability must be between 0 and 1, found {p}")));
        }
        Ok(p)
    }

    pub(super) fn boolean(&self, v: &Val<'_>, field: &str) -> Res<bool> {
        match v.get_ref() {
            DeValue::Boolean(b) => Ok(*b),
            other => Err(self.ctx.err(v.span(), field, format!("expected true or false, found {}", found(other)))),
        }
    }

    pub(super) fn name(&self, v: &Val<'_>, field: &str) -> Res<Name> {
        let s = self.string(v, field, "an NDN name string such as \"/video\"")?;
        Name::parse(s).map_err(|e| self.ctx.err(v.span(), field, e.to_string()))
    }

    pub(super) fn array<'a, 'i>(&self, v: &'a Val<'i>, field: &str, what: &str) -> Res<&'a [Val<'i>]> {
        match v.get_ref() {
            DeValue::Array(a) => Ok(a),
            other => Err(self.ctx.err(v.span(), field, format!("expected {what}, found {}", found(other)))),
        }
    }

    /// The elements of a top-level `[[section]]` array, each as a table.
    pub(super) fn sections<'a, 'i>(&self, root: &Tbl<'a, 'i>, key: &str) -> Res<Vec<&'a Val<'i>>> {
        let Some(v) = root.get(key) else {
            return Ok(Vec::new());
        };
        match v.get_ref() {
            DeValue::Array(a) => Ok(a.iter().collect()),
            other => Err(self.ctx.err(
                root.key_span(key),
                key,
                format!(
                    "expected an array of tables, found {}: write [[{key}]] (double brackets) before each entry",
                    found(other)
                ),
            )),
        }
    }

    // ---------------------------------------------------------------- nodes

    fn unknown_node(&self, span: Range<usize>, field: &str, name: &str) -> ScenarioError {
        let msg = if self.nodes.is_empty() {
            format!("unknown node {name:?} (no nodes are defined: declare them under [nodes])")
        } else {
            let mut msg = format!(
                "unknown node {name:?} (known nodes: {})",
                name_list(self.nodes.iter().map(|n| n.name.as_str()))
            );
            let names: Vec<&str> = self.nodes.iter().map(|n| n.name.as_str()).collect();
            if let Some(m) = did_you_mean(name, &names) {
                msg.push_str(&format!("; did you mean {m:?}?"));
            }
            msg
        };
        self.ctx.err(span, field, msg)
    }

    pub(super) fn node_ref(&self, v: &Val<'_>, field: &str) -> Res<NodeId> {
        let s = self.string(v, field, "a node name string")?;
        self.node_index.get(s).copied().ok_or_else(|| self.unknown_node(v.span(), field, s))
    }
}
