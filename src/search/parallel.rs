//! What the threads of one search share besides the transposition table.
//!
//! The design is a shared-table search (Lazy SMP) in which the threads also
//! avoid each other's subtrees (simplified ABDADA):
//! - every thread searches the same root with the same limits, one of them
//!   (the caller's) for the result, the others (helpers) for the table
//!   entries they leave;
//! - at a node deep enough to be worth it, a thread marks the position of
//!   each move it starts searching, after the first move, as busy; a thread
//!   that meets a move already busy leaves it for last, by when the other
//!   thread's result is usually in the table. So two threads at the same node
//!   search different moves, as in a split of the node, without a split
//!   point to synchronise on;
//! - the caller's thread ends the search; the helpers stop at their next
//!   look at the budget ([`Team::finish`]).
//!
//! Nothing waits on anything: the table's slots are atomic words, the busy
//! marks are a small array of atomic words, and the only other shared state
//! is the node count and the flag of [`Team`]. What contends as threads are
//! added is the memory traffic of the table and of these few words.

use super::table::Key;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The most threads a search may have.
pub const MAX_THREADS: u32 = 256;

/// The threads `requested` means: 0 is every core the system gives the
/// process, capped at [`MAX_THREADS`].
pub fn resolve_threads(requested: u32) -> u32 {
    // The web build (wasm32-unknown-unknown) has no threads.
    if cfg!(all(target_arch = "wasm32", not(target_feature = "atomics"))) {
        return 1;
    }
    if requested > 0 {
        return requested.min(MAX_THREADS);
    }
    std::thread::available_parallelism()
        .map_or(1, |n| n.get() as u32)
        .min(MAX_THREADS)
}

/// The counters of the threads of one search.
#[derive(Default)]
pub struct Team {
    nodes: AtomicU64,
    done: AtomicBool,
}

impl Team {
    /// Adds `nodes` to the count; returns the new total.
    pub fn count(&self, nodes: u64) -> u64 {
        self.nodes.fetch_add(nodes, Relaxed) + nodes
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Tells the helpers to stop: the caller's thread has its result.
    pub fn finish(&self) {
        self.done.store(true, Relaxed);
    }

    pub fn is_done(&self) -> bool {
        self.done.load(Relaxed)
    }
}

/// Positions some thread is searching now: a mark is a 64-bit hash of the
/// position in a slot chosen by it. Two positions sharing a slot only make a
/// move wait for later needlessly; a mark is never needed for correctness.
pub struct Busy {
    slots: Vec<AtomicU64>,
}

/// Slots of [`Busy`]: many more than the nodes all threads can be inside at
/// once (their search depth at most), so few share one.
const BUSY_SLOTS: usize = 1 << 12;

impl Default for Busy {
    fn default() -> Busy {
        Busy {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    /// The mark of the position of `key` (never 0, which is a free slot).
    #[inline]
    fn mark(key: Key) -> u64 {
        let h = (key[0] ^ key[1].rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h ^ (h >> 31)) | 1
    }

    #[inline]
    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.slots[(mark >> 52) as usize & (BUSY_SLOTS - 1)]
    }

    /// True when a thread is searching the position of `mark`.
    #[inline]
    fn is_busy(&self, mark: u64) -> bool {
        self.slot(mark).load(Relaxed) == mark
    }

    /// Marks the position as searched by this thread.
    #[inline]
    fn enter(&self, mark: u64) {
        self.slot(mark).store(mark, Relaxed);
    }

    /// Claims the position of `key` for this thread before it searches it:
    /// `None` when another thread is on it (the move then waits for last),
    /// else the mark to [`Busy::leave`] afterwards.
    #[inline]
    fn claim(&self, key: Key) -> Option<u64> {
        let mark = Busy::mark(key);
        if self.is_busy(mark) {
            return None;
        }
        self.enter(mark);
        Some(mark)
    }

    /// Clears the mark, unless another position has taken the slot since.
    #[inline]
    fn leave(&self, mark: u64) {
        let _ = self.slot(mark).compare_exchange(mark, 0, Relaxed, Relaxed);
    }
}

/// The move loop of one node with other threads: which moves wait for last
/// because another thread is on them (see the module). A node searches its
/// moves in two passes: the first claims each move after the first one and
/// skips those another thread holds; the second takes the skipped ones.
/// Moves past the 64th (boards over 8x8) never wait.
pub struct Deferral<'a> {
    /// None: one thread, or a node too shallow to share; nothing waits.
    busy: Option<&'a Busy>,
    /// Bit i: move i waits for the second pass.
    waiting: u64,
}

/// A move [`Deferral::start`] lets the thread search now, with the mark to
/// clear when it is done (none when it claimed nothing).
pub struct Claim(Option<u64>);

impl<'a> Deferral<'a> {
    #[inline]
    pub fn new(busy: Option<&'a Busy>) -> Deferral<'a> {
        Deferral { busy, waiting: 0 }
    }

    /// Whether move `i` of the node is searched in `pass` (0, then 1):
    /// `None` to skip it in this pass. `key` is the position it leads to,
    /// computed only when the move is claimed.
    #[inline]
    pub fn start(&mut self, pass: u32, i: usize, key: impl FnOnce() -> Key) -> Option<Claim> {
        if pass > 0 {
            return (i < 64 && self.waiting >> i & 1 == 1).then_some(Claim(None));
        }
        match self.busy {
            Some(busy) if i > 0 && i < 64 => match busy.claim(key()) {
                Some(mark) => Some(Claim(Some(mark))),
                None => {
                    self.waiting |= 1 << i;
                    None
                }
            },
            _ => Some(Claim(None)),
        }
    }

    /// The move of `claim` is searched (or its search stopped).
    #[inline]
    pub fn done(&self, claim: Claim) {
        if let (Some(busy), Claim(Some(mark))) = (self.busy, claim) {
            busy.leave(mark);
        }
    }

    /// True when a second pass has moves to search.
    #[inline]
    pub fn waiting(&self) -> bool {
        self.waiting != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_and_go() {
        let busy = Busy::default();
        let (a, b) = (Busy::mark([1, 2]), Busy::mark([3, 4]));
        assert_ne!(a, b);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a) && !busy.is_busy(b));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        let claimed = busy.claim([1, 2]);
        assert_eq!(claimed, Some(a));
        assert_eq!(busy.claim([1, 2]), None);
        busy.leave(a);
        assert_eq!(busy.claim([1, 2]), Some(a));
        assert_eq!(resolve_threads(3), 3);
        assert_eq!(resolve_threads(10_000), MAX_THREADS);
        assert!(resolve_threads(0) >= 1);
    }

    #[test]
    fn busy_moves_wait_for_the_second_pass() {
        let busy = Busy::default();
        let held = busy.claim([7, 7]).unwrap();
        let keys = [[1, 1], [7, 7], [2, 2]];
        let mut order = Vec::new();
        let mut node = Deferral::new(Some(&busy));
        for pass in 0..2 {
            for (i, &k) in keys.iter().enumerate() {
                if let Some(claim) = node.start(pass, i, || k) {
                    // While searched, the move is busy for other threads.
                    assert_eq!(busy.is_busy(Busy::mark(k)), i == 2);
                    order.push(i);
                    node.done(claim);
                }
            }
            if pass == 0 {
                assert!(node.waiting());
                busy.leave(held);
            }
        }
        assert_eq!(order, [0, 2, 1]);
        assert!(!busy.is_busy(Busy::mark([2, 2])));
        // One thread: every move in the first pass, nothing claimed.
        let mut alone = Deferral::new(None);
        assert!((0..3).all(|i| alone.start(0, i, || unreachable!()).is_some()));
        assert!(!alone.waiting());
    }

    #[test]
    fn team_counts_every_thread() {
        let team = Team::default();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        team.count(3);
                    }
                });
            }
        });
        assert_eq!(team.nodes(), 12_000);
        assert!(!team.is_done());
        team.finish();
        assert!(team.is_done());
    }
}
