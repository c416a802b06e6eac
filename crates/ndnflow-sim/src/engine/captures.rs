//! The run's pcap captures (`[trace] pcap`, `crate::capture`): opened on the chosen link
//! directions before the run, flushed after it. The engine only hands each transmitted frame to
//! its direction's capture; where the bytes go is the caller's (a file for the Python front).

use std::io::{self, Write};

use crate::capture::{CaptureStats, DirCapture};
use crate::engine::Simulation;
use crate::scenario::model::CapturedDirection;

impl Simulation {
    /// The file name of each direction the scenario captures, in `[trace] pcap` order:
    /// "a-b.pcap" for a->b.
    pub fn capture_names(&self) -> Vec<String> {
        let s = &self.scenario;
        s.trace.pcap.iter().map(|d| format!("{}-{}.pcap", s.nodes[d.from].name, s.nodes[d.to].name)).collect()
    }

    /// Starts every capture the scenario asks for, `open(name)` giving where each file's bytes
    /// go. Before the run; an error leaves no capture started.
    pub fn start_captures(
        &mut self,
        mut open: impl FnMut(&str) -> io::Result<Box<dyn Write + Send>>,
    ) -> io::Result<()> {
        let mut started = Vec::with_capacity(self.scenario.trace.pcap.len());
        for (d, name) in self.scenario.trace.pcap.iter().zip(self.capture_names()) {
            let dir = self.captured_dir(d);
            started.push((dir, DirCapture::new(open(&name)?, d.from, d.to)?));
        }
        for (dir, capture) in started {
            self.net.dirs[dir].capture = Some(Box::new(capture));
        }
        Ok(())
    }

    /// Ends the captures: each file flushed, with what it holds (in `capture_names` order); the
    /// first write error of any.
    pub fn finish_captures(&mut self) -> io::Result<Vec<CaptureStats>> {
        let mut stats = Vec::new();
        let mut first_error = None;
        for d in &self.scenario.trace.pcap {
            let dir = self.captured_dir(d);
            if let Some(capture) = self.net.dirs[dir].capture.take() {
                match capture.finish() {
                    Ok(s) => stats.push(s),
                    Err(e) => first_error = first_error.or(Some(e)),
                }
            }
        }
        first_error.map_or(Ok(stats), Err)
    }

    /// The engine's index of a captured direction.
    fn captured_dir(&self, d: &CapturedDirection) -> usize {
        let (ab, ba) = self.net.link_dirs[d.link];
        if d.from == self.scenario.links[d.link].a {
            ab
        } else {
            ba
        }
    }
}
