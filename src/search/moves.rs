//! The move list the searches order and take their moves from: built in
//! place on the node's stack frame, no allocation per node.

use crate::board::Bits;
use std::mem::MaybeUninit;

/// The most moves a solved position can have: it has at most 64 empties
/// (the solver's lists, and the midgame's on boards of up to 64 squares).
pub const MAX_MOVES: usize = 64;

/// The most moves any position can have: the largest board has 256 squares.
pub const MAX_MOVES_ANY: usize = 256;

/// Keys are clamped to `-KEY_RANGE..KEY_RANGE`: times a capacity of up to
/// [`MAX_MOVES_ANY`], with the move's index added, they fit an `i32`.
const KEY_RANGE: i32 = 1 << 22;

/// The moves of a position with their flips, then their ordering keys; at
/// most `CAP` of them. Every move pushed is keyed ([`MoveList::set_key`])
/// before the first [`MoveList::select`]. The moves stay where they were
/// pushed; a move taken gets the key `TAKEN`. Uninitialised beyond
/// `len`: a deep node makes one, and clearing 64 slots there would cost
/// more than filling the list. (Built in place by the node: a list is too
/// big to return by value cheaply.)
pub struct MoveList<B, const CAP: usize = MAX_MOVES> {
    items: [MaybeUninit<(u32, B)>; CAP],
    /// Keys past `len` are `TAKEN` too, so that the search for the lowest
    /// key can read whole vectors.
    keys: [i32; CAP],
    /// The places of the moves taken, in the order taken.
    taken: [u8; CAP],
    len: usize,
    taken_len: usize,
}

/// The key of a move taken, and of the slots past the list's end: above
/// every key [`MoveList::set_key`] makes.
const TAKEN: i32 = i32::MAX;

/// Keys are compared a vector of this many at a time.
const LANES: usize = 8;

impl<B: Bits, const CAP: usize> MoveList<B, CAP> {
    #[inline(always)]
    pub fn new() -> MoveList<B, CAP> {
        const { assert!(CAP <= MAX_MOVES_ANY && CAP.is_power_of_two() && CAP >= LANES) };
        MoveList {
            items: [const { MaybeUninit::uninit() }; CAP],
            keys: [TAKEN; CAP],
            taken: [0; CAP],
            len: 0,
            taken_len: 0,
        }
    }

    /// The moves pushed.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends move `x` (flipping `f`).
    #[inline(always)]
    pub fn push(&mut self, x: u32, f: B) {
        assert!(self.len < CAP, "more than {CAP} moves");
        self.items[self.len] = MaybeUninit::new((x, f));
        self.len += 1;
    }

    /// Sets the key of the `i`-th move pushed, lower searched first; ties
    /// are broken here by `i` (the key's low bits), so that
    /// [`MoveList::select`] keeps the order of `push` among equal keys, and
    /// finds the move's place from its key. At least -2^22 (lower counts
    /// as -2^22), below 2^22.
    #[inline(always)]
    pub fn set_key(&mut self, i: usize, key: i32) {
        debug_assert!(key < KEY_RANGE && i < self.len);
        self.keys[i] = key.max(-KEY_RANGE) * CAP as i32 + i as i32;
    }

    /// The move to search `i`-th (see [`MoveList::select_index`]).
    #[inline(always)]
    pub fn select(&mut self, i: usize) -> (u32, B) {
        let j = self.select_index(i);
        self.as_slice()[j]
    }

    /// The index (in the order of `push`) of the move to search `i`-th:
    /// the one taken `i`-th if there was one (a second pass over the
    /// list), else the untaken move of lowest key (the first of equal
    /// keys, in the order of `push`), now taken. The lowest key is found
    /// by comparing whole vectors of keys, with no unpredictable branch:
    /// most nodes that cut do so on their first move or two, so a sort
    /// would do work that is never used.
    #[inline(always)]
    pub fn select_index(&mut self, i: usize) -> usize {
        if i < self.taken_len {
            return self.taken[i] as usize;
        }
        debug_assert!(i == self.taken_len && i < self.len);
        let mut low = [TAKEN; LANES];
        let whole = self.len.div_ceil(LANES) * LANES;
        for chunk in self.keys[..whole].chunks_exact(LANES) {
            for (l, &k) in low.iter_mut().zip(chunk) {
                *l = (*l).min(k);
            }
        }
        let key = low.into_iter().fold(TAKEN, i32::min);
        debug_assert!(key != TAKEN, "a move was not keyed, or all are taken");
        // The key's low bits are the move's place (see `set_key`).
        let j = (key as usize) & (CAP - 1);
        self.keys[j] = TAKEN;
        self.taken[i] = j as u8;
        self.taken_len = i + 1;
        j
    }

    /// Whether the `i`-th move pushed has been taken by
    /// [`MoveList::select`].
    #[inline(always)]
    pub fn taken(&self, i: usize) -> bool {
        self.keys[i] == TAKEN
    }

    /// The moves in the order of `push`.
    #[inline(always)]
    pub fn as_slice(&self) -> &[(u32, B)] {
        // SAFETY: `push` writes every slot below `len` before `len` covers
        // it, and the tuple is `Copy` (no drop to run).
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selects_by_key<const CAP: usize>() {
        let mut list = MoveList::<u64, CAP>::new();
        for (i, (k, x)) in [
            (5, 1),
            (-3, 2),
            (5, 3),
            (0, 4),
            (i32::MIN, 5),
            (5, 6),
            (-3, 7),
        ]
        .into_iter()
        .enumerate()
        {
            list.push(x, 1 << x);
            list.set_key(i, k);
        }
        let xs: Vec<u32> = (0..list.len()).map(|i| list.select(i).0).collect();
        assert_eq!(xs, vec![5, 2, 7, 4, 1, 3, 6]);
        // A second pass takes them again in the same order.
        let again: Vec<u32> = (0..list.len()).map(|i| list.select(i).0).collect();
        assert_eq!(again, xs);
        let pushed: Vec<u32> = list.as_slice().iter().map(|m| m.0).collect();
        assert_eq!(pushed, vec![1, 2, 3, 4, 5, 6, 7]);
        assert!((0..7).all(|i| list.taken(i)));
    }

    fn rekeys_the_untaken<const CAP: usize>() {
        // More moves than a vector of keys, keyed in reverse.
        let mut list = MoveList::<u64, CAP>::new();
        for i in 0..20 {
            list.push(i, 1 << i);
            list.set_key(i as usize, 100 - i as i32);
        }
        assert_eq!(list.select(0).0, 19);
        assert_eq!(list.select(1).0, 18);
        assert!(list.taken(19) && list.taken(18) && !list.taken(0));
        // The rest rekeyed by their square: lowest first.
        for i in 0..20 {
            if !list.taken(i) {
                list.set_key(i, i as i32);
            }
        }
        let xs: Vec<u32> = (2..20).map(|i| list.select(i).0).collect();
        assert_eq!(xs, (0..18).collect::<Vec<u32>>());
    }

    #[test]
    fn move_list_selects_by_key() {
        selects_by_key::<MAX_MOVES>();
        selects_by_key::<MAX_MOVES_ANY>();
        rekeys_the_untaken::<MAX_MOVES>();
        rekeys_the_untaken::<MAX_MOVES_ANY>();
    }
}
