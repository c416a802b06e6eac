//! The memory reserve (`ndnflow_core::reserve`) seen from a run: when the system refuses an
//! allocation that no container guards, the reserve is given back, the allocation succeeds, and
//! the run ends after that event with what it computed (issue 22, item 1). A test binary of its
//! own, because a release is the whole process's: any run going on beside it would stop too.

use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::Simulation;

#[global_allocator]
static ALLOCATOR: ndnflow_core::reserve::ReserveAllocator = ndnflow_core::reserve::ReserveAllocator;

#[test]
fn a_refusal_the_reserve_covers_ends_the_run_after_that_event() {
    // One Interest every 10 ms from time 0 (constant rate 100/s) over a 1 ms link at 100 Mbit/s:
    // each is answered about 2 ms later. The refusal is made between 0.4999 s and 0.5 s, between
    // events. The next event is the end of the trace bin [0.4, 0.5) at 0.5 s, which runs before
    // anything else at that instant (docs/architecture.md, "The simulator"), and the run ends
    // after it, at 0.5 s: 50 Interests sent (at 0, 0.01, ..., 0.49 s), all 50 answered; the one
    // due at 0.5 s is never sent.
    let text = "[simulation]\nduration = \"10s\"\n[nodes]\nc = {}\np = {}\n\
        [[links]]\nbetween = [\"c\", \"p\"]\nbandwidth = \"100Mbps\"\ndelay = \"1ms\"\n\
        [[producers]]\nnode = \"p\"\nprefix = \"/a\"\n\
        [[consumers]]\nnode = \"c\"\nname = \"/a\"\ncc = { algorithm = \"constant-rate\", rate = 100 }\n";
    assert!(ndnflow_core::reserve::arm());
    let mut sim = Simulation::new(parse_scenario(text, "t.toml", None).expect("valid"));
    assert!(!sim.run_until(ndnflow_core::Time::from_secs_f64(0.4999)));
    assert!(ndnflow_core::reserve::refuse_for_test(92));
    assert!(!ndnflow_core::reserve::is_armed());
    let results = sim.run();
    let s = &results.summary.simulation;
    let stopped = s.stopped.as_deref().expect("stopped by the release");
    assert!(stopped.starts_with("stopped at 0.5"), "{stopped}");
    assert!(
        stopped.contains("out of memory: the allocator refused 92 B for an allocation outside the guarded tables"),
        "{stopped}"
    );
    assert_eq!(s.end_s, 0.5);
    let consumer = results.summary.consumers.values().next().expect("one consumer");
    assert_eq!((consumer.interests_sent, consumer.data_received), (50, 50));
    // The rows still add up to the summary.
    assert_eq!(results.consumers.interests.iter().sum::<u64>(), 50);
    // A new simulation arms it again, and runs to its end.
    assert!(ndnflow_core::reserve::arm());
    let results = Simulation::new(parse_scenario(text, "t.toml", None).expect("valid")).run();
    assert_eq!((results.summary.simulation.stopped.as_deref(), results.summary.simulation.end_s), (None, 10.0));
}
