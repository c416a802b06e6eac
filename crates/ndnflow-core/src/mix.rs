//! SplitMix64 (Steele, Lea and Flood, 2014): spreads nearby 64-bit inputs over the whole range. Used
//! wherever a seed or a hash must depend on every input bit: name hashes, per-component random
//! seeds.

/// One SplitMix64 step: golden-ratio increment, then the finaliser.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
