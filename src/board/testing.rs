//! Positions for the unit tests of every module: random games on any board
//! size, from a seed, so that failures repeat.

use super::{Bits, Geometry, Position};
use crate::rng::Rng;

/// A uniformly random legal move of `pos`, which has one.
fn random_move<G: Geometry>(pos: Position<G>, rng: &mut Rng) -> Position<G> {
    let moves: Vec<u32> = pos.legal_moves().squares().collect();
    pos.play(moves[rng.below(moves.len())])
        .expect("a legal move")
}

/// Every position of `games` random games, passes included.
pub fn random_positions<G: Geometry>(seed: u64, games: usize) -> Vec<Position<G>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::<G>::start();
        while !pos.is_game_over() {
            out.push(pos);
            pos = if pos.legal_moves().is_zero() {
                pos.pass()
            } else {
                random_move(pos, &mut rng)
            };
        }
        out.push(pos);
    }
    out
}

/// The first position of a random game with at most `empties` empty
/// squares, or `None` if the game ends before.
pub fn random_position<G: Geometry>(rng: &mut Rng, empties: u32) -> Option<Position<G>> {
    let mut pos = Position::<G>::start();
    while pos.empties().count() > empties {
        if pos.is_game_over() {
            return None;
        }
        pos = if pos.legal_moves().is_zero() {
            pos.pass()
        } else {
            random_move(pos, rng)
        };
    }
    Some(pos)
}

/// The position after `plies` random moves (passes not counted), or the
/// end of the game if it comes first.
pub fn random_walk<G: Geometry>(seed: u64, plies: usize) -> Position<G> {
    let mut rng = Rng::new(seed);
    let mut pos = Position::<G>::start();
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        if pos.legal_moves().is_zero() {
            pos = pos.pass();
        }
        pos = random_move(pos, &mut rng);
    }
    pos
}

/// Plain negamax to `depth` plies (a pass uses none) over `leaf`, with
/// finished games scored `final_score() * scale`: no pruning, no table, the
/// reference the searches are checked against.
pub fn negamax<G: Geometry>(
    pos: Position<G>,
    depth: u32,
    scale: i32,
    leaf: &impl Fn(Position<G>) -> i32,
) -> i32 {
    if depth == 0 {
        return leaf(pos);
    }
    if pos.is_game_over() {
        return pos.final_score() * scale;
    }
    if pos.legal_moves().is_zero() {
        return -negamax(pos.pass(), depth, scale, leaf);
    }
    pos.legal_moves()
        .squares()
        .map(|x| -negamax(pos.play_with(x, pos.flips(x)), depth - 1, scale, leaf))
        .max()
        .expect("moves is not empty")
}

/// The exact final disc difference of `pos` with perfect play.
pub fn exact<G: Geometry>(pos: Position<G>) -> i32 {
    negamax(pos, u32::MAX, 1, &|_| unreachable!("no depth limit"))
}

/// Runs `$check::<G>()` for every geometry. Under Miri (tests/miri.sh) up
/// to 10x10: the bigger boards' 256-bit words are safe code that Miri
/// takes minutes a test to run (their tables alone, half a minute).
macro_rules! for_every_size {
    ($check:ident) => {
        $check::<$crate::board::S4>();
        $check::<$crate::board::S6>();
        $check::<$crate::board::S8>();
        $check::<$crate::board::S10>();
        #[cfg(not(miri))]
        {
            $check::<$crate::board::S12>();
            $check::<$crate::board::S14>();
            $check::<$crate::board::S16>();
        }
    };
}
pub(crate) use for_every_size;
