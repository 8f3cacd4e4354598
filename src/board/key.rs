//! Position keys: a 128-bit signature of a position, which the
//! transposition tables of the search and of the classic players are keyed
//! by. Boards up to 8x8 use the position itself (exact), wider boards a
//! 128-bit hash of it.

use super::{Bits, Geometry, Position};

/// The signature of a position (see [`key`]).
pub type Key = [u64; 2];

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
#[inline(always)]
pub fn key<G: Geometry>(pos: Position<G>) -> Key {
    key_of::<G>(pos.player, pos.opponent)
}

/// [`key`] of the discs `p` (to move) and `o`.
#[inline(always)]
pub fn key_of<G: Geometry>(p: G::B, o: G::B) -> Key {
    let (p, o) = (p.words(), o.words());
    if G::B::WIDTH == 64 {
        return [p[0], o[0]];
    }
    let mut a: u64 = 0x243f_6a88_85a3_08d3 ^ G::N as u64;
    let mut b: u64 = 0x1319_8a2e_0370_7344;
    for w in p.into_iter().chain(o) {
        a = fmix(a ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        b = fmix(b.rotate_left(29) ^ w ^ 0xa409_3822_299f_31d0);
    }
    [a, b]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{S10, S16, S6, S8};

    #[test]
    fn tell_positions_and_sizes_apart() {
        // Up to 8x8 the key is the position itself.
        let p = Position::<S8>::start();
        assert_eq!(key(p), [p.player, p.opponent]);
        let k16 = key(Position::<S16>::start());
        assert_ne!(k16, key(Position::<S10>::start()));
        assert_ne!(key(Position::<S16>::start().pass()), k16);
        assert_ne!(key(Position::<S6>::start()), key(p));
    }
}
