//! The transposition table: bounds on the value of positions already
//! searched, with the best move found, shared by the midgame search and the
//! exact solver. Fixed size chosen by the user; two-entry buckets with
//! depth-preferred replacement, and an age so entries of earlier searches in
//! the same game give way first. Keyed by a 128-bit signature: boards up to
//! 8x8 use the position itself (exact), wider boards a 128-bit hash of it.
//! An entry takes 24 bytes, a bucket one 64-byte cache line (two entries
//! and 16 bytes unused), so that a probe waits for one line from memory.
//!
//! The threads of one search share the table without locks: a slot is three
//! atomic words, the two key words each XORed with the data word, written
//! and read one word at a time. A slot torn by two threads writing at once
//! (words of two different entries) no longer matches its key, so a probe
//! never returns a mix of two entries; it reads as another position's slot.
//! Two threads storing the same position at once can lose one of the two
//! updates, which costs a search but never a wrong bound.

pub use crate::board::{key, key_of, Key};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Marks a move slot as empty.
pub const NO_MOVE: u16 = u16::MAX;

/// The bounds that a fail-soft search's result `best`, searched in the
/// window (alpha, beta), proves for the table: at or below `alpha` an upper
/// bound, at or above `beta` a lower bound, else the exact value. `limit`
/// is beyond any score of the search.
#[inline]
pub fn bounds(best: i32, alpha: i32, beta: i32, limit: i32) -> (i32, i32) {
    if best <= alpha {
        (-limit, best)
    } else if best >= beta {
        (best, limit)
    } else {
        (best, best)
    }
}

/// One stored result. Scores are in the unit of the search that stored them:
/// centi-discs for midgame entries, discs for exact (`solved`) entries.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: Key,
    pub lower: i16,
    pub upper: i16,
    pub best: u16,
    /// Search depth for midgame entries, empties for solved ones; 0 for an
    /// empty slot.
    pub depth: u8,
    /// Bit 0: solved (exact solver bounds); bits 1..8: the search's age.
    flags: u8,
}

impl Entry {
    /// The entry's fields in one word (the key aside).
    #[inline(always)]
    fn data(&self) -> u64 {
        self.lower as u16 as u64
            | (self.upper as u16 as u64) << 16
            | (self.best as u64) << 32
            | (self.depth as u64) << 48
            | (self.flags as u64) << 56
    }

    #[inline(always)]
    fn from_data(key: Key, d: u64) -> Entry {
        Entry {
            key,
            lower: d as u16 as i16,
            upper: (d >> 16) as u16 as i16,
            best: (d >> 32) as u16,
            depth: (d >> 48) as u8,
            flags: (d >> 56) as u8,
        }
    }

    /// True for the exact solver's bounds (in discs).
    #[inline]
    pub fn solved(&self) -> bool {
        self.flags & 1 != 0
    }

    #[inline]
    fn age(&self) -> u8 {
        self.flags >> 1
    }
}

/// The hash of a key that picks its bucket.
#[inline(always)]
fn hash(key: Key) -> u64 {
    let x = key[0].wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ key[1].rotate_left(23).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    x ^ (x >> 29)
}

/// One slot: `[key[0] ^ data, key[1] ^ data, data]` (see the module), all
/// zero when empty (depth 0).
#[derive(Default)]
struct Slot([AtomicU64; 3]);

impl Slot {
    /// The entry in the slot, or `None` when a torn write left words of two
    /// entries (or it is empty).
    #[inline(always)]
    fn load(&self) -> Entry {
        let [a, b, d] = [&self.0[0], &self.0[1], &self.0[2]].map(|w| w.load(Relaxed));
        Entry::from_data([a ^ d, b ^ d], d)
    }

    #[inline(always)]
    fn save(&self, e: &Entry) {
        let d = e.data();
        self.0[0].store(e.key[0] ^ d, Relaxed);
        self.0[1].store(e.key[1] ^ d, Relaxed);
        self.0[2].store(d, Relaxed);
    }
}

/// A bucket: two slots in one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; 2]);

/// The buckets of a table of at most `megabytes` MiB (at least one), all
/// empty; `None` when the memory cannot be had.
fn buckets(megabytes: usize) -> Option<Vec<Bucket>> {
    let n = (megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
    let mut buckets: Vec<Bucket> = Vec::new();
    buckets.try_reserve_exact(n).ok()?;
    advise_huge_pages(buckets.as_ptr().cast(), n * std::mem::size_of::<Bucket>());
    buckets.resize_with(n, Bucket::default);
    Some(buckets)
}

/// Asks Linux to back the table with huge pages (before it is written): a
/// probe lands anywhere in it, and with 4 KiB pages nearly every probe
/// also misses the TLB. Only a hint: without it (or elsewhere) the table
/// works the same, slower.
fn advise_huge_pages(start: *const u8, len: usize) {
    // Miri (tests/miri.sh) runs no system calls: the advice is left out.
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        const PAGE: usize = 4096;
        let from = (start as usize).next_multiple_of(PAGE);
        let to = (start as usize + len) & !(PAGE - 1);
        if to > from {
            // SAFETY: the range lies within the caller's allocation; the
            // advice changes no memory contents.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(any(not(target_os = "linux"), miri))]
    let _ = (start, len);
}

pub struct Table {
    buckets: Vec<Bucket>,
    age: u8,
}

impl Table {
    /// A table using at most `megabytes` MiB (at least one bucket).
    /// Panics when memory runs out, as `Vec` does; see [`Table::try_new`].
    pub fn new(megabytes: usize) -> Table {
        Table::try_new(megabytes).expect("out of memory for the transposition table")
    }

    /// As [`Table::new`], but `None` when the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Option<Table> {
        Some(Table {
            buckets: buckets(megabytes)?,
            age: 0,
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        self.age = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x7f;
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        2 * self.buckets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// The bucket of `key`: its hash scaled to the number of buckets (a
    /// multiplication, so that any size of table is used whole).
    #[inline(always)]
    fn bucket(&self, key: Key) -> &Bucket {
        let i = ((hash(key) as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading the bucket of `key` into the cache, for a probe or
    /// a store a little later: the table is far bigger than the caches, so
    /// a probe otherwise waits for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        let bucket = self.bucket(key);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch only hints, and the address is the bucket's.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>((bucket as *const Bucket).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    #[inline]
    pub fn probe(&self, key: Key) -> Option<Entry> {
        self.bucket(key)
            .0
            .iter()
            .map(Slot::load)
            .find(|e| e.key == key && e.depth > 0)
    }

    /// Stores bounds for the position of `key`: merges with an entry of the
    /// same position and depth kind, otherwise replaces the less valuable of
    /// the bucket's two. An entry that is kept as the more valuable (solved
    /// over midgame, deeper over shallower) keeps its best move too: a
    /// shallower search's move need not reach the kept (e.g. exact) score.
    #[inline]
    pub fn store(&self, key: Key, depth: u8, solved: bool, lower: i32, upper: i32, best: u16) {
        let age = self.age;
        let slots = &self.bucket(key).0;
        let bucket = [slots[0].load(), slots[1].load()];
        let same = bucket.iter().position(|e| e.key == key && e.depth > 0);
        let slot = match same {
            Some(s) => s,
            None => {
                let value = |e: &Entry| {
                    let stale = e.age() != age;
                    (!stale, e.depth as u32 + if e.solved() { 256 } else { 0 })
                };
                if value(&bucket[0]) <= value(&bucket[1]) {
                    0
                } else {
                    1
                }
            }
        };
        let mut e = bucket[slot];
        let clamp = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        if same.is_some() && e.solved() == solved && e.depth == depth {
            // The move that proved the higher lower bound stays: once the
            // bounds meet, it is the move of the exact score. A search that
            // failed low names a move no better than the others (below its
            // window), and would pair it with the bounds the entry had.
            let (lower, upper) = (clamp(lower), clamp(upper));
            if best != NO_MOVE && (lower >= e.lower || e.best == NO_MOVE) {
                e.best = best;
            }
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            e.flags = age << 1 | (e.flags & 1);
            slots[slot].save(&e);
            return;
        }
        if same.is_some() && (e.solved() && !solved || e.depth > depth && e.solved() == solved) {
            // Keep the more valuable result and its best move; take the new
            // move only where the entry had none.
            if e.best == NO_MOVE {
                e.best = best;
            }
            e.flags = age << 1 | (e.flags & 1);
            slots[slot].save(&e);
            return;
        }
        e = Entry {
            key,
            lower: clamp(lower),
            upper: clamp(upper),
            best,
            depth: depth.max(1),
            flags: age << 1 | solved as u8,
        };
        slots[slot].save(&e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, S10, S16, S6, S8};

    #[test]
    fn stores_and_finds() {
        assert_eq!(std::mem::size_of::<Slot>(), 24);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(Table::new(0).len(), 2, "one bucket at least");
        // Under Miri (tests/miri.sh) a table of 1 MiB takes minutes to make
        // (Stacked Borrows tracks each atomic word): one bucket there, which
        // every key shares.
        let mut t = Table::new(if cfg!(miri) { 0 } else { 1 });
        #[cfg(not(miri))]
        {
            assert_eq!(t.len(), 2 << 14);
            assert_eq!(Table::new(3).len(), 3 * (2 << 14));
        }
        let p = Position::<S8>::start();
        let k = key(p);
        // Up to 8x8 the key is the position itself.
        assert_eq!(k, [p.player, p.opponent]);
        assert!(t.probe(k).is_none());
        t.store(k, 5, false, -10, 20, 19);
        let e = t.probe(k).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.depth), (-10, 20, 19, 5));
        t.store(k, 5, false, 0, 30, NO_MOVE);
        let e = t.probe(k).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (0, 20, 19));
        // A fail-low's move (below its window) does not replace the move
        // of a higher lower bound, even when its upper bound makes the
        // score exact; a higher lower bound's move does.
        t.store(k, 5, false, -6400, 0, 23);
        let e = t.probe(k).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (0, 0, 19));
        t.store(k, 6, false, 10, 6400, 21);
        t.store(k, 6, false, -6400, 10, 22);
        assert_eq!(t.probe(k).unwrap().best, 21);
        t.store(k, 6, false, 10, 10, 26);
        assert_eq!(t.probe(k).unwrap().best, 26);
        // A solved result replaces a midgame one and is not replaced by it,
        // nor is its move.
        t.store(k, 60, true, 4, 4, 37);
        t.store(k, 7, false, -50, 50, 19);
        let e = t.probe(k).unwrap();
        assert!(e.solved());
        assert_eq!((e.lower, e.upper, e.best), (4, 4, 37));
        assert_eq!(std::mem::size_of::<Entry>(), 24);
        let k16 = key(Position::<S16>::start());
        let k10 = key(Position::<S10>::start());
        assert_ne!(k16, k10);
        assert_ne!(key(Position::<S16>::start().pass()), k16);
        assert_ne!(key(Position::<S6>::start()), k);
        assert!(t.probe(key(Position::<S8>::new(1, 2))).is_none());
        t.clear();
        assert!(t.probe(k).is_none());
    }
}
