//! The per-bin link and consumer rows as the engine keeps them while it runs: counter differences
//! as variable-length integers (LEB128, as WebAssembly and Protocol Buffers write them) in one
//! byte log per trace, decoded into columns (`LinkSeries`, `ConsumerSeries`) only when the results
//! are read (issue 23, item 4).
//!
//! A link row held 14 eight-byte columns (108 bytes, about 200 with the columns' spare capacity
//! and the copy `results()` made); most of its values are small counts that fit one or two bytes.
//! What a row can recompute is not stored: its time and width come from its bin, a link row's
//! direction from its place in the bin (every direction has a row in every bin, in order), and the
//! rates and means (throughput, goodput, sojourn, RTT) from the stored sums and counts, with the
//! same floating-point operations as before, so every value decodes bit for bit.

use ndnflow_core::grow::{Grow, OutOfMemory};
use ndnflow_core::Time;

use crate::trace::{ConsumerSeries, LinkSeries};

/// Grows by an eighth (at least a page) instead of doubling, so a long log holds at most about
/// 12 % spare capacity. Large buffers are grown in place by the allocator (mremap), so the
/// smaller steps cost no copying.
fn reserve(log: &mut Vec<u8>, more: usize) {
    if log.capacity() - log.len() < more {
        log.reserve_exact(more.max(log.len() / 8).max(4096));
    }
}

/// `reserve`'s growth, asked of the allocator without aborting (`ndnflow_core::grow`).
fn try_reserve(log: &mut Vec<u8>, more: usize, container: &'static str) -> Result<(), OutOfMemory> {
    if log.capacity() - log.len() >= more {
        return Ok(());
    }
    let step = more.max(log.len() / 8).max(4096);
    log.try_reserve_exact(step).map_err(|_| OutOfMemory { container, bytes: log.len() + step })
}

fn put(log: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        log.push(v as u8 | 0x80);
        v >>= 7;
    }
    log.push(v as u8);
}

/// A gauge that may be absent or fractional (a consumer's window): 0 is "none" (NaN), 2k + 1 the
/// whole number k, 2 the raw bits in the next 8 bytes. Whole numbers are checked bit for bit, so
/// -0.0 keeps its sign.
fn put_gauge(log: &mut Vec<u8>, v: Option<f64>) {
    match v {
        None => put(log, 0),
        Some(x) if x >= 0.0 && x < (1u64 << 52) as f64 && (x as u64 as f64).to_bits() == x.to_bits() => {
            put(log, 2 * x as u64 + 1)
        }
        Some(x) => {
            put(log, 2);
            log.extend_from_slice(&x.to_bits().to_le_bytes());
        }
    }
}

/// Reads a log written by `put` and `put_gauge`, in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn next(&mut self) -> u64 {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let b = self.bytes[self.at];
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return v;
            }
            shift += 7;
        }
    }

    fn gauge(&mut self) -> f64 {
        match self.next() {
            0 => f64::NAN,
            2 => {
                let raw: [u8; 8] = self.bytes[self.at..self.at + 8].try_into().expect("8 bytes");
                self.at += 8;
                f64::from_le_bytes(raw)
            }
            code => ((code - 1) / 2) as f64,
        }
    }

    /// `sum / n` in milliseconds, NaN for no sample: the mean the row's sums stand for.
    fn mean_ms(&mut self) -> f64 {
        let n = self.next();
        let sum = Time::from_nanos(self.next());
        if n == 0 {
            f64::NAN
        } else {
            sum.as_millis_f64() / n as f64
        }
    }
}

/// A closed bin: [start, end), and how many consumer rows it has.
#[derive(Clone, Copy, Debug)]
struct Bin {
    start: Time,
    end: Time,
    consumer_rows: u32,
}

/// What one link row records: the counter differences over its bin and the queue at its end.
pub struct LinkRow {
    pub bytes: u64,
    pub packets: u64,
    pub interests: u64,
    pub data: u64,
    pub nacks: u64,
    pub drops: u64,
    pub marks: u64,
    pub losses: u64,
    pub queue_packets: u64,
    pub queue_bytes: u64,
    pub sojourn_count: u64,
    pub sojourn_sum: Time,
}

/// What one consumer row records.
pub struct ConsumerRow {
    pub consumer: u32,
    pub payload_bytes: u64,
    pub data: u64,
    pub interests: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub nacks: u64,
    pub losses: u64,
    pub marks: u64,
    pub window: Option<f64>,
    pub rtt_samples: u64,
    pub rtt_sum: Time,
}

/// The link and consumer rows of every closed bin.
#[derive(Clone, Debug)]
pub struct TraceLog {
    n_dirs: usize,
    bins: Vec<Bin>,
    links: Vec<u8>,
    consumers: Vec<u8>,
    consumer_rows: usize,
    /// The logs' lengths before the last bin's rows, to take them back (`drop_last_bin`).
    last_bin_at: (usize, usize),
}

/// Room for a row: twelve LEB128 values of at most 10 bytes, and a gauge's 8.
const MAX_ROW: usize = 12 * 10 + 8;

impl TraceLog {
    pub fn new(n_dirs: usize) -> TraceLog {
        TraceLog {
            n_dirs,
            bins: Vec::new(),
            links: Vec::new(),
            consumers: Vec::new(),
            consumer_rows: 0,
            last_bin_at: (0, 0),
        }
    }

    pub fn link_rows(&self) -> usize {
        self.bins.len() * self.n_dirs
    }

    pub fn consumer_rows(&self) -> usize {
        self.consumer_rows
    }

    /// The bytes the log holds, spare capacity included.
    pub fn bytes(&self) -> usize {
        self.links.capacity() + self.consumers.capacity() + self.bins.capacity() * std::mem::size_of::<Bin>()
    }

    /// Room for a whole bin's rows (a link row per direction, `consumers` consumer rows) asked
    /// for before it is opened, so that a refused allocation leaves the bin out instead of
    /// aborting; the pushes that follow then find their room.
    pub fn room_for_bin(&mut self, consumers: usize) -> Result<(), OutOfMemory> {
        self.bins.room_for_one("trace bins")?;
        try_reserve(&mut self.links, self.n_dirs * MAX_ROW, "link trace")?;
        try_reserve(&mut self.consumers, consumers * MAX_ROW, "consumer trace")
    }

    /// Opens the bin [start, end): the rows pushed next are its rows, every direction's link row
    /// first, in direction order.
    pub fn open_bin(&mut self, start: Time, end: Time) {
        self.last_bin_at = (self.links.len(), self.consumers.len());
        self.bins.push(Bin { start, end, consumer_rows: 0 });
    }

    pub fn push_link(&mut self, r: &LinkRow) {
        let log = &mut self.links;
        reserve(log, MAX_ROW);
        for v in [r.bytes, r.packets, r.interests, r.data, r.nacks, r.drops, r.marks, r.losses] {
            put(log, v);
        }
        for v in [r.queue_packets, r.queue_bytes, r.sojourn_count, r.sojourn_sum.as_nanos()] {
            put(log, v);
        }
    }

    pub fn push_consumer(&mut self, r: &ConsumerRow) {
        let log = &mut self.consumers;
        reserve(log, MAX_ROW);
        put(log, u64::from(r.consumer));
        for v in [r.payload_bytes, r.data, r.interests, r.retransmissions, r.timeouts, r.nacks, r.losses, r.marks] {
            put(log, v);
        }
        put_gauge(log, r.window);
        put(log, r.rtt_samples);
        put(log, r.rtt_sum.as_nanos());
        self.bins.last_mut().expect("a bin is open").consumer_rows += 1;
        self.consumer_rows += 1;
    }

    /// Takes the last bin's rows back out.
    pub fn drop_last_bin(&mut self) {
        if let Some(bin) = self.bins.pop() {
            self.links.truncate(self.last_bin_at.0);
            self.consumers.truncate(self.last_bin_at.1);
            self.consumer_rows -= bin.consumer_rows as usize;
        }
    }

    /// The link rows as columns.
    pub fn links(&self) -> LinkSeries {
        self.link_chunk(&mut Cursor::default(), usize::MAX)
    }

    /// The consumer rows as columns.
    pub fn consumers(&self) -> ConsumerSeries {
        self.consumer_chunk(&mut Cursor::default(), usize::MAX)
    }

    /// The next `rows` link rows from `at` (fewer at the end), `at` moved past them: a long
    /// trace is written a piece at a time, never whole in columns (issue 23, item 4).
    pub fn link_chunk(&self, at: &mut Cursor, rows: usize) -> LinkSeries {
        let n = rows.min(self.link_rows().saturating_sub(at.row));
        let mut s = LinkSeries::with_capacity(n);
        let mut r = Reader { bytes: &self.links, at: at.byte };
        while s.time_s.len() < n {
            let bin = &self.bins[at.bin];
            let (t, width) = (bin.start.as_secs_f64(), (bin.end - bin.start).as_secs_f64());
            s.time_s.push(t);
            s.dir.push(at.in_bin as u32);
            let bytes = r.next();
            s.bytes.push(bytes);
            s.throughput_bps.push(bytes as f64 * 8.0 / width);
            for column in [&mut s.packets, &mut s.interests, &mut s.data, &mut s.nacks] {
                column.push(r.next());
            }
            for column in [&mut s.drops, &mut s.marks, &mut s.losses, &mut s.queue_packets, &mut s.queue_bytes] {
                column.push(r.next());
            }
            s.sojourn_ms.push(r.mean_ms());
            at.next_row(self.n_dirs);
        }
        at.byte = r.at;
        s
    }

    /// The next `rows` consumer rows from `at` (fewer at the end), `at` moved past them.
    pub fn consumer_chunk(&self, at: &mut Cursor, rows: usize) -> ConsumerSeries {
        let n = rows.min(self.consumer_rows.saturating_sub(at.row));
        let mut s = ConsumerSeries::with_capacity(n);
        let mut r = Reader { bytes: &self.consumers, at: at.byte };
        while s.time_s.len() < n {
            while self.bins[at.bin].consumer_rows == 0 {
                at.bin += 1; // a bin before any consumer had started
            }
            let bin = &self.bins[at.bin];
            let (t, width) = (bin.start.as_secs_f64(), (bin.end - bin.start).as_secs_f64());
            s.time_s.push(t);
            s.consumer.push(r.next() as u32);
            let payload = r.next();
            s.goodput_bps.push(payload as f64 * 8.0 / width);
            for column in [&mut s.data, &mut s.interests, &mut s.retransmissions, &mut s.timeouts] {
                column.push(r.next());
            }
            for column in [&mut s.nacks, &mut s.losses, &mut s.marks] {
                column.push(r.next());
            }
            s.window.push(r.gauge());
            s.rtt_ms.push(r.mean_ms());
            at.next_row(bin.consumer_rows as usize);
        }
        at.byte = r.at;
        s
    }
}

/// Where a piecewise read of one trace's log stands: the next row's bin, its place in the bin,
/// its byte in the log, and the rows read so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cursor {
    bin: usize,
    in_bin: usize,
    byte: usize,
    row: usize,
}

impl Cursor {
    /// Past one row of a bin of `rows_in_bin` rows; into the next bin after its last.
    fn next_row(&mut self, rows_in_bin: usize) {
        self.row += 1;
        self.in_bin += 1;
        if self.in_bin == rows_in_bin {
            self.bin += 1;
            self.in_bin = 0;
        }
    }
}

#[cfg(test)]
#[path = "trace_log_tests.rs"]
mod tests;
