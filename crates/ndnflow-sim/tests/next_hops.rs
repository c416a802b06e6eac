//! `[simulation] next_hops`: which next hops the automatic routes install. On the diamond
//! c - r - {a, b} - p, every link alike (hop count 1), r reaches p through a and through b at cost
//! 2 each. "all-possible" (ndnSIM's CalculateAllPossibleRoutes) gives r both; "shortest-path"
//! (ndnSIM's CalculateRoutes) gives it one, the tie going to the neighbour a Dijkstra from p
//! settles first: a and b are both at distance 1, and a has the lower index (nodes c, r, a, b, p
//! in file order), so a.

use crate::common;

use common::{parse, run};
use ndnflow_sim::scenario::model::NextHops;

/// The diamond with r on NFD's random strategy (one eligible next hop drawn per Interest) and
/// `next_hops` as given ("" for the default).
fn diamond(next_hops: &str) -> String {
    let key = if next_hops.is_empty() { String::new() } else { format!("next_hops = \"{next_hops}\"\n") };
    let link = |a: &str, b: &str| {
        format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"10Mbps\"\ndelay = \"2ms\"\n")
    };
    format!(
        "[simulation]\nduration = \"2s\"\n{key}[nodes]\nc = {{}}\nr = {{ strategy = \"random\" }}\na = {{}}\nb = {{}}\np = {{}}\n\
         {}{}{}{}{}\
         [[producers]]\nnode = \"p\"\nprefix = \"/p\"\npayload = 1024\n\
         [[consumers]]\nnode = \"c\"\nname = \"/p\"\ncc = {{ algorithm = \"fixed-window\", window = 8 }}\n",
        link("c", "r"),
        link("r", "a"),
        link("r", "b"),
        link("a", "p"),
        link("b", "p"),
    )
}

/// Interests r sent towards a and towards b.
fn split(text: &str) -> (u64, u64) {
    let r = run(text);
    (r.summary.links["r->a"].interests, r.summary.links["r->b"].interests)
}

#[test]
fn all_possible_routes_give_r_both_paths() {
    assert_eq!(parse(&diamond("")).unwrap().next_hops, NextHops::AllPossible);
    let (a, b) = split(&diamond("all-possible"));
    assert_eq!(split(&diamond("")), (a, b), "the default is all-possible");
    // The random strategy draws between the two: each side carries a share.
    assert!(a > 0 && b > 0, "split {a}/{b}");
}

#[test]
fn shortest_path_routes_give_r_one_path() {
    assert_eq!(parse(&diamond("shortest-path")).unwrap().next_hops, NextHops::ShortestPath);
    let (a, b) = split(&diamond("shortest-path"));
    assert!(a > 0 && b == 0, "split {a}/{b}");
}

#[test]
fn an_unknown_choice_is_an_error_naming_the_key_and_the_choices() {
    let e = parse(&diamond("shortest")).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("simulation.next_hops"), "{e}");
    assert!(e.message.contains("\"all-possible\", \"shortest-path\""), "{e}");
}
