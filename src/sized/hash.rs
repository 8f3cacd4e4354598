//! The transposition table of the sized search: the same design as
//! [`crate::hash`] (two-entry buckets, depth-preferred replacement, ages),
//! keyed by a 128-bit signature of the position so that one table type
//! serves every size. Boards up to 8x8 use the position itself as the
//! signature (exact); wider boards a 128-bit hash of it.

use super::bits::Bits;
use super::geometry::Geometry;
use super::position::Pos;

/// Marks a move slot as empty.
pub const NO_MOVE: u16 = u16::MAX;

/// One stored result. Scores are in the unit of the search that stored them:
/// centi-discs for midgame entries, discs for exact (`solved`) entries.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u128,
    pub lower: i16,
    pub upper: i16,
    pub best: u16,
    /// Search depth for midgame entries, empties for solved ones.
    pub depth: u8,
    pub solved: bool,
    age: u8,
}

#[inline(always)]
fn fmix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The signature of a position: the discs themselves when both fit in 64
/// bits, else two independent 64-bit hashes of every word.
#[inline]
pub fn key<G: Geometry>(pos: Pos<G>) -> u128 {
    let (p, o) = (pos.player.words(), pos.opponent.words());
    if G::B::WIDTH == 64 {
        return p[0] as u128 | (o[0] as u128) << 64;
    }
    let mut a: u64 = 0x243f_6a88_85a3_08d3 ^ G::N as u64;
    let mut b: u64 = 0x1319_8a2e_0370_7344;
    for w in p.into_iter().chain(o) {
        a = fmix(a ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        b = fmix(b.rotate_left(29) ^ w ^ 0xa409_3822_299f_31d0);
    }
    a as u128 | (b as u128) << 64
}

#[inline]
fn slot(key: u128) -> u64 {
    let x = (key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ ((key >> 64) as u64)
            .rotate_left(23)
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    x ^ (x >> 29)
}

pub struct SizedTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl SizedTable {
    /// A table using at most `megabytes` MiB (at least one bucket).
    /// Panics when memory runs out, as `Vec` does; see [`SizedTable::try_new`].
    pub fn new(megabytes: usize) -> SizedTable {
        SizedTable::try_new(megabytes).expect("out of memory for the transposition table")
    }

    /// As [`SizedTable::new`], but `None` when the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Option<SizedTable> {
        let entries = crate::hash::buckets::<Entry>(megabytes)?;
        Some(SizedTable {
            mask: entries.len() - 2,
            entries,
            age: 0,
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u128) -> Option<&Entry> {
        let i = slot(key) as usize & self.mask;
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.key == key && e.depth > 0)
    }

    /// Stores bounds for the position of `key`: merges with an entry of the
    /// same position and depth kind, otherwise replaces the less valuable of
    /// the bucket's two. `best` is the best move found; unless `proven` (the
    /// search failed low, so every move is only bounded) it is a hint for
    /// move ordering that never replaces a proven one: the move of an exact
    /// entry reaches its score, however its bounds were merged.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        key: u128,
        depth: u8,
        solved: bool,
        lower: i32,
        upper: i32,
        best: u16,
        proven: bool,
    ) {
        let i = slot(key) as usize & self.mask;
        let age = self.age;
        let bucket = &mut self.entries[i..i + 2];
        let same = bucket.iter().position(|e| e.key == key && e.depth > 0);
        let slot = match same {
            Some(s) => s,
            None => {
                let value = |e: &Entry| {
                    let stale = e.age != age;
                    (!stale, e.depth as u32 + if e.solved { 256 } else { 0 })
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
            e.lower = e.lower.max(clamp(lower));
            e.upper = e.upper.min(clamp(upper));
            if best != NO_MOVE && (proven || e.best == NO_MOVE) {
                e.best = best;
            }
            e.age = age;
            return;
        }
        if same.is_some() && (e.solved && !solved || e.depth > depth && e.solved == solved) {
            // Keep the more valuable result, with the newer best move only if
            // it comes from the same kind of search: a solved entry's move
            // is one that reaches its exact score.
            if best != NO_MOVE && e.solved == solved && (proven || e.best == NO_MOVE) {
                e.best = best;
            }
            e.age = age;
            return;
        }
        *e = Entry {
            key,
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
    use crate::sized::geometry::{S10, S16, S6};

    #[test]
    fn stores_and_finds() {
        let mut t = SizedTable::new(1);
        let k = key(Pos::<S6>::start());
        assert!(t.probe(k).is_none());
        t.store(k, 5, false, -10, 20, 19, true);
        let e = t.probe(k).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.depth), (-10, 20, 19, 5));
        t.store(k, 60, true, 4, 4, 37, true);
        t.store(k, 7, false, -50, 50, 19, true);
        assert_eq!(t.probe(k).unwrap().best, 37);
        // A fail-low's move does not replace a proven one.
        t.store(k, 60, true, -36, 4, 12, false);
        assert_eq!(t.probe(k).unwrap().best, 37);
        assert!(t.probe(k).unwrap().solved);
        let k16 = key(Pos::<S16>::start());
        let k10 = key(Pos::<S10>::start());
        assert_ne!(k16, k10);
        assert_ne!(key(Pos::<S16>::start().pass()), k16);
        t.clear();
        assert!(t.probe(k).is_none());
    }
}
