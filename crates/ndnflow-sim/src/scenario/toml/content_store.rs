//! The reader of a node's `cs` table: the Content Store's policy, its limits in Data packets
//! (`capacity`, as ndnSIM's `MaxSize` and NFD's `cs_max_packets`) and in payload bytes (`bytes`,
//! as SMIC §5 sizes its routers' stores: "content store of 100 MB"), and its admission probability.

use super::values::Tbl;
use super::{Reader, Res, Val};
use crate::scenario::model::*;

impl Reader<'_, '_> {
    pub(super) fn content_store(&self, v: &Val<'_>, path: &str, node: &mut ForwarderConfig) -> Res<()> {
        let cs = self.table(
            v,
            path,
            &["policy", "capacity", "bytes", "admit"],
            "a table such as { policy = \"lru\", capacity = 1000 } or { policy = \"lru\", bytes = \"100MiB\" }",
        )?;
        if let Some(a) = cs.get("admit") {
            node.cs_admit = self.probability(a, &cs.field("admit"))?;
            if node.cs_admit == 0.0 {
                return Err(self.ctx.err(
                    a.span(),
                    &cs.field("admit"),
                    "must be above 0; policy = \"off\" stores nothing",
                ));
            }
        }
        let policy = match cs.get("policy") {
            Some(p) => self.choice(p, &cs.field("policy"), &["lru", "fifo", "lfu", "random", "off"])?,
            None => "lru",
        };
        (node.cs_policy, node.cs_capacity, node.cs_bytes) = match policy {
            "off" => {
                for (key, what) in [("capacity", "a capacity"), ("bytes", "a byte limit")] {
                    if let Some(c) = cs.get(key) {
                        return Err(self.ctx.err(
                            c.span(),
                            &cs.field(key),
                            format!("{what} has no effect with policy = \"off\"; remove one of them"),
                        ));
                    }
                }
                (CsPolicy::Lru, 0, None)
            }
            p => {
                let (capacity, bytes) = self.cs_limits(&cs)?;
                (CsPolicy::parse(p).unwrap_or(CsPolicy::Lru), capacity, bytes)
            }
        };
        Ok(())
    }

    /// `capacity` and `bytes`, at least one of them; no packet count is `usize::MAX` (the byte
    /// limit alone binds).
    fn cs_limits(&self, cs: &Tbl<'_, '_>) -> Res<(usize, Option<usize>)> {
        let bytes = match cs.get("bytes") {
            Some(b) => {
                let n = self.size(b, &cs.field("bytes"))?;
                // Unlike `capacity = 0` (kept as it was: the store off), a zero byte limit is
                // refused: written next to a policy it is more likely a slip than a wish.
                if n == 0 {
                    return Err(self.ctx.err(
                        b.span(),
                        &cs.field("bytes"),
                        "must be at least 1 byte; policy = \"off\" stores nothing",
                    ));
                }
                Some(n)
            }
            None => None,
        };
        if bytes.is_some() && cs.get("capacity").is_none() {
            return Ok((usize::MAX, bytes));
        }
        let hint = "number of Data packets the Content Store holds, or `bytes`, the payload bytes it holds";
        let c = self.required(cs, "capacity", hint)?;
        let n = self.uint(c, &cs.field("capacity"))?;
        let capacity = usize::try_from(n).map_err(|_| self.ctx.err(c.span(), &cs.field("capacity"), "too large"))?;
        Ok((capacity, bytes))
    }
}
