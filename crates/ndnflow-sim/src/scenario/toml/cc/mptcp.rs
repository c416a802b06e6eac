//! `algorithm = "mptcp"`: MPTCP's congestion control over PTP's probed paths
//! (`ndnflow_core::app::multipath::mptcp`; docs/protocols/multipath.md).

use ndnflow_core::app::cc::CcConfig;
use ndnflow_core::app::multipath::MptcpConfig;

use super::ptp::{PATHS, PATH_WINDOW};
use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader =
    CcReader { name: "mptcp", keys: &[PATHS, PATH_WINDOW, &["tail_loss_probe"]], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = MptcpConfig::default();
    r.path_window(t, &mut c.subflow)?;
    r.paths_common(t, &mut c.max_paths, &mut c.probe_rate, &mut c.coupling, &mut c.min_rto)?;
    if let Some(x) = t.get("tail_loss_probe") {
        c.tail_loss_probe = r.boolean(x, &t.field("tail_loss_probe"))?;
    }
    Ok(CcConfig::Mptcp(c))
}
