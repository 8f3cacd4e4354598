//! Thinking on the opponent's time. After its move the engine expects a
//! reply and searches the position it would lead to on a thread of its
//! own, on its table, until the next call on the engine ends it. When the
//! next search is of that position under the same limits (the time
//! aside), the pondering is that search begun early: it goes on until it
//! ends by itself, or until the move's target time, and its result is the
//! search's. Any other search starts from the table the pondering filled.

use super::limits::Limits;
use super::root::SearchResult;
use super::timing::Plan;
use crate::board::{Bits, Geometry, Position};
use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A position as the pondering compares it: its board side and both
/// sides' discs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Seen {
    side: u32,
    player: [u64; 4],
    opponent: [u64; 4],
}

impl Seen {
    fn of<G: Geometry>(pos: Position<G>) -> Seen {
        Seen {
            side: G::N,
            player: pos.player.words(),
            opponent: pos.opponent.words(),
        }
    }
}

/// A search running in the background on an expected position.
pub(super) struct Ponder {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<SearchResult>>,
    on: Seen,
    /// The limits of the search to come, as the caller gave them.
    limits: Limits,
}

impl Ponder {
    /// Runs `think` on a thread of its own, for the search of `pos` under
    /// `limits` to come; `think` stops when `stop` is set.
    pub(super) fn start<G: Geometry>(
        pos: Position<G>,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        think: impl FnOnce(&AtomicBool) -> SearchResult + Send + 'static,
    ) -> std::io::Result<Ponder> {
        stop.store(false, Ordering::SeqCst);
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("othello-ponder".into())
            .spawn(move || think(&flag))?;
        Ok(Ponder {
            stop,
            thread: Some(thread),
            on: Seen::of(pos),
            limits: *limits,
        })
    }

    /// Whether the search has ended by itself (its limits reached).
    pub(super) fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Whether the search of `pos` under `limits` is the one pondered:
    /// the same position, and the same limits but for the time.
    pub(super) fn is_search_of<G: Geometry>(&self, pos: Position<G>, limits: &Limits) -> bool {
        self.on == Seen::of(pos) && untimed(&self.limits) == untimed(limits)
    }

    /// Lets the search go on, as the search the caller now wants, until it
    /// ends by itself, `until` comes (None: no time) or `stop` is set.
    /// True when it was still running then: cut short by the caller's
    /// search, its result is that search's even though it is stopped
    /// (which a pondering stopped before, from outside, is not).
    pub(super) fn go_on(&self, until: Option<Instant>, stop: &AtomicBool) -> bool {
        loop {
            if self.is_finished() {
                return false;
            }
            if stop.load(Ordering::Relaxed) || until.is_some_and(|t| Instant::now() >= t) {
                return true;
            }
            std::thread::sleep(Duration::from_micros(250));
        }
    }

    /// Stops the search and waits for its thread: what it found.
    /// `taken_over`: None when the caller's search is another one, else
    /// whether it was cut short as that search ([`Ponder::go_on`]). The
    /// result answers that search when it was, or when it ended by itself
    /// unstopped.
    pub(super) fn finish(mut self, taken_over: Option<bool>) -> Pondered {
        let answer = self
            .join()
            .filter(|r| taken_over.is_some_and(|cut_short| cut_short || !r.stopped));
        Pondered {
            on: self.on,
            answer,
        }
    }

    fn join(&mut self) -> Option<SearchResult> {
        self.stop.store(true, Ordering::SeqCst);
        // A search that panicked found nothing.
        self.thread.take()?.join().ok()
    }
}

impl Drop for Ponder {
    /// An engine dropped while pondering stops the thread first: it uses
    /// the engine's table.
    fn drop(&mut self) {
        self.join();
    }
}

/// What a finished pondering leaves.
pub(super) struct Pondered {
    on: Seen,
    /// The result of the caller's search, when the pondering was it.
    pub(super) answer: Option<SearchResult>,
}

impl Pondered {
    /// Whether it thought on `pos`, on a board of the same size.
    pub(super) fn on<G: Geometry>(&self, pos: Position<G>) -> bool {
        self.on == Seen::of(pos)
    }
}

fn untimed(limits: &Limits) -> Limits {
    Limits {
        time: None,
        clock: None,
        ..*limits
    }
}

/// The limits of the pondering for a search of `empties` empties under
/// `limits`: a timed search ponders as long as the move itself may take at
/// most (on a clock, a few times its share), so that it deepens and
/// solves as that search would with the time; a fixed one is that search.
pub(super) fn ponder_limits(limits: &Limits, empties: u32) -> Limits {
    let start = Instant::now();
    let Some(longest) = Plan::new(limits, empties, start)
        .and_then(|plan| plan.deadline())
        .map(|end| end - start)
    else {
        return *limits;
    };
    Limits {
        time: Some(longest),
        clock: None,
        ..*limits
    }
}
