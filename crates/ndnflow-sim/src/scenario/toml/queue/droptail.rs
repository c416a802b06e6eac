//! `discipline = "droptail"` (the default): a FIFO that refuses what does not fit
//! (`ndnflow_core::link::droptail`; docs/protocols/queues.md).

use super::QueueReader;
use crate::scenario::model::{QueueLimit, QueueSpec};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: QueueReader = QueueReader {
    name: "droptail",
    keys: &[],
    // ns-3's DropTailQueue default MaxSize, 100 packets, which ndnSIM links have.
    default_limit: QueueLimit::Packets(100),
    read,
    hint: None,
};

fn read(_: &Reader<'_, '_>, _: &Tbl<'_, '_>, limit: QueueLimit) -> Res<QueueSpec> {
    Ok(QueueSpec::DropTail { limit })
}
