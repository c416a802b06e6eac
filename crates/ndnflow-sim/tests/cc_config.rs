//! The window and multipath controllers' `cc` tables as the scenario reader takes them: each
//! algorithm's defaults, its overrides, and the error naming a key or value it refuses. The runs
//! of the same controllers over a bottleneck are in `cc_scenarios.rs`, whose scenario these use.

use crate::cc_scenarios::bottleneck;

use ndnflow_sim::scenario::model::Scenario;
use ndnflow_sim::scenario::toml::{parse_scenario, ScenarioError};

/// The bottleneck scenario (a 20-packet drop-tail queue) with `cc` as its consumer's table, read.
fn read(cc: &str) -> Result<Scenario, ScenarioError> {
    parse_scenario(&bottleneck(r#"{ discipline = "droptail", packets = 20 }"#, cc), "t.toml", None)
}

#[test]
fn algorithms_parse_with_defaults_and_overrides() {
    use ndnflow_core::app::cc::{AimdConfig, BicConfig, CubicConfig};
    use ndnflow_sim::scenario::model::CcConfig;
    let parse = |cc: &str| read(cc).map(|s| s.consumers[0].cc).map_err(|e| e.to_string());
    assert_eq!(parse(r#"{ algorithm = "aimd" }"#), Ok(CcConfig::Aimd(AimdConfig::default())));
    assert_eq!(parse(r#"{ algorithm = "pcon" }"#), Ok(CcConfig::Bic(BicConfig::pcon())));
    assert_eq!(parse(r#"{ algorithm = "bic" }"#), Ok(CcConfig::Bic(BicConfig::pcon())));
    assert_eq!(parse(r#"{ algorithm = "cubic" }"#), Ok(CcConfig::Cubic(CubicConfig::default())));

    let mut aimd = AimdConfig { initial_window: 2.0, beta: 0.7, initial_ssthresh: 64.0, ..AimdConfig::default() };
    aimd.signals.cwa = false;
    aimd.signals.react_to_marks = false;
    aimd.signals.rtt_suppress = 0.5;
    assert_eq!(
        parse(
            r#"{ algorithm = "aimd", initial_window = 2, beta = 0.7, initial_ssthresh = 64, cwa = false, react_to_marks = false, rtt_suppress = 0.5 }"#
        ),
        Ok(CcConfig::Aimd(aimd))
    );
    let cubic =
        CubicConfig { beta: 0.7, c: 0.5, reno_friendly: true, fast_convergence: true, ..CubicConfig::default() };
    assert_eq!(
        parse(r#"{ algorithm = "cubic", beta = 0.7, c = 0.5, reno_friendly = true, fast_convergence = true }"#),
        Ok(CcConfig::Cubic(cubic))
    );
    let bic = BicConfig { low_window: 10.0, max_increment: 32.0, fast_convergence: false, ..BicConfig::pcon() };
    assert_eq!(
        parse(r#"{ algorithm = "pcon", low_window = 10, max_increment = 32, fast_convergence = false }"#),
        Ok(CcConfig::Bic(bic))
    );
}

#[test]
fn algorithm_keys_are_checked() {
    let err = |cc: &str| read(cc).expect_err("should be rejected").to_string();
    // The consumer's cc is on line 27 of the generated file.
    let e = err(r#"{ algorithm = "aimd", window = 10 }"#);
    assert!(
        e.contains(":27:")
            && e.contains("consumers[0].cc.window")
            && e.contains("does not apply to algorithm = \"aimd\""),
        "{e}"
    );
    let e = err(r#"{ algorithm = "aimd", c = 0.4 }"#);
    assert!(e.contains("consumers[0].cc.c") && e.contains("does not apply"), "{e}");
    let e = err(r#"{ algorithm = "cubic", low_window = 14 }"#);
    assert!(e.contains("cc.low_window") && e.contains("does not apply"), "{e}");
    let e = err(r#"{ algorithm = "pcon", cwa = false }"#);
    assert!(e.contains("cc.cwa") && e.contains("algorithm = \"bic\""), "{e}");
    let e = err(r#"{ algorithm = "fixed-window", window = 10, beta = 0.5 }"#);
    assert!(e.contains("cc.beta") && e.contains("does not apply"), "{e}");
    let e = err(r#"{ algorithm = "aimd", betta = 0.5 }"#);
    assert!(e.contains("unknown field \"betta\"") && e.contains("did you mean \"beta\""), "{e}");
    let e = err(r#"{ algorithm = "aimd", beta = 1.0 }"#);
    assert!(e.contains("cc.beta") && e.contains("between 0 and 1"), "{e}");
    let e = err(r#"{ algorithm = "bic", initial_window = 0.5 }"#);
    assert!(e.contains("cc.initial_window") && e.contains("at least 1"), "{e}");
    let e = err(r#"{ algorithm = "cubic", c = 0 }"#);
    assert!(e.contains("cc.c") && e.contains("positive"), "{e}");
    let e = err(r#"{ algorithm = "aimd", cwa = "yes" }"#);
    assert!(e.contains("cc.cwa") && e.contains("true or false"), "{e}");
    let e = err(r#"{ algorithm = "reno" }"#);
    assert!(
        e.contains("cc.algorithm") && e.contains("\"fixed-window\", \"constant-rate\"") && e.contains("\"pcon\""),
        "{e}"
    );
    // The multipath transports: couplings from the registry, PTP's reselection not MPTCP's.
    let e = err(r#"{ algorithm = "mptcp", coupling = "balia" }"#);
    assert!(e.contains("cc.coupling") && e.contains("\"lia\"") && e.contains("\"olia\""), "{e}");
    let e = err(r#"{ algorithm = "mptcp", reselect_every = "10s" }"#);
    assert!(e.contains("cc.reselect_every") && e.contains("does not apply to algorithm = \"mptcp\""), "{e}");
    let e = err(r#"{ algorithm = "mptcp", tail_loss_probe = 1 }"#);
    assert!(e.contains("cc.tail_loss_probe") && e.contains("true or false"), "{e}");
    let e = err(r#"{ algorithm = "ptp", tail_loss_probe = true }"#);
    assert!(e.contains("cc.tail_loss_probe") && e.contains("does not apply to algorithm = \"ptp\""), "{e}");
    let e = err(r#"{ algorithm = "ptp", coupling = "olia", window = 3 }"#);
    assert!(e.contains("cc.window") && e.contains("does not apply to algorithm = \"ptp\""), "{e}");
    let e = err(r#"{ algorithm = "ptp", selection = "shortest" }"#);
    assert!(e.contains("cc.selection") && e.contains("\"hop\"") && e.contains("\"latency-variance\""), "{e}");
    let e = err(r#"{ algorithm = "mptcp", selection = "hop" }"#);
    assert!(e.contains("cc.selection") && e.contains("does not apply to algorithm = \"mptcp\""), "{e}");
}

#[test]
fn multipath_transports_read_their_couplings() {
    use ndnflow_core::app::cc::CcConfig;
    use ndnflow_core::app::multipath::{CouplingName, MptcpConfig, PathSelection, PtpConfig};
    use ndnflow_core::Time;
    let cc = |text: &str| read(text).expect("valid").consumers[0].cc;
    let m = MptcpConfig { coupling: CouplingName::OLIA, max_paths: 3, ..MptcpConfig::default() };
    assert_eq!(cc(r#"{ algorithm = "mptcp", coupling = "olia", max_paths = 3 }"#), CcConfig::Mptcp(m));
    // MPTCP's subflows are Reno: beta 0.5 unless given.
    let CcConfig::Mptcp(d) = cc(r#"{ algorithm = "mptcp" }"#) else { panic!("mptcp") };
    assert_eq!((d.coupling, d.subflow.beta, d.tail_loss_probe), (CouplingName::LIA, 0.5, true));
    let CcConfig::Mptcp(off) = cc(r#"{ algorithm = "mptcp", tail_loss_probe = false }"#) else { panic!("mptcp") };
    assert!(!off.tail_loss_probe);
    let p = PtpConfig { coupling: CouplingName::UNCOUPLED, ..PtpConfig::default() };
    assert_eq!(cc(r#"{ algorithm = "ptp", coupling = "uncoupled" }"#), CcConfig::Ptp(p));
    // PTP's path selection (§4-C, Appendix I) and its paths' RTO floor.
    let p = PtpConfig { selection: PathSelection::Hop, min_rto: Time::from_millis(200), ..PtpConfig::default() };
    assert_eq!(cc(r#"{ algorithm = "ptp", selection = "hop", min_rto = "200ms" }"#), CcConfig::Ptp(p));
}

#[test]
fn icp_and_raaqm_parse_with_defaults_overrides_and_checks() {
    use ndnflow_core::app::cc::{IcpConfig, IcpRto, RaaqmConfig};
    use ndnflow_sim::scenario::model::CcConfig;
    let parse = |cc: &str| read(cc).map(|s| s.consumers[0].cc).map_err(|e| e.to_string());
    assert_eq!(parse(r#"{ algorithm = "icp" }"#), Ok(CcConfig::Icp(IcpConfig::default())));
    assert_eq!(parse(r#"{ algorithm = "raaqm" }"#), Ok(CcConfig::Raaqm(RaaqmConfig::default())));
    let mut icp = IcpConfig { beta: 0.6, rto: IcpRto::Rfc6298, rto_window: 30, ..IcpConfig::default() };
    icp.signals.cwa = false;
    assert_eq!(
        parse(r#"{ algorithm = "icp", beta = 0.6, rto = "rfc6298", rto_window = 30, cwa = false }"#),
        Ok(CcConfig::Icp(icp))
    );
    let raaqm = RaaqmConfig {
        initial_window: 4.0,
        min_window: 2.0,
        max_window: 100.0,
        beta: 0.9,
        gamma: 2.0,
        p_min: 0.001,
        p_max: 0.1,
        samples: 20,
        ..RaaqmConfig::default()
    };
    assert_eq!(
        parse(
            r#"{ algorithm = "raaqm", initial_window = 4, min_window = 2, max_window = 100, beta = 0.9, gamma = 2, p_min = 0.001, p_max = 0.1, samples = 20 }"#
        ),
        Ok(CcConfig::Raaqm(raaqm))
    );
    // Ye's options (the PTP and DPCCP authors' ndnSIM consumer).
    let ye = RaaqmConfig {
        p_max: 0.5,
        beta: 0.875,
        threshold: ndnflow_core::Time::from_millis(5),
        per_window: true,
        slow_start: true,
        on_timeout: ndnflow_core::app::cc::RaaqmTimeout::Reset,
        ..RaaqmConfig::default()
    };
    assert_eq!(
        parse(
            r#"{ algorithm = "raaqm", p_max = 0.5, beta = 0.875, threshold = "5ms", per_window = true, slow_start = true, on_timeout = "reset" }"#
        ),
        Ok(CcConfig::Raaqm(ye))
    );
    let e = parse(r#"{ algorithm = "raaqm", on_timeout = "halve" }"#).unwrap_err();
    assert!(e.contains("cc.on_timeout") && e.contains("\"decrease\", \"reset\""), "{e}");

    // The consumer's cc is on line 27 of the generated file.
    let e = parse(r#"{ algorithm = "raaqm", cwa = false }"#).unwrap_err();
    assert!(e.contains(":27:") && e.contains("cc.cwa") && e.contains("does not apply to algorithm = \"raaqm\""), "{e}");
    let e = parse(r#"{ algorithm = "icp", gamma = 1 }"#).unwrap_err();
    assert!(e.contains("cc.gamma") && e.contains("does not apply"), "{e}");
    let e = parse(r#"{ algorithm = "icp", rto = "fixed" }"#).unwrap_err();
    assert!(e.contains("cc.rto") && e.contains("rfc6298"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", p_max = 1.5 }"#).unwrap_err();
    assert!(e.contains("cc.p_max") && e.contains("between 0 and 1"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", p_min = 0.3 }"#).unwrap_err();
    assert!(e.contains("cc.p_min") && e.contains("must not exceed p_max"), "{e}");
    // p_max alone below p_min's default (0.00001): p_max is named, the value written.
    let e = parse(r#"{ algorithm = "raaqm", p_max = 0.000001 }"#).unwrap_err();
    assert!(e.contains("cc.p_max: p_min (0.00001) must not exceed p_max (0.000001)"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", min_window = 8, max_window = 4 }"#).unwrap_err();
    assert!(e.contains("cc.min_window: min_window (8) must not exceed max_window"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", max_window = 0.5 }"#).unwrap_err();
    assert!(e.contains("cc.max_window"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", samples = 0 }"#).unwrap_err();
    assert!(e.contains("cc.samples"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", gamma = 0 }"#).unwrap_err();
    assert!(e.contains("cc.gamma") && e.contains("positive"), "{e}");
}

#[test]
fn dpccp_reads_its_setpoint_and_laws() {
    use ndnflow_core::app::cc::CcConfig;
    let CcConfig::Dpccp(d) = read(r#"{ algorithm = "dpccp" }"#).expect("valid").consumers[0].cc else {
        panic!("dpccp")
    };
    // §VII-A's setpoint of 20 packets; K = 3, 2 /s and zeta 0.8 (§VI-E-5, 6); eta three setpoints.
    assert_eq!((d.setpoint, d.rate.k, d.rate.drain_rate, d.rate.zeta, d.rate.eta), (20.0, 3, 2.0, 0.8, 60.0));
    // The thresholds follow a given setpoint.
    let CcConfig::Dpccp(d) =
        read(r#"{ algorithm = "dpccp", setpoint = 10, delta = 0.5 }"#).expect("valid").consumers[0].cc
    else {
        panic!("dpccp")
    };
    assert_eq!((d.rate.eta, d.rate.rho_max, d.rate.delta), (30.0, 5.0, 0.5));
    for (bad, says) in [
        (r#"{ algorithm = "dpccp", zeta = 1.5 }"#, "zeta: must be between 0 and 1 exclusive, found 1.5"),
        (r#"{ algorithm = "dpccp", psi = 80 }"#, "cc.psi: psi (80) must be below eta (60)"),
        // Only eta given: eta is named, not the psi no one wrote.
        (r#"{ algorithm = "dpccp", eta = 0.5 }"#, "cc.eta: psi (1) must be below eta (0.5)"),
        // Neither: a setpoint of 0.25 makes eta 3 x 0.25 = 0.75, under psi's 1 packet. Until
        // 2026-11-28 this panicked ("one of them was given when they cross").
        (r#"{ algorithm = "dpccp", setpoint = 0.25 }"#, "cc.setpoint: psi (1) must be below eta (0.75, 3 x setpoint)"),
        (r#"{ algorithm = "dpccp", setpoint = 0 }"#, "setpoint: must be positive"),
        (r#"{ algorithm = "dpccp", coupling = "lia" }"#, "\"coupling\" does not apply to algorithm = \"dpccp\""),
    ] {
        let err = read(bad).expect_err(bad).to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
}

#[test]
fn mircc_reads_its_path_keys() {
    use ndnflow_core::app::cc::CcConfig;
    let CcConfig::Mircc(m) = read(r#"{ algorithm = "mircc" }"#).expect("valid").consumers[0].cc else {
        panic!("mircc")
    };
    // PTP's 10 paths and 10 probes per second; RFC 6298's 1 s floor; the smallest rate of the RTT.
    assert_eq!((m.max_paths, m.probe_rate, m.min_rto), (10, 10.0, ndnflow_core::Time::from_secs(1)));
    assert_eq!(m.path_rate, ndnflow_core::app::multipath::PathRate::Smallest);
    assert_eq!(m.primary, ndnflow_core::app::multipath::PrimaryRule::Best);
    let CcConfig::Mircc(m) = read(r#"{ algorithm = "mircc", max_paths = 2, probe_rate = 5, path_rate = "latest" }"#)
        .expect("valid")
        .consumers[0]
        .cc
    else {
        panic!("mircc")
    };
    assert_eq!((m.max_paths, m.probe_rate, m.path_rate), (2, 5.0, ndnflow_core::app::multipath::PathRate::Latest));
    for (bad, says) in [
        (r#"{ algorithm = "mircc", probe_rate = 0 }"#, "probe_rate: must be positive"),
        (r#"{ algorithm = "mircc", path_rate = "mean" }"#, "path_rate"),
        (r#"{ algorithm = "mircc", primary = "last" }"#, "primary"),
        (r#"{ algorithm = "mircc", setpoint = 20 }"#, "\"setpoint\" does not apply to algorithm = \"mircc\""),
    ] {
        let err = read(bad).expect_err(bad).to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
}

#[test]
fn smic_reads_its_keys() {
    use ndnflow_core::app::cc::CcConfig;
    use ndnflow_core::app::multipath::{CouplingName, SmicIncrease};
    let CcConfig::Smic(s) = read(r#"{ algorithm = "smic" }"#).expect("valid").consumers[0].cc else { panic!("smic") };
    // §3.3.2's pool 0..10, §5's thresholds (0.05 s, 80 %), Algorithm 1.
    assert_eq!((s.path_ids, s.sharing.rmse, s.sharing.bandwidth_difference), (11, 0.05, 0.8));
    assert_eq!(s.increase, SmicIncrease::Algorithm1);
    let CcConfig::Smic(s) = read(
        r#"{ algorithm = "smic", coupling = "olia", path_ids = 4, rmse = "20ms", bandwidth_difference = 0.2, respread = "5s", history = 3 }"#,
    )
    .expect("valid")
    .consumers[0]
        .cc
    else {
        panic!("smic")
    };
    assert_eq!(s.increase, SmicIncrease::Coupled(CouplingName::OLIA));
    assert_eq!((s.path_ids, s.sharing.history, s.sharing.rmse, s.sharing.bandwidth_difference), (4, 3, 0.02, 0.2));
    assert_eq!(s.respread, ndnflow_core::Time::from_secs(5));
    // Halving once per loss episode and sharing tested at timeouts by default; the authors' rules
    // (every timed-out Interest, every Data) on request.
    assert_eq!((s.every_timeout, s.sharing_on_data), (false, false));
    for (keys, rules) in [(r#"halving = "per-timeout""#, (true, false)), (r#"sharing_test = "data""#, (false, true))] {
        let CcConfig::Smic(s) = read(&format!("{{ algorithm = \"smic\", {keys} }}")).expect(keys).consumers[0].cc
        else {
            panic!("smic")
        };
        assert_eq!((s.every_timeout, s.sharing_on_data), rules, "{keys}");
    }
    for (bad, says) in [
        (r#"{ algorithm = "smic", halving = "per-loss" }"#, "halving"),
        (r#"{ algorithm = "smic", sharing_test = "ack" }"#, "sharing_test"),
        (r#"{ algorithm = "smic", coupling = "reno" }"#, "coupling"),
        (r#"{ algorithm = "smic", path_ids = 0 }"#, "path_ids"),
        (r#"{ algorithm = "smic", path_ids = 100000 }"#, "at most 65536 path ids"),
        (r#"{ algorithm = "smic", bandwidth_difference = 1.5 }"#, "must be in (0, 1]"),
        (r#"{ algorithm = "smic", lia_rtt_ratio = 1 }"#, "must be above 1"),
        (r#"{ algorithm = "smic", probe_rate = 5 }"#, "\"probe_rate\" does not apply to algorithm = \"smic\""),
    ] {
        let err = read(bad).expect_err(bad).to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
}
