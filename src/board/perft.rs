//! Perft: the number of move sequences of a given length from a position,
//! the standard check of move generation. Passes count as a ply; a finished
//! game is a leaf.

use super::bits::Bits;
use super::geometry::Geometry;
use super::position::Position;

/// Leaves of the game tree `depth` plies below `pos`.
pub fn perft<G: Geometry>(pos: Position<G>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if moves.is_zero() {
        return if pos.opponent_moves().is_zero() {
            1
        } else {
            perft(pos.pass(), depth - 1)
        };
    }
    if depth == 1 {
        return moves.count() as u64;
    }
    let (p, o) = (pos.player, pos.opponent);
    moves
        .squares()
        .map(|sq| perft(pos.play_with(sq, G::flips(p, o, sq)), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::*;

    #[test]
    fn start_counts_to_depth_8() {
        let expected = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(Position::<S8>::start(), d as u32 + 1), n);
        }
    }

    #[test]
    fn small_boards_start_alike() {
        // Three plies reach at most three rows and columns out from the
        // centre: 8x8 and the bigger boards count the same.
        for depth in 1..=3 {
            let eight = perft(Position::<S8>::start(), depth);
            assert_eq!(perft(Position::<S10>::start(), depth), eight);
            assert_eq!(perft(Position::<S16>::start(), depth), eight);
        }
    }
}
