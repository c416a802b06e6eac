//! One random stream per component, derived from the scenario seed and the component's name (a node's
//! name, a link direction "a->b", a consumer's id and object name), so adding or reordering
//! components in a scenario never shifts another component's stream, and results do not depend on
//! the order in which components draw.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use ndnflow_core::mix::mix64 as mix;

/// Seed of the stream of the component of kind `kind` ("link", "consumer", "node") named `name`.
pub fn component_seed(seed: u64, kind: &str, name: &str) -> u64 {
    let mut h = mix(seed);
    for b in kind.bytes().chain([0]).chain(name.bytes()) {
        h = mix(h ^ b as u64);
    }
    h
}

pub fn component_rng(seed: u64, kind: &str, name: &str) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(component_seed(seed, kind, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_by_kind_name_and_seed_but_repeat_exactly() {
        let a = component_seed(1, "link", "r->p");
        assert_eq!(a, component_seed(1, "link", "r->p"));
        assert_ne!(a, component_seed(1, "link", "p->r"));
        assert_ne!(a, component_seed(1, "node", "r->p"));
        assert_ne!(a, component_seed(2, "link", "r->p"));
        // The kind and the name are separated: ("ab", "c") and ("a", "bc") differ.
        assert_ne!(component_seed(1, "ab", "c"), component_seed(1, "a", "bc"));
    }
}
