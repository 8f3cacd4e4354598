//! The transposition table: bounds on the value of positions already
//! searched, with the best move found, shared by the midgame search and the
//! exact solver. Fixed size chosen by the user; two-entry buckets with
//! depth-preferred replacement, and an age so entries of earlier searches in
//! the same game give way first.

use crate::position::Position;

/// Marks a move slot as empty.
pub const NO_MOVE: u8 = 64;

/// One stored result. Scores are in the unit of the search that stored them:
/// centi-discs for midgame entries, discs for exact (`solved`) entries.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i16,
    pub upper: i16,
    pub best: u8,
    /// Search depth for midgame entries, empties for solved ones.
    pub depth: u8,
    pub solved: bool,
    age: u8,
}

pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

#[inline]
fn hash(pos: Position) -> u64 {
    let h = pos.player.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ pos
            .opponent
            .0
            .rotate_left(23)
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^ (h >> 29)
}

/// The entries of a table of at most `megabytes` MiB: a power of two of them
/// (at least one two-entry bucket), all empty; `None` when the memory cannot
/// be had. Shared with the sized boards' table.
pub(crate) fn buckets<E: Clone + Default>(megabytes: usize) -> Option<Vec<E>> {
    let wanted = megabytes.saturating_mul(1 << 20) / std::mem::size_of::<E>();
    let mut n = 2usize;
    while n * 2 <= wanted {
        n *= 2;
    }
    let mut entries = Vec::new();
    entries.try_reserve_exact(n).ok()?;
    entries.resize(n, E::default());
    Some(entries)
}

impl Table {
    /// A table using at most `megabytes` MiB (at least one bucket).
    /// Panics when memory runs out, as `Vec` does; see [`Table::try_new`].
    pub fn new(megabytes: usize) -> Table {
        Table::try_new(megabytes).expect("out of memory for the transposition table")
    }

    /// As [`Table::new`], but `None` when the memory cannot be had, so that
    /// the C API can return NULL instead of aborting the process.
    pub fn try_new(megabytes: usize) -> Option<Table> {
        let entries = buckets(megabytes)?;
        Some(Table {
            mask: entries.len() - 2,
            entries,
            age: 0,
        })
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[inline]
    pub fn probe(&self, pos: Position) -> Option<&Entry> {
        let i = hash(pos) as usize & self.mask;
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.player == pos.player.0 && e.opponent == pos.opponent.0 && e.depth > 0)
    }

    /// Stores bounds for `pos`: merges with an entry of the same position and
    /// depth kind, otherwise replaces the less valuable of the bucket's two.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        pos: Position,
        depth: u8,
        solved: bool,
        lower: i32,
        upper: i32,
        best: u8,
    ) {
        let i = hash(pos) as usize & self.mask;
        let age = self.age;
        let bucket = &mut self.entries[i..i + 2];
        let same = bucket
            .iter()
            .position(|e| e.player == pos.player.0 && e.opponent == pos.opponent.0);
        let slot = match same {
            Some(s) => s,
            None => {
                // Prefer to replace an entry from an older search, then the shallower.
                let value = |e: &Entry| {
                    let stale = e.age != age;
                    (!stale, e.depth as u32 + if e.solved { 64 } else { 0 })
                };
                if value(&bucket[0]) <= value(&bucket[1]) {
                    0
                } else {
                    1
                }
            }
        };
        let e = &mut bucket[slot];
        let clamp = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        if same.is_some() && e.solved == solved && e.depth == depth {
            // Same search kind and depth: tighten the bounds we had.
            e.lower = e.lower.max(clamp(lower));
            e.upper = e.upper.min(clamp(upper));
            if best != NO_MOVE {
                e.best = best;
            }
            e.age = age;
            return;
        }
        if same.is_some() && (e.solved && !solved || e.depth > depth && e.solved == solved) {
            // Keep the more valuable result and its best move: a shallower
            // search's move need not reach the kept (e.g. exact) score. Take
            // the new move only where the entry had none.
            if e.best == NO_MOVE {
                e.best = best;
            }
            e.age = age;
            return;
        }
        *e = Entry {
            player: pos.player.0,
            opponent: pos.opponent.0,
            lower: clamp(lower),
            upper: clamp(upper),
            best,
            depth: depth.max(1),
            solved,
            age,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bitboard;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(1);
        let p = Position::start();
        assert!(t.probe(p).is_none());
        t.store(p, 5, false, -10, 20, 19);
        let e = t.probe(p).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.depth), (-10, 20, 19, 5));
        t.store(p, 5, false, 0, 30, NO_MOVE);
        let e = t.probe(p).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (0, 20, 19));
        // A solved result replaces a midgame one and is not replaced by it.
        t.store(p, 60, true, 4, 4, 37);
        t.store(p, 7, false, -50, 50, 19);
        let e = t.probe(p).unwrap();
        assert!(e.solved);
        assert_eq!((e.lower, e.upper), (4, 4));
        let other = Position::new(Bitboard(1), Bitboard(2));
        assert!(t.probe(other).is_none());
        t.clear();
        assert!(t.probe(p).is_none());
    }
}
