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
/// most `CAP` of them. Uninitialised beyond `len`: a deep node makes one,
/// and clearing 64 slots there would cost more than filling the list.
/// (Built in place by the node: a list is too big to return by value
/// cheaply.)
pub struct MoveList<B, const CAP: usize = MAX_MOVES> {
    items: [MaybeUninit<(u32, B)>; CAP],
    keys: [i32; CAP],
    len: usize,
}

impl<B: Bits, const CAP: usize> MoveList<B, CAP> {
    #[inline(always)]
    pub fn new() -> MoveList<B, CAP> {
        const { assert!(CAP <= MAX_MOVES_ANY) };
        MoveList {
            items: [const { MaybeUninit::uninit() }; CAP],
            keys: [0; CAP],
            len: 0,
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
    /// are broken here by `i`, so that [`MoveList::select`]'s swaps keep
    /// the order of `push` among equal keys. At least -2^22 (lower counts
    /// as -2^22), below 2^22.
    #[inline(always)]
    pub fn set_key(&mut self, i: usize, key: i32) {
        debug_assert!(key < KEY_RANGE);
        self.keys[i] = key.max(-KEY_RANGE) * CAP as i32 + i as i32;
    }

    /// The move to search `i`-th, the moves before `i` taken: the lowest
    /// key of the rest (the first of equal keys, in the order of `push`),
    /// swapped to `i`. A selection as the search goes rather than a sort:
    /// most nodes that cut do so on their first move or two, and a scan
    /// with no unpredictable branch is cheaper than an insertion sort of
    /// random keys.
    #[inline(always)]
    pub fn select(&mut self, i: usize) -> (u32, B) {
        let mut best = i;
        for j in i + 1..self.len {
            if self.keys[j] < self.keys[best] {
                best = j;
            }
        }
        self.keys.swap(i, best);
        self.items.swap(i, best);
        self.as_slice()[i]
    }

    /// The moves: those taken by `MoveList::select` first, in the order
    /// taken, then the rest (in the order of `push` until the first select,
    /// its swaps leave them in no set order).
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
        assert_eq!(list.as_slice().len(), 7);
    }

    #[test]
    fn move_list_selects_by_key() {
        selects_by_key::<MAX_MOVES>();
        selects_by_key::<MAX_MOVES_ANY>();
    }
}
