//! The search: what bounds it ([`Budget`], [`Abort`]), the transposition
//! [`table`], the [`midgame`] search over the evaluation, the exact
//! [`endgame`] solver, the move list both order their moves in, and the
//! [`engine`] that drives them for a caller.
//!
//! Score units: the midgame search scores in centi-discs
//! ([`crate::eval::SCALE`] per disc) within `±`[`midgame::INF`], the solver
//! in discs within `±`[`endgame::INF`].

pub mod endgame;
pub mod engine;
pub mod limits;
pub mod midgame;
pub(crate) mod moves;
pub mod parallel;
mod ponder;
pub mod probcut;
mod recursion;
mod root;
pub mod table;
pub mod timing;
pub mod tuning;

use parallel::Team;
use table::NO_MOVE;

use std::sync::atomic::{AtomicBool, Ordering};

/// Why a search ended early.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Abort {
    /// Stopped from outside or a limit (time or nodes) ran out.
    Stopped,
}

/// Search limits and counters shared by the midgame search and the solver.
/// Each thread of a search has its own; with several threads, they also
/// share a [`Team`], whose node count the limit applies to.
pub struct Budget<'a> {
    /// This thread's nodes.
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<crate::clock::Instant>,
    pub stop: &'a AtomicBool,
    pub stopped: bool,
    /// The threads of the search (None: it has one).
    pub team: Option<&'a Team>,
    /// This thread's nodes already added to the team's count.
    counted: u64,
}

impl<'a> Budget<'a> {
    pub fn new(stop: &'a AtomicBool) -> Budget<'a> {
        Budget {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop,
            stopped: false,
            team: None,
            counted: 0,
        }
    }

    /// A budget with the same limits for a thread of `team`.
    pub fn for_team<'t>(&self, team: &'t Team) -> Budget<'t>
    where
        'a: 't,
    {
        Budget {
            node_limit: self.node_limit,
            deadline: self.deadline,
            team: Some(team),
            ..Budget::new(self.stop)
        }
    }

    /// The nodes of every thread so far (this thread's exactly, the others'
    /// as of their last check).
    pub fn total(&self) -> u64 {
        match self.team {
            Some(team) => team.nodes() + self.nodes - self.counted,
            None => self.nodes,
        }
    }

    /// Counts a node; every 1024 nodes (about a fifth of a millisecond)
    /// looks at the stop flag and the limits.
    #[inline]
    pub fn tick(&mut self) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.nodes >= self.node_limit {
            self.check()?;
        }
        Ok(())
    }

    /// Looks at the stop flag and the limits now (between iterations).
    #[cold]
    pub fn check(&mut self) -> Result<(), Abort> {
        let late = self
            .deadline
            .is_some_and(|d| crate::clock::Instant::now() >= d);
        let (nodes, done) = match self.team {
            Some(team) => {
                let total = team.count(self.nodes - self.counted);
                self.counted = self.nodes;
                (total, team.is_done())
            }
            None => (self.nodes, false),
        };
        if self.stopped
            || late
            || done
            || nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || crate::clock::interrupted()
        {
            self.stopped = true;
            return Err(Abort::Stopped);
        }
        Ok(())
    }
}

/// A node's best score so far and the move that made it, as the midgame
/// search and the solver keep it over a node's moves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best {
    pub score: i32,
    pub square: u16,
}

impl Best {
    /// Below every score within `±inf`, with no move.
    #[inline(always)]
    pub fn none(inf: i32) -> Best {
        Best {
            score: -inf,
            square: NO_MOVE,
        }
    }

    /// Takes the `score` of the move to `x` into the best and the node's
    /// `alpha`; true when it reaches `beta` (the node cuts).
    #[inline(always)]
    pub fn take(&mut self, score: i32, x: u32, alpha: &mut i32, beta: i32) -> bool {
        if score > self.score {
            self.score = score;
            self.square = x as u16;
            if score > *alpha {
                *alpha = score;
                return score >= beta;
            }
        }
        false
    }
}
