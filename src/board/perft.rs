//! Perft: the number of move sequences of a given length from a position,
//! the standard check of move generation. Passes count as a ply; a finished
//! game is a leaf.
//!
//! The recursion is compiled once per instruction set (see [`super::isa`]):
//! [`perft`] runs the x86-64-v3 copy (AVX2 moves and flips on 8x8), or the
//! AVX-512 one, on CPUs that have it, [`perft_portable`] always the build's
//! own.

use super::bits::Bits;
use super::geometry::Geometry;
#[cfg(target_arch = "x86_64")]
use super::isa::{Avx512, Haswell};
use super::isa::{Isa, Portable};
use super::position::Position;

/// Leaves of the game tree `depth` plies below `pos`, by the fastest copy
/// of the recursion this CPU runs.
pub fn perft<G: Geometry>(pos: Position<G>, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(isa) = Avx512::detect() {
        return isa.perft(pos, depth);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(isa) = Haswell::detect() {
        return isa.perft(pos, depth);
    }
    Portable.perft(pos, depth)
}

/// [`perft`] by the copy compiled for the build's target, on any CPU.
pub fn perft_portable<G: Geometry>(pos: Position<G>, depth: u32) -> u64 {
    Portable.perft(pos, depth)
}

/// The recursion, compiled once per instruction set.
trait Walk: Isa {
    fn perft<G: Geometry>(self, pos: Position<G>, depth: u32) -> u64;
}

impl Walk for Portable {
    fn perft<G: Geometry>(self, pos: Position<G>, depth: u32) -> u64 {
        walk(self, pos, depth)
    }
}

/// The copy of the recursion for `$isa`: its nodes are calls to `$copy`,
/// compiled with `$features` (those `$isa::detect` checks).
#[cfg(target_arch = "x86_64")]
macro_rules! copy {
    ($isa:ident, $copy:ident, $features:literal) => {
        impl Walk for $isa {
            #[inline(always)]
            fn perft<G: Geometry>(self, pos: Position<G>, depth: u32) -> u64 {
                // SAFETY: an `$isa` exists only on a CPU with these features.
                unsafe { $copy(self, pos, depth) }
            }
        }

        #[target_feature(enable = $features)]
        fn $copy<G: Geometry>(isa: $isa, pos: Position<G>, depth: u32) -> u64 {
            walk(isa, pos, depth)
        }
    };
}

#[cfg(target_arch = "x86_64")]
copy!(Haswell, perft_v3, "avx2,bmi1,bmi2,lzcnt,popcnt");
#[cfg(target_arch = "x86_64")]
copy!(
    Avx512,
    perft_v4,
    "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512cd"
);

/// The body of every copy. A position one ply above the leaves counts its
/// moves (or 1 when it has none: a pass or the end is one leaf either way);
/// two plies above, the children are not built: their moves come with the
/// flips ([`Isa::flips_and_replies`]).
#[inline(always)]
fn walk<G: Geometry, I: Walk>(isa: I, pos: Position<G>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (p, o) = (pos.player, pos.opponent);
    let moves = isa.moves::<G>(p, o);
    if depth == 1 {
        return moves.count().max(1) as u64;
    }
    if moves.is_zero() {
        return if isa.moves::<G>(o, p).is_zero() {
            1
        } else {
            isa.perft(pos.pass(), depth - 1)
        };
    }
    if depth == 2 {
        return moves
            .squares()
            .map(|sq| isa.flips_and_replies::<G>(p, o, sq).1.count().max(1) as u64)
            .sum();
    }
    moves
        .squares()
        .map(|sq| isa.perft(pos.play_with(sq, isa.flips::<G>(p, o, sq)), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{for_every_size, random_positions};
    use crate::board::*;

    /// Perft by every copy of the recursion this CPU runs.
    fn by_each_copy<G: Geometry>(pos: Position<G>, depth: u32) -> Vec<u64> {
        #[allow(unused_mut)]
        let mut counts = vec![perft_portable(pos, depth)];
        #[cfg(target_arch = "x86_64")]
        match Haswell::detect() {
            Some(isa) => counts.push(isa.perft(pos, depth)),
            None => eprintln!("x86-64-v3 copy skipped: this CPU lacks its features"),
        }
        #[cfg(target_arch = "x86_64")]
        match Avx512::detect() {
            Some(isa) => counts.push(isa.perft(pos, depth)),
            None => eprintln!("AVX-512 copy skipped: this CPU lacks its features"),
        }
        counts
    }

    #[test]
    fn start_counts_to_depth_9() {
        let expected = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
        // Miri (tests/miri.sh): to depth 5 (8,200 leaves).
        let depths = if cfg!(miri) { 5 } else { expected.len() };
        for (d, &n) in expected.iter().take(depths).enumerate() {
            let depth = d as u32 + 1;
            for count in by_each_copy(Position::<S8>::start(), depth) {
                assert_eq!(count, n, "depth {depth}");
            }
            assert_eq!(perft(Position::<S8>::start(), depth), n);
        }
    }

    #[test]
    fn copies_agree_on_game_positions() {
        fn check<G: Geometry>() {
            // Miri (tests/miri.sh): a few positions of a game, two plies.
            let (games, step, depth) = if cfg!(miri) { (1, 40, 2) } else { (3, 3, 4) };
            for pos in random_positions::<G>(12, games).into_iter().step_by(step) {
                let counts = by_each_copy(pos, depth);
                assert!(
                    counts.iter().all(|&c| c == counts[0]),
                    "{pos:?}: {counts:?}"
                );
            }
        }
        for_every_size!(check);
    }

    #[test]
    fn small_boards_start_alike() {
        // Three plies reach at most three rows and columns out from the
        // centre: 8x8 and the bigger boards count the same.
        for depth in 1..=3 {
            let eight = perft(Position::<S8>::start(), depth);
            assert_eq!(perft(Position::<S10>::start(), depth), eight);
            // Miri (tests/miri.sh) stops at 10x10 (see `for_every_size`).
            #[cfg(not(miri))]
            assert_eq!(perft(Position::<S16>::start(), depth), eight);
        }
    }
}
