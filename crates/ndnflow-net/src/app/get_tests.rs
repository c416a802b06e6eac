use ndnflow_core::Time;

use super::*;

fn options(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn error(name: &str, pairs: &[(&str, &str)]) -> String {
    consumer_config(name, &options(pairs)).expect_err("an error").to_string()
}

#[test]
fn options_are_read_as_a_scenario_consumer_table() {
    let c = consumer_config("/p/file", &options(&[("cc", "aimd"), ("lifetime", "4s"), ("segments", "13")])).unwrap();
    assert_eq!(c.name.to_string(), "/p/file");
    assert_eq!(c.lifetime, Time::from_secs(4));
    assert_eq!(c.segments, Some(13));
    assert_eq!(c.cc.build(1, c.rtt).name(), "aimd");
    // An inline table is taken as written; a quoted string is a string.
    let c = consumer_config("/p", &options(&[("cc", "{ algorithm = \"ptp\" }"), ("lifetime", "\"1500ms\"")])).unwrap();
    assert_eq!(c.cc.build(1, c.rtt).name(), "ptp");
    assert_eq!(c.lifetime, Time::from_millis(1500));
}

#[test]
fn without_options_the_controller_and_the_retries_are_ndncatchunks() {
    let c = consumer_config("/p", &[]).unwrap();
    assert_eq!(c.cc.build(1, c.rtt).name(), "cubic");
    // ndncatchunks' 15 retries, and the scenario reader's defaults for the rest: ndnSIM's 2 s
    // lifetime, no segment count.
    assert_eq!(c.max_retries, Some(15));
    assert_eq!((c.lifetime, c.segments), (Time::from_secs(2), None));
    let c = consumer_config("/p", &options(&[("max_retries", "2")])).unwrap();
    assert_eq!(c.max_retries, Some(2));
}

#[test]
fn errors_name_the_option_and_the_field() {
    let e = error("/p", &[("lifetime", "4s"), ("cc", "aimdd")]);
    assert!(e.starts_with("--cc: cc.algorithm: "), "{e}");
    assert!(e.contains("did you mean \"aimd\"") || e.contains("\"aimd\""), "{e}");
    let e = error("/p", &[("max_retries", "-1")]);
    assert!(e.starts_with("--max-retries: max_retries: "), "{e}");
    let e = error("/p", &[("cc", "{ algorithm = \"aimd\", window = 3 }")]);
    assert!(e.starts_with("--cc: cc.window: "), "{e}");
}

#[test]
fn a_bad_name_or_a_key_that_is_no_option_is_refused() {
    assert!(error("p/no-slash", &[]).starts_with("NAME \"p/no-slash\": "));
    assert!(error("/p", &[("catalog", "{ objects = 3 }")]).contains("not an option of ndnflow get"));
    // A value cannot smuggle a second key in: "1\nstart = ..." is no single TOML value, so it is
    // read as the string it is, and refused as a count.
    let e = error("/p", &[("segments", "1\nstart = \"5s\"")]);
    assert!(e.starts_with("--segments: segments: "), "{e}");
}

#[test]
fn throughput_is_scaled_as_ndncatchunks_prints_it() {
    assert_eq!(format_throughput(999.0), "999.000000 bit/s");
    assert_eq!(format_throughput(6_500_000.0), "6.500000 Mbit/s");
    assert_eq!(format_throughput(2e15), "2000.000000 Tbit/s");
}

#[test]
fn a_name_whose_interests_cannot_cross_a_face_is_refused() {
    // One component of L bytes: 1 + 3 + L (a 3-octet length past 252); the version and segment
    // number of 8 octets add 10 each, the Name's TL 4, CanBePrefix and MustBeFresh 2 each, the
    // Nonce 6, the 4 s lifetime 4 and the Interest's TL 4: L + 46 bytes. 8754 fits the 8800 a face
    // carries; 8755 does not. Such a name was sent, and blamed on the forwarder, until 2026-11-28.
    let name = |l: usize| format!("/{}", "a".repeat(l));
    assert!(consumer_config(&name(8754), &[]).is_ok());
    assert_eq!(
        error(&name(8755), &[]),
        "NAME: 8759 bytes of name make 8801-byte Interests, above the 8800 bytes a face carries"
    );
}
