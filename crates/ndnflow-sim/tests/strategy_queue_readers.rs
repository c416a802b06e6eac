//! The strategy and queue readers (`scenario/toml/strategy/`, `scenario/toml/queue/`): every
//! strategy reads the same as a name or as a table, and a key a strategy or discipline does not
//! take is refused with the key, its line, and who takes it.

use crate::common;

use ndnflow_sim::scenario::model::*;

use common::{parse, quickstart_with_line};

/// Line 8 of the quick-start is router r's `[nodes]` entry; line 25 is the r - p link's queue.
const NODE_LINE: usize = 8;
const QUEUE_LINE: usize = 25;

fn error(line: usize, text: &str) -> ScenarioErrorParts {
    let e = parse(&quickstart_with_line(line, text)).expect_err(text);
    ScenarioErrorParts { line: e.line, field: e.field.unwrap_or_default(), message: e.message }
}

#[derive(Debug, PartialEq)]
struct ScenarioErrorParts {
    line: Option<usize>,
    field: String,
    message: String,
}

fn parts(line: usize, field: &str, message: &str) -> ScenarioErrorParts {
    ScenarioErrorParts { line: Some(line), field: field.to_string(), message: message.to_string() }
}

/// The scenario words and the strategy each names (docs/scenario-format.md, `strategy` row).
fn words() -> [(&'static str, StrategyKind); 12] {
    [
        ("best-route", StrategyKind::BestRoute),
        ("multicast", StrategyKind::Multicast),
        ("pi", StrategyKind::Pi),
        ("rfa", StrategyKind::Rfa),
        ("cf", StrategyKind::Rfa),
        ("drf", StrategyKind::Drf),
        ("pcon", StrategyKind::Pcon(PconConfig::default())),
        ("fpf", StrategyKind::Fpf),
        ("paf", StrategyKind::Paf(PafConfig::default())),
        ("random", StrategyKind::Random),
        ("self-learning", StrategyKind::SelfLearning),
        ("asf", StrategyKind::Asf(AsfConfig::default())),
    ]
}

#[test]
fn every_strategy_reads_the_same_as_a_name_or_a_table_for_slash_and_for_a_prefix() {
    for (word, kind) in words() {
        for value in [format!("{word:?}"), format!("{{ name = {word:?} }}")] {
            let line = format!("r  = {{ strategy = {value}, strategies = {{ \"/live\" = {value} }} }}");
            let s = parse(&quickstart_with_line(NODE_LINE, &line)).unwrap_or_else(|e| panic!("{line}: {e}"));
            let r = &s.nodes[2].forwarder;
            assert_eq!(r.default_strategy, kind, "{line}");
            assert_eq!(r.strategy_choices[0].1, kind, "{line}");
        }
    }
}

#[test]
fn an_unknown_strategy_lists_every_name_in_the_registry_order() {
    let want = r#"unknown value "ncc"; expected one of "best-route", "multicast", "pi", "rfa", "cf", "drf", "pcon", "fpf", "paf", "random", "self-learning", "asf""#;
    assert_eq!(error(NODE_LINE, r#"r  = { strategy = "ncc" }"#), parts(8, "nodes.r.strategy", want));
    assert_eq!(error(NODE_LINE, r#"r  = { strategy = { name = "ncc" } }"#), parts(8, "nodes.r.strategy.name", want));
}

#[test]
fn a_parameter_a_strategy_does_not_take_is_refused_naming_who_takes_which() {
    const PCON_KEYS: &str = "change_perc, distance, quiet_interval, shift_back, nack_interval, lower_threshold, \
                             probe_fraction, initial, expiry_reduction";
    const OTHERS: &str = "paf takes alpha, penalty, explore; asf takes probing-interval, max-timeouts";
    let got = error(NODE_LINE, r#"r  = { strategy = { name = "multicast", change_perc = 0.02 } }"#);
    let want = format!(
        "\"change_perc\" does not apply to strategy \"multicast\", which takes no parameters; pcon takes {PCON_KEYS}; {OTHERS}"
    );
    assert_eq!(got, parts(8, "nodes.r.strategy.change_perc", &want));
    // A key no strategy takes gets the same message, in a prefix's strategy too.
    let got = error(NODE_LINE, r#"r  = { strategies = { "/live" = { name = "cf", colour = "red" } } }"#);
    let want = format!(
        "\"colour\" does not apply to strategy \"cf\", which takes no parameters; pcon takes {PCON_KEYS}; {OTHERS}"
    );
    assert_eq!(got, parts(8, "nodes.r.strategies.\"/live\".colour", &want));
    let got = error(NODE_LINE, r#"r  = { strategy = { name = "pcon", chnage_perc = 0.02 } }"#);
    let want = format!(
        "\"chnage_perc\" does not apply to strategy \"pcon\"; it takes {PCON_KEYS} (did you mean \"change_perc\"?); {OTHERS}"
    );
    assert_eq!(got, parts(8, "nodes.r.strategy.chnage_perc", &want));
}

#[test]
fn asf_reads_nfd_parameter_names_and_refuses_an_interval_below_nfds_minimum() {
    let line = r#"r  = { strategy = { name = "asf", probing-interval = "5s", max-timeouts = 1 } }"#;
    let s = parse(&quickstart_with_line(NODE_LINE, line)).unwrap();
    let want = AsfConfig { probing_interval: ndnflow_core::Time::from_secs(5), max_timeouts: 1 };
    assert_eq!(s.nodes[2].forwarder.default_strategy, StrategyKind::Asf(want));
    let got = error(NODE_LINE, r#"r  = { strategy = { name = "asf", probing-interval = "999ms" } }"#);
    let want = "must be at least 1s (NFD's minimum), found 0.999000s";
    assert_eq!(got, parts(8, "nodes.r.strategy.probing-interval", want));
    let got = error(NODE_LINE, r#"r  = { strategy = { name = "asf", max-timeouts = -1 } }"#);
    assert_eq!(got, parts(8, "nodes.r.strategy.max-timeouts", "must not be negative, found -1"));
}

#[test]
fn a_queue_key_of_another_discipline_names_the_disciplines_that_take_it() {
    let got = error(QUEUE_LINE, r#"queue     = { discipline = "droptail", target = "5ms" }"#);
    assert_eq!(got, parts(25, "links[2].queue.target", r#""target" only applies to discipline = "codel" or "pcon""#));
    // No discipline given: drop-tail, which takes no mode.
    let got = error(QUEUE_LINE, r#"queue     = { mode = "mark" }"#);
    assert_eq!(got, parts(25, "links[2].queue.mode", r#""mode" only applies to discipline = "codel""#));
    let got = error(QUEUE_LINE, r#"queue     = { discipline = "pcon", mode = "drop" }"#);
    let want = r#""mode" only applies to discipline = "codel"; discipline = "pcon" always marks; use discipline = "codel" to choose a mode"#;
    assert_eq!(got, parts(25, "links[2].queue.mode", want));
}

#[test]
fn each_discipline_has_its_own_default_limit() {
    // ns-3: DropTailQueue holds 100 packets, CoDelQueueDisc 1500; pcon is a CoDel queue; rem
    // (CHoPCoP) and mircc are drop-tail queues that mark or stamp.
    for (discipline, want) in [("droptail", 100), ("codel", 1500), ("pcon", 1500), ("rem", 100), ("mircc", 100)] {
        let line = format!("queue     = {{ discipline = {discipline:?} }}");
        let s = parse(&quickstart_with_line(QUEUE_LINE, &line)).unwrap();
        assert_eq!(s.links[2].ab.queue.limit(), QueueLimit::Packets(want), "{discipline}");
    }
}
