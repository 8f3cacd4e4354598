//! The search: what bounds it ([`Budget`], [`Abort`]), the transposition
//! [`table`], the [`midgame`] search over the evaluation, the exact
//! [`endgame`] solver, and the [`engine`] that drives them for a caller.
//!
//! Score units: the midgame search scores in centi-discs
//! ([`crate::eval::SCALE`] per disc) within `±`[`midgame::INF`], the solver
//! in discs within `±`[`endgame::INF`].

pub mod endgame;
pub mod engine;
pub mod midgame;
pub mod probcut;
pub mod table;

use std::sync::atomic::{AtomicBool, Ordering};

/// Why a search ended early.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Abort {
    /// Stopped from outside or a limit (time or nodes) ran out.
    Stopped,
}

/// Search limits and counters shared by the midgame search and the solver.
pub struct Budget<'a> {
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<std::time::Instant>,
    pub stop: &'a AtomicBool,
    pub stopped: bool,
}

impl<'a> Budget<'a> {
    pub fn new(stop: &'a AtomicBool) -> Budget<'a> {
        Budget {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop,
            stopped: false,
        }
    }

    /// Counts a node; every 4096 nodes looks at the stop flag and the limits.
    #[inline]
    pub fn tick(&mut self) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes & 4095 == 0 || self.nodes >= self.node_limit {
            self.check()?;
        }
        Ok(())
    }

    /// Looks at the stop flag and the limits now (between iterations).
    #[cold]
    pub fn check(&mut self) -> Result<(), Abort> {
        let late = self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d);
        if self.stopped
            || late
            || self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
        {
            self.stopped = true;
            return Err(Abort::Stopped);
        }
        Ok(())
    }
}
