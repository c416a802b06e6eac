//! Simulated caches (DPCCP §VII-A): hits drawn with probability kappa, kappa following its
//! schedule (SP-2), the Data a hit answers with.

use super::*;

fn config(schedule: &[(u64, f64)]) -> SimulatedCacheConfig {
    SimulatedCacheConfig {
        prefix: Name::parse("/data").unwrap(),
        payload: 1024,
        schedule: schedule.iter().map(|&(s, k)| (Time::from_secs(s), k)).collect(),
    }
}

fn interest(seg: u64) -> Interest {
    Interest::new(Name::parse("/data").unwrap().append_segment(seg), seg as u32, Time::from_secs(2))
}

/// Hits among `n` Interests at `now`.
fn hits(cache: &mut SimulatedCache, now: Time, n: u64) -> u64 {
    (0..n).filter(|&seg| cache.lookup(now, &interest(seg)).is_some()).count() as u64
}

#[test]
fn kappa_zero_never_hits_and_kappa_one_always_does() {
    let mut never = SimulatedCache::new(config(&[(0, 0.0)]), 7);
    assert_eq!(hits(&mut never, Time::from_secs(1), 10_000), 0);
    let mut always = SimulatedCache::new(config(&[(0, 1.0)]), 7);
    assert_eq!(hits(&mut always, Time::from_secs(1), 10_000), 10_000);
    assert_eq!(always.counters, SimulatedCacheCounters { lookups: 10_000, hits: 10_000 });
}

#[test]
fn kappa_point_four_hits_within_four_sigma_of_its_mean() {
    // Binomial(10,000, 0.4): mean 4,000, sigma = sqrt(10,000 x 0.4 x 0.6) = 49.0; 4 sigma = 196.
    let mut cache = SimulatedCache::new(config(&[(0, 0.4)]), 11);
    let h = hits(&mut cache, Time::from_secs(1), 10_000);
    assert!((3804..=4196).contains(&h), "{h} hits");
    // The same seed draws the same hits: the stream is the cache's own.
    let mut again = SimulatedCache::new(config(&[(0, 0.4)]), 11);
    assert_eq!(hits(&mut again, Time::from_secs(1), 10_000), h);
}

#[test]
fn kappa_follows_sp2s_schedule_switching_at_the_given_instants() {
    // SP-2: 0 from 0 s, 0.95 from 50 s, 0 from 150 s; each entry holds from its instant on.
    let mut cache = SimulatedCache::new(config(&[(0, 0.0), (50, 0.95), (150, 0.0)]), 3);
    let at = |ms: u64| Time::from_millis(ms);
    let seen: Vec<f64> =
        [0, 49_999, 50_000, 149_999, 150_000, 200_000].iter().map(|&ms| cache.kappa_at(at(ms))).collect();
    assert_eq!(seen, vec![0.0, 0.0, 0.95, 0.95, 0.0, 0.0]);
}

#[test]
fn before_the_first_instant_kappa_is_zero() {
    let mut cache = SimulatedCache::new(config(&[(10, 1.0)]), 3);
    assert_eq!(hits(&mut cache, Time::from_secs(9), 100), 0);
    assert_eq!(hits(&mut cache, Time::from_secs(10), 100), 100);
}

#[test]
fn a_hit_is_the_producers_data_and_other_names_do_not_draw() {
    let mut cache = SimulatedCache::new(config(&[(0, 1.0)]), 3);
    let data = cache.lookup(Time::ZERO, &interest(5)).expect("a hit");
    assert_eq!(data.name, interest(5).name);
    assert_eq!(data.content.len(), 1024);
    assert_eq!(data.final_block_id, None, "the cache knows no segment count");
    let other = Interest::new(Name::parse("/video/1").unwrap(), 1, Time::from_secs(2));
    assert!(cache.lookup(Time::ZERO, &other).is_none());
    assert_eq!(cache.counters, SimulatedCacheCounters { lookups: 1, hits: 1 });
}
