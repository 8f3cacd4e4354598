//! Openings for matches besides XOT's: random games of a few plies whose
//! position a search of ours finds balanced. XOT's openings are where the
//! engine was tuned; measured on others too, a strength figure says what
//! a user who starts anywhere gets.

use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::eval::SCALE;
use othello::game::Game;
use othello::rng::Rng;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// How the openings are drawn.
#[derive(Clone, Copy, Debug)]
pub struct RandomOpenings {
    /// Plies of each opening, every one a move (no passes).
    pub plies: u32,
    /// The most, in discs, the side to move may be ahead or behind by a
    /// search of `depth` plies (no selective cuts, no solving).
    pub within: u32,
    pub depth: u32,
    pub seed: u64,
}

/// Draws so many games before giving up, per opening wanted.
const TRIES_PER_OPENING: usize = 1000;

impl RandomOpenings {
    /// `count` openings, each a different position: the same settings give
    /// the same openings in the same order.
    pub fn draw(&self, count: usize) -> Result<Vec<Game<S8>>, String> {
        if !(1..=40).contains(&self.plies) || !(1..=20).contains(&self.depth) {
            return Err(format!(
                "random openings: {} plies (1..40) at depth {} (1..20)",
                self.plies, self.depth
            ));
        }
        let limits = Limits::explicit(i64::from(self.depth), 0, 0).map_err(|e| e.to_string())?;
        let mut engine = Engine::new(16);
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(self.seed);
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for _ in 0..count.saturating_mul(TRIES_PER_OPENING) {
            if out.len() == count {
                return Ok(out);
            }
            let Some(game) = self.random_game(&mut rng) else {
                continue;
            };
            let pos = game.position();
            if !seen.insert((pos.player, pos.opponent)) {
                continue;
            }
            let value = engine
                .search(pos, &limits, &stop, &mut |_| {})
                .map_err(|e| e.to_string())?
                .score;
            if value.abs() <= (self.within as i32) * SCALE {
                out.push(game);
            }
        }
        if out.len() == count {
            return Ok(out);
        }
        Err(format!(
            "only {} of {count} random {}-ply openings within {} discs at depth {}",
            out.len(),
            self.plies,
            self.within,
            self.depth
        ))
    }

    /// A game of `plies` random moves from the start, None when one side
    /// had to pass or the game ends on the way.
    fn random_game(&self, rng: &mut Rng) -> Option<Game<S8>> {
        let mut game = Game::<S8>::new();
        for _ in 0..self.plies {
            let moves: Vec<u32> = game.legal_moves().squares().collect();
            if moves.is_empty() {
                return None;
            }
            game.play(moves[rng.below(moves.len())]).ok()?;
        }
        (!game.legal_moves().is_zero()).then_some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_random_balanced_distinct_and_reproducible() {
        let draw = RandomOpenings {
            plies: 8,
            within: 2,
            depth: 4,
            seed: 5,
        };
        let openings = draw.draw(12).unwrap();
        assert_eq!(openings.len(), 12);
        let mut engine = Engine::new(4);
        let stop = AtomicBool::new(false);
        let limits = Limits::explicit(4, 0, 0).unwrap();
        let mut positions = HashSet::new();
        for g in &openings {
            assert_eq!(g.moves().count(), 8);
            assert!(!g.legal_moves().is_zero());
            let pos = g.position();
            assert!(positions.insert((pos.player, pos.opponent)));
            engine.clear();
            let v = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
            assert!(v.score.abs() <= 2 * SCALE, "{}", v.score);
        }
        let again = draw.draw(12).unwrap();
        let moves =
            |gs: &[Game<S8>]| -> Vec<Vec<_>> { gs.iter().map(|g| g.moves().collect()).collect() };
        assert_eq!(moves(&openings), moves(&again));
        let other = RandomOpenings { seed: 6, ..draw }.draw(12).unwrap();
        assert_ne!(moves(&openings), moves(&other));
        assert!(RandomOpenings { plies: 0, ..draw }.draw(1).is_err());
        assert!(RandomOpenings { depth: 21, ..draw }.draw(1).is_err());
    }
}
