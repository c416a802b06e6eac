//! Strategy measurements (NFD daemon/table/measurements): per-prefix, per-face state that a strategy
//! keeps between packets (RTT estimates, forwarding percentages, pending counts...).
//!
//! Generic over the record type so that each strategy stores exactly what it needs. Entries are kept
//! per name prefix (usually the FIB entry's prefix) and per face, in face order, so iterating them is
//! deterministic.

use smallvec::SmallVec;

use super::FaceId;
use crate::name::NameMap;
use crate::Name;

#[derive(Debug)]
pub struct Measurements<T> {
    prefixes: NameMap<Name, SmallVec<[(FaceId, T); 4]>>,
}

impl<T> Default for Measurements<T> {
    fn default() -> Self {
        Measurements { prefixes: NameMap::default() }
    }
}

impl<T: Default> Measurements<T> {
    /// The record of `face` under `prefix`, created with `T::default()` on first use.
    pub fn get_or_insert(&mut self, prefix: &Name, face: FaceId) -> &mut T {
        let faces = self.prefixes.entry(prefix.clone()).or_default();
        let pos = match faces.binary_search_by_key(&face, |(f, _)| *f) {
            Ok(pos) => pos,
            Err(pos) => {
                faces.insert(pos, (face, T::default()));
                pos
            }
        };
        &mut faces[pos].1
    }

    pub fn get(&self, prefix: &Name, face: FaceId) -> Option<&T> {
        let faces = self.prefixes.get(prefix)?;
        let pos = faces.binary_search_by_key(&face, |(f, _)| *f).ok()?;
        Some(&faces[pos].1)
    }

    /// All face records of `prefix`, in face order.
    pub fn faces(&self, prefix: &Name) -> &[(FaceId, T)] {
        self.prefixes.get(prefix).map(|v| v.as_slice()).unwrap_or(&[])
    }

    pub fn faces_mut(&mut self, prefix: &Name) -> &mut [(FaceId, T)] {
        self.prefixes.get_mut(prefix).map(|v| v.as_mut_slice()).unwrap_or(&mut [])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_per_prefix_and_per_face_in_face_order() {
        let mut m: Measurements<u32> = Measurements::default();
        let p = Name::parse("/video").unwrap();
        let q = Name::parse("/audio").unwrap();
        *m.get_or_insert(&p, FaceId(3)) += 5;
        *m.get_or_insert(&p, FaceId(1)) += 2;
        *m.get_or_insert(&p, FaceId(3)) += 1;
        *m.get_or_insert(&q, FaceId(3)) += 9;
        assert_eq!(m.faces(&p), &[(FaceId(1), 2), (FaceId(3), 6)]);
        assert_eq!(m.get(&q, FaceId(3)), Some(&9));
        assert_eq!(m.get(&q, FaceId(1)), None);
    }
}
