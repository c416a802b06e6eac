//! Errors of the scenario reader: [`ScenarioError`], the [`Ctx`] that turns byte spans of the text
//! into line:column, and the helpers that make messages actionable ("found X", "did you mean Y?").

use std::fmt;
use std::ops::Range;

use toml::de::DeValue;

/// An error in a scenario or topology file: where (file, line, column, field path) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    /// The file (or other source) the error is in, as given to the reader.
    pub source_name: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column in characters, when known.
    pub column: Option<usize>,
    /// Path of the offending field, e.g. `links[2].between` or `nodes.r.cs.capacity`.
    pub field: Option<String>,
    /// What is wrong, short and without the location.
    pub message: String,
}

impl ScenarioError {
    /// An error with no location beyond the source name.
    pub fn new(source_name: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            source_name: source_name.into(),
            line: None,
            column: None,
            field: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    /// `file:line:column: field: message`, leaving out what is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source_name)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// "a, b, c" for error messages, cut after a dozen names.
pub(crate) fn name_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 12;
    let names: Vec<&str> = names.into_iter().collect();
    if names.is_empty() {
        return "none".to_string();
    }
    let mut out = names.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ");
    if names.len() > SHOWN {
        out.push_str(&format!(", ... ({} more)", names.len() - SHOWN));
    }
    out
}

/// The text being read, to turn byte spans into line:column.
pub(super) struct Ctx<'s> {
    pub(super) text: &'s str,
    pub(super) source: &'s str,
}

impl Ctx<'_> {
    /// 1-based line and character column of a byte offset.
    pub(super) fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut off = offset.min(self.text.len());
        while !self.text.is_char_boundary(off) {
            off -= 1;
        }
        let before = &self.text[..off];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// An error located at `span` (no location for the empty span of the document root).
    pub(super) fn err(&self, span: Range<usize>, field: &str, message: impl Into<String>) -> ScenarioError {
        let (line, column) = if span == (0..0) {
            (None, None)
        } else {
            let (l, c) = self.line_col(span.start);
            (Some(l), Some(c))
        };
        ScenarioError {
            source_name: self.source.to_string(),
            line,
            column,
            field: (!field.is_empty()).then(|| field.to_string()),
            message: message.into(),
        }
    }

    pub(super) fn syntax_error(&self, e: &toml::de::Error) -> ScenarioError {
        let mut message = format!("TOML syntax error: {}", e.message().trim_end());
        let Some(span) = e.span() else {
            return ScenarioError::new(self.source, message);
        };
        // Name what is duplicated ("duplicate key" alone is hard to act on).
        if message.contains("duplicate") {
            if let Some(what) =
                self.text.get(span.clone()).filter(|w| !w.is_empty() && w.len() <= 60 && !w.contains('\n'))
            {
                message.push_str(&format!(": {}", what.trim()));
            }
        }
        let (l, c) = self.line_col(span.start);
        ScenarioError { line: Some(l), column: Some(c), ..ScenarioError::new(self.source, message) }
    }
}

pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// What a value is, for "expected X, found Y".
pub(super) fn found(v: &DeValue<'_>) -> String {
    match v {
        DeValue::String(s) => format!("string {:?}", s.as_ref()),
        DeValue::Integer(i) => format!("integer {i}"),
        DeValue::Float(f) => format!("float {f}"),
        DeValue::Boolean(b) => format!("boolean {b}"),
        DeValue::Datetime(d) => format!("date-time {d}"),
        DeValue::Array(_) => "an array".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    }
}

/// Edit distance, for "did you mean" hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

pub(crate) fn did_you_mean<'a>(word: &str, options: &[&'a str]) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    options
        .iter()
        .map(|o| {
            let ol = o.to_ascii_lowercase();
            let related = ol.starts_with(&lower) || lower.starts_with(&ol);
            (distance(&lower, &ol), !related, *o)
        })
        .filter(|(d, unrelated, o)| *d <= 2.max(o.len() / 4) && (*d < o.len() || !unrelated))
        .min_by_key(|(d, unrelated, _)| (*d, *unrelated))
        .map(|(_, _, o)| o)
}

pub(super) fn quoted_list(options: &[&str]) -> String {
    options.iter().map(|o| format!("{o:?}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::TOP_KEYS;
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let ctx = Ctx { text: "ab\nµx = 1\n", source: "s" };
        assert_eq!(ctx.line_col(0), (1, 1));
        assert_eq!(ctx.line_col(3), (2, 1));
        assert_eq!(ctx.line_col(5), (2, 2)); // after the 2-byte 'µ'
        assert_eq!(ctx.line_col(4), (2, 1)); // inside 'µ': floored to its start
        assert_eq!(ctx.line_col(999), (3, 1));
    }

    #[test]
    fn display_leaves_out_unknown_parts() {
        let mut e = ScenarioError::new("a.toml", "boom");
        assert_eq!(e.to_string(), "a.toml: boom");
        e.line = Some(3);
        assert_eq!(e.to_string(), "a.toml:3: boom");
        e.column = Some(7);
        e.field = Some("links[0].delay".into());
        assert_eq!(e.to_string(), "a.toml:3:7: links[0].delay: boom");
    }

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("bandwdith", &["between", "bandwidth", "delay"]), Some("bandwidth"));
        assert_eq!(did_you_mean("simulaton", TOP_KEYS), Some("simulation"));
        assert_eq!(did_you_mean("zzz", &["between", "bandwidth"]), None);
        assert_eq!(did_you_mean("LRU", &["lru", "fifo", "off"]), Some("lru"));
    }
}
