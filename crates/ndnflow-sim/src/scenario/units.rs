//! Units of the scenario format: durations ("5ms"), bandwidths ("10Mbps") and sizes ("150KB").
//!
//! Numbers are read as exact decimals (never through `f64`), so "0.312ms" is exactly 312 000 ns and
//! "1.5Mbps" exactly 1 500 000 bit/s. A value that would need a fraction of the base unit
//! (nanosecond, bit/s, byte) is rejected rather than silently rounded.

use ndnflow_core::Time;

/// Units accepted by [`parse_duration`], as shown in error messages.
pub const DURATION_UNITS: &str = "ns, us, ms, s, min, h";
/// Units accepted by [`parse_bandwidth`], as shown in error messages.
pub const BANDWIDTH_UNITS: &str = "bps, Kbps, Mbps, Gbps, Tbps; also b/s, Kb/s, Mb/s, Gb/s, Tb/s";
/// Units accepted by [`parse_size`], as shown in error messages.
pub const SIZE_UNITS: &str = "B, KB, MB, GB (x1000), KiB, MiB, GiB (x1024), or a plain number of bytes";

/// A non-negative decimal number `mantissa / 10^scale`, read without rounding.
struct Decimal {
    negative: bool,
    mantissa: u128,
    scale: u32,
}

/// Splits "  1.5 Mbps " into the number and the unit; `None` when there is no leading number.
fn split_number(s: &str) -> Option<(Decimal, &str)> {
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut negative = false;
    if let Some(&c) = bytes.first() {
        if c == b'-' || c == b'+' {
            negative = c == b'-';
            i = 1;
        }
    }
    let mut mantissa: u128 = 0;
    let mut scale = 0u32;
    let mut digits = 0usize;
    let mut seen_point = false;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_digit() {
            // 30 significant digits are far beyond any sensible value; more is reported as too large
            // by the callers (the mantissa saturates).
            mantissa = mantissa.saturating_mul(10).saturating_add(u128::from(c - b'0'));
            digits += 1;
            if seen_point {
                scale += 1;
                if scale > 30 {
                    return None;
                }
            }
        } else if c == b'.' && !seen_point {
            seen_point = true;
        } else if c == b'_' && digits > 0 {
            // digit separators, as in TOML numbers: "1_000ms"
        } else {
            break;
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    Some((Decimal { negative, mantissa, scale }, s[i..].trim()))
}

impl Decimal {
    fn is_zero(&self) -> bool {
        self.mantissa == 0
    }
    /// `self * multiplier` when it is a whole number that fits in `u64`; `Err(true)` when it is not
    /// whole, `Err(false)` when it is too large.
    fn times(&self, multiplier: u128) -> Result<u64, bool> {
        let pow = 10u128.checked_pow(self.scale).ok_or(false)?;
        let product = self.mantissa.checked_mul(multiplier).ok_or(false)?;
        if product % pow != 0 {
            return Err(true);
        }
        u64::try_from(product / pow).map_err(|_| false)
    }
}

fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// Parses a duration: a number with a unit, "30s", "5ms", "100us", "250ns", "1.5s", "2min", "1h";
/// the bare number "0" is also accepted. Negative, non-numeric and unit-less values are errors.
pub fn parse_duration(s: &str) -> Result<Time, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err(format!("empty duration; expected a number with a unit ({DURATION_UNITS}), e.g. \"5ms\""));
    }
    let Some((num, unit)) = split_number(t) else {
        return Err(format!(
            "invalid duration {}: expected a number with a unit ({DURATION_UNITS}), e.g. \"5ms\"",
            quoted(s)
        ));
    };
    if num.negative && !num.is_zero() {
        return Err(format!("invalid duration {}: must not be negative", quoted(s)));
    }
    let nanos_per_unit: u128 = match unit {
        "" if num.is_zero() => return Ok(Time::ZERO),
        "" => {
            return Err(format!(
                "invalid duration {}: missing unit (accepted units: {DURATION_UNITS}), e.g. \"{}ms\"",
                quoted(s),
                t
            ))
        }
        "ns" => 1,
        "us" | "µs" | "μs" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "min" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        "m" => {
            return Err(format!(
                "invalid duration {}: unit \"m\" is ambiguous; write \"min\" for minutes or \"ms\" for milliseconds",
                quoted(s)
            ))
        }
        other => {
            return Err(format!(
                "invalid duration {}: unknown unit {} (accepted units: {DURATION_UNITS})",
                quoted(s),
                quoted(other)
            ))
        }
    };
    match num.times(nanos_per_unit) {
        Ok(ns) => Ok(Time::from_nanos(ns)),
        Err(true) => Err(format!("invalid duration {}: finer than the 1 ns resolution", quoted(s))),
        Err(false) => Err(format!("invalid duration {}: too large", quoted(s))),
    }
}

/// Parses a bandwidth in bits per second: "10Mbps", "1Gbps", "500Kbps", "100bps", "1.5Mbps",
/// "10Mb/s". Prefixes are SI (k = 1000); `k` and `K` are the same. Zero and negative values are
/// errors, as are byte rates ("MBps") and values that are not a whole number of bit/s.
pub fn parse_bandwidth(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let Some((num, unit)) = split_number(t) else {
        return Err(format!(
            "invalid bandwidth {}: expected a number with a unit ({BANDWIDTH_UNITS}), e.g. \"10Mbps\"",
            quoted(s)
        ));
    };
    if num.negative || num.is_zero() {
        return Err(format!("invalid bandwidth {}: bandwidth must be positive", quoted(s)));
    }
    if unit.is_empty() {
        return Err(format!(
            "invalid bandwidth {}: missing unit (accepted units: {BANDWIDTH_UNITS}), e.g. \"{}Mbps\"",
            quoted(s),
            t
        ));
    }
    let unknown = || {
        format!("invalid bandwidth {}: unknown unit {} (accepted units: {BANDWIDTH_UNITS})", quoted(s), quoted(unit))
    };
    let (prefix, rest) = match unit.as_bytes()[0] {
        b'k' | b'K' => (1_000u128, &unit[1..]),
        b'M' => (1_000_000, &unit[1..]),
        b'G' => (1_000_000_000, &unit[1..]),
        b'T' => (1_000_000_000_000, &unit[1..]),
        _ => (1, unit),
    };
    match rest {
        "bps" | "b/s" => {}
        "Bps" | "B/s" => {
            return Err(format!(
                "invalid bandwidth {}: byte rates are not accepted; give bits per second (1 B/s = 8 bps), e.g. \"80Mbps\" for 10 MB/s",
                quoted(s)
            ))
        }
        _ => return Err(unknown()),
    }
    match num.times(prefix) {
        Ok(bps) => Ok(bps),
        Err(true) => Err(format!("invalid bandwidth {}: not a whole number of bit/s", quoted(s))),
        Err(false) => Err(format!("invalid bandwidth {}: too large", quoted(s))),
    }
}

/// Parses a size in bytes: "1500B", "200KB" (x1000), "200KiB" (x1024), "1MB", or a plain integer
/// number of bytes ("1500"). Negative values, bits ("Kb") and fractional bytes are errors.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let Some((num, unit)) = split_number(t) else {
        return Err(format!(
            "invalid size {}: expected a number of bytes with an optional unit ({SIZE_UNITS}), e.g. \"150KB\"",
            quoted(s)
        ));
    };
    if num.negative && !num.is_zero() {
        return Err(format!("invalid size {}: must not be negative", quoted(s)));
    }
    let multiplier: u128 = match unit {
        "" | "B" => 1,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        "b" | "Kb" | "kb" | "Mb" | "Gb" => {
            return Err(format!(
                "invalid size {}: lower-case \"b\" means bits; sizes are in bytes (B), e.g. \"150KB\"",
                quoted(s)
            ))
        }
        other => {
            return Err(format!(
                "invalid size {}: unknown unit {} (accepted units: {SIZE_UNITS})",
                quoted(s),
                quoted(other)
            ))
        }
    };
    match num.times(multiplier) {
        Ok(bytes) => usize::try_from(bytes).map_err(|_| format!("invalid size {}: too large", quoted(s))),
        Err(true) => Err(format!("invalid size {}: not a whole number of bytes", quoted(s))),
        Err(false) => Err(format!("invalid size {}: too large", quoted(s))),
    }
}

/// Formats a duration with the largest unit that shows it exactly ("10ms", "312us", "1.5s" is
/// written "1500ms"); the inverse of [`parse_duration`].
pub fn format_duration(t: Time) -> String {
    let ns = t.as_nanos();
    if ns == 0 {
        return "0s".to_string();
    }
    for (unit, per) in
        [("h", 3_600_000_000_000u64), ("min", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)]
    {
        if ns.checked_rem(per) == Some(0) {
            return format!("{}{unit}", ns / per);
        }
    }
    format!("{ns}ns")
}

/// Formats a bandwidth with the largest SI unit that shows it exactly ("10Mbps", "1500Kbps");
/// the inverse of [`parse_bandwidth`].
pub fn format_bandwidth(bps: u64) -> String {
    for (unit, per) in [("Tbps", 1_000_000_000_000u64), ("Gbps", 1_000_000_000), ("Mbps", 1_000_000), ("Kbps", 1_000)] {
        if bps != 0 && bps.checked_rem(per) == Some(0) {
            return format!("{}{unit}", bps / per);
        }
    }
    format!("{bps}bps")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        let ok: &[(&str, u64)] = &[
            ("30s", 30_000_000_000),
            ("5ms", 5_000_000),
            ("100us", 100_000),
            ("250ns", 250),
            ("1.5s", 1_500_000_000),
            ("2min", 120_000_000_000),
            ("1h", 3_600_000_000_000),
            ("0", 0),
            ("0s", 0),
            ("0.312ms", 312_000),
            (" 10 ms ", 10_000_000),
            ("1_000ms", 1_000_000_000),
            ("-0s", 0),
            ("5µs", 5_000),
        ];
        for (s, ns) in ok {
            assert_eq!(parse_duration(s), Ok(Time::from_nanos(*ns)), "{s}");
        }
        let bad: &[(&str, &str)] = &[
            ("-5ms", "must not be negative"),
            ("NaN", "expected a number with a unit"),
            ("nan s", "expected a number with a unit"),
            ("", "empty duration"),
            ("abc", "expected a number with a unit"),
            ("10", "missing unit"),
            ("5sec", "unknown unit \"sec\""),
            ("5m", "ambiguous"),
            ("1.5ns", "resolution"),
            ("99999999999999h", "too large"),
            ("1.2.3s", "unknown unit"),
            ("inf", "expected a number"),
        ];
        for (s, want) in bad {
            let err = parse_duration(s).unwrap_err();
            assert!(err.contains(want), "{s}: {err}");
        }
        assert!(parse_duration("5sec").unwrap_err().contains(DURATION_UNITS));
    }

    #[test]
    fn bandwidths() {
        let ok: &[(&str, u64)] = &[
            ("10Mbps", 10_000_000),
            ("1Gbps", 1_000_000_000),
            ("500Kbps", 500_000),
            ("500kbps", 500_000),
            ("100bps", 100),
            ("1.5Mbps", 1_500_000),
            ("10Mb/s", 10_000_000),
            ("2Tbps", 2_000_000_000_000),
            ("1 Mbps", 1_000_000),
        ];
        for (s, bps) in ok {
            assert_eq!(parse_bandwidth(s), Ok(*bps), "{s}");
        }
        let bad: &[(&str, &str)] = &[
            ("0Mbps", "must be positive"),
            ("0", "must be positive"),
            ("-1Mbps", "must be positive"),
            ("10Mbsp", "unknown unit \"Mbsp\""),
            ("10MBps", "byte rates"),
            ("10", "missing unit"),
            ("fast", "expected a number"),
            ("0.5bps", "whole number"),
            ("99999999999Tbps", "too large"),
            ("10mbps", "unknown unit"),
        ];
        for (s, want) in bad {
            let err = parse_bandwidth(s).unwrap_err();
            assert!(err.contains(want), "{s}: {err}");
        }
        assert!(parse_bandwidth("10Mbsp").unwrap_err().contains("Mbps"));
    }

    #[test]
    fn sizes() {
        let ok: &[(&str, usize)] = &[
            ("1500B", 1500),
            ("200KB", 200_000),
            ("200kB", 200_000),
            ("200KiB", 204_800),
            ("1MB", 1_000_000),
            ("1MiB", 1_048_576),
            ("1GB", 1_000_000_000),
            ("1500", 1500),
            ("0", 0),
            ("1.5KB", 1500),
        ];
        for (s, n) in ok {
            assert_eq!(parse_size(s), Ok(*n), "{s}");
        }
        let bad: &[(&str, &str)] = &[
            ("-1KB", "negative"),
            ("10Kb", "bits"),
            ("10XB", "unknown unit"),
            ("1.5B", "whole number"),
            ("lots", "expected a number"),
        ];
        for (s, want) in bad {
            let err = parse_size(s).unwrap_err();
            assert!(err.contains(want), "{s}: {err}");
        }
    }

    #[test]
    fn formatting_round_trips() {
        for ns in [
            0u64,
            1,
            999,
            1_000,
            312_000,
            10_000_000,
            1_500_000_000,
            30_000_000_000,
            120_000_000_000,
            3_600_000_000_000,
        ] {
            let t = Time::from_nanos(ns);
            assert_eq!(parse_duration(&format_duration(t)), Ok(t), "{ns}");
        }
        for bps in [1u64, 999, 1_000, 1_500_000, 10_000_000, 1_000_000_000, 2_000_000_000_000, 1_234_567] {
            assert_eq!(parse_bandwidth(&format_bandwidth(bps)), Ok(bps), "{bps}");
        }
        assert_eq!(format_bandwidth(10_000_000), "10Mbps");
        assert_eq!(format_duration(Time::from_millis(20)), "20ms");
    }
}
