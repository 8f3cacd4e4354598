//! Any board size behind one type: [`AnyGame`] is a [`Game`] of any geometry
//! as a trait object, what the C API's board handle holds. Squares are
//! `row * size + col`, named `a1`..`p16`.

use crate::board::{perft, Bits, Geometry, Position};
use crate::color::Color;
use crate::error::Error;
use crate::game::{Game, Move};
use crate::notation::{self, MAX_SIZE, MIN_SIZE};
use crate::rng::Rng;
use crate::search::engine::{Engine, Limits, MoveScore, Progress, SearchResult};
use crate::with_geometry;
use std::sync::atomic::AtomicBool;

/// A game of any size behind one interface (squares as `row * size + col`).
/// Methods taking a square expect it on the board (`< size * size`) unless
/// they return a `Result`, which reports squares off the board as
/// [`Error::InvalidSquare`].
pub trait AnyGame: Send + Sync + std::fmt::Debug {
    /// Squares per side.
    fn size(&self) -> u32;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    fn side_to_move(&self) -> Color;
    /// The disc on a square of the board.
    fn at(&self, sq: u32) -> Option<Color>;
    /// Discs of a colour, or empty squares for `None`.
    fn count(&self, color: Option<Color>) -> u32;
    /// The legal moves of the side to move, ascending.
    fn legal_moves(&self) -> Vec<u32>;
    /// True if the side to move may play on `sq`.
    fn is_legal(&self, sq: u32) -> bool;
    /// The number of moves `color` would have if it were to move now.
    fn mobility(&self, color: Color) -> u32;
    /// The squares a move would flip, ascending.
    fn preview(&self, sq: u32) -> Result<Vec<u32>, Error>;
    /// Plays a move; returns the flipped squares, ascending.
    fn play(&mut self, sq: u32) -> Result<Vec<u32>, Error>;
    fn pass(&mut self) -> Result<(), Error>;
    fn undo(&mut self) -> Result<(), Error>;
    fn redo(&mut self) -> Result<(), Error>;
    fn plies(&self) -> usize;
    fn can_redo(&self) -> bool;
    fn must_pass(&self) -> bool;
    fn is_game_over(&self) -> bool;
    /// The turns played, oldest first: `Some(square)` or `None` for a pass.
    fn history(&self) -> Vec<Option<u32>>;
    /// The discs of `color` (`None`: the legal moves of the side to move) as
    /// a bit set in four words, square `i` at bit `i % 64` of word `i / 64`.
    fn words(&self, color: Option<Color>) -> [u64; 4];
    /// Plays on from here to the end with uniformly random moves drawn from
    /// `rng`, passing when forced, without changing this game; appends the
    /// squares played to `moves` (passes are implied: a side without a move
    /// passes) and returns the final score, black's discs minus white's with
    /// the empty squares counted for the winner.
    fn random_playout(&self, rng: &mut Rng, moves: &mut Vec<u32>) -> i32;
    fn board_string(&self) -> String;
    fn transcript(&self) -> String;
    /// The engine's search from the current position.
    fn search(
        &self,
        engine: &mut Engine,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, Error>;
    /// `engine` thinks on the opponent's time from here (see
    /// [`Engine::ponder`]): the reply it expects.
    fn ponder(&self, engine: &mut Engine, limits: &Limits) -> Result<Option<u32>, Error>;
    /// The moves `engine`'s opening book knows here, best first.
    fn book_moves(&self, engine: &Engine) -> Vec<crate::book::BookMove>;
    /// Every legal move scored, best first.
    fn analyze(
        &self,
        engine: &mut Engine,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Vec<MoveScore>, Error>;
}

fn list<B: Bits>(b: B) -> Vec<u32> {
    b.squares().collect()
}

impl<G: Geometry> AnyGame for Game<G> {
    fn size(&self) -> u32 {
        G::N
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn side_to_move(&self) -> Color {
        Game::side_to_move(self)
    }
    fn at(&self, sq: u32) -> Option<Color> {
        Game::at(self, sq)
    }
    fn count(&self, color: Option<Color>) -> u32 {
        match color {
            Some(c) => self.discs(c).count(),
            None => self.position().empties().count(),
        }
    }
    fn legal_moves(&self) -> Vec<u32> {
        list(Game::legal_moves(self))
    }
    fn is_legal(&self, sq: u32) -> bool {
        self.position().is_legal(sq)
    }
    fn mobility(&self, color: Color) -> u32 {
        let pos = self.position();
        if color == Game::side_to_move(self) {
            pos.legal_moves().count()
        } else {
            pos.opponent_moves().count()
        }
    }
    fn preview(&self, sq: u32) -> Result<Vec<u32>, Error> {
        Game::preview(self, sq).map(list)
    }
    fn play(&mut self, sq: u32) -> Result<Vec<u32>, Error> {
        Game::play(self, sq).map(list)
    }
    fn pass(&mut self) -> Result<(), Error> {
        Game::pass(self)
    }
    fn undo(&mut self) -> Result<(), Error> {
        Game::undo(self).map(drop)
    }
    fn redo(&mut self) -> Result<(), Error> {
        Game::redo(self).map(drop)
    }
    fn plies(&self) -> usize {
        Game::plies(self)
    }
    fn can_redo(&self) -> bool {
        Game::can_redo(self)
    }
    fn must_pass(&self) -> bool {
        Game::must_pass(self)
    }
    fn is_game_over(&self) -> bool {
        Game::is_game_over(self)
    }
    fn history(&self) -> Vec<Option<u32>> {
        self.moves()
            .map(|m| match m {
                Move::Play(sq) => Some(sq),
                Move::Pass => None,
            })
            .collect()
    }
    fn words(&self, color: Option<Color>) -> [u64; 4] {
        match color {
            Some(c) => self.discs(c).words(),
            None => Game::legal_moves(self).words(),
        }
    }
    fn random_playout(&self, rng: &mut Rng, moves: &mut Vec<u32>) -> i32 {
        let mut pos = self.position();
        let mut side = Game::side_to_move(self);
        loop {
            let legal = pos.legal_moves();
            if legal.is_zero() {
                if pos.opponent_moves().is_zero() {
                    break;
                }
                pos = pos.pass();
            } else {
                let sq = legal
                    .squares()
                    .nth(rng.below(legal.count() as usize))
                    .expect("a square of a non-empty set");
                pos = pos.play_with(sq, pos.flips(sq));
                moves.push(sq);
            }
            side = side.opponent();
        }
        match side {
            Color::Black => pos.final_score(),
            Color::White => -pos.final_score(),
        }
    }
    fn board_string(&self) -> String {
        notation::board_string(self)
    }
    fn transcript(&self) -> String {
        notation::transcript(self)
    }
    fn search(
        &self,
        engine: &mut Engine,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, Error> {
        engine.search(self.position(), limits, stop, progress)
    }
    fn ponder(&self, engine: &mut Engine, limits: &Limits) -> Result<Option<u32>, Error> {
        engine.ponder(self.position(), limits)
    }
    fn book_moves(&self, engine: &Engine) -> Vec<crate::book::BookMove> {
        engine.book_moves(self.position())
    }
    fn analyze(
        &self,
        engine: &mut Engine,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Vec<MoveScore>, Error> {
        engine.analyze(self.position(), limits, stop)
    }
}

fn size_error(size: i64) -> Error {
    Error::InvalidArgument(format!(
        "board size {size} is not supported: the sizes are the even numbers \
         {MIN_SIZE}..{MAX_SIZE}"
    ))
}

/// A new game at the standard start of the `size`x`size` board.
pub fn new_game(size: i64) -> Result<Box<dyn AnyGame>, Error> {
    with_geometry!(size, G => Ok(Box::new(Game::<G>::new())), _ => Err(size_error(size)))
}

/// A game from a board string of any size (see [`notation`]).
pub fn parse_board(text: &str) -> Result<Box<dyn AnyGame>, Error> {
    let size = notation::board_string_size(text).ok_or_else(|| {
        Error::Parse(
            "board string: expected 16, 36, 64, 100, 144, 196 or 256 squares \
             (4x4 .. 16x16), a space and X or O"
                .into(),
        )
    })?;
    with_geometry!(size, G => Ok(Box::new(notation::parse_board::<G>(text)?)), _ => Err(size_error(size as i64)))
}

/// A game with the moves of a transcript played from the start of the
/// `size`x`size` board.
pub fn parse_transcript(size: i64, text: &str) -> Result<Box<dyn AnyGame>, Error> {
    with_geometry!(size, G => Ok(Box::new(notation::parse_transcript::<G>(text)?)), _ => Err(size_error(size)))
}

/// Perft from the start of the `size`x`size` board (`None` for a size
/// outside the supported ones).
pub fn perft_start(size: i64, depth: u32) -> Option<u64> {
    with_geometry!(size, G => Some(perft::perft(Position::<G>::start(), depth)), _ => None)
}

/// [`perft_start`] by the copy of the recursion compiled for the build's
/// target, even on a CPU that runs a faster one (see [`perft::perft_portable`]).
pub fn perft_start_portable(size: i64, depth: u32) -> Option<u64> {
    with_geometry!(size, G => Some(perft::perft_portable(Position::<G>::start(), depth)), _ => None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::valid_size;

    #[test]
    fn sizes_are_checked() {
        for n in -2..20 {
            assert_eq!(new_game(n).is_ok(), valid_size(n), "{n}");
        }
        let g = new_game(10).unwrap();
        assert_eq!(g.size(), 10);
        assert_eq!(g.board_string().len(), 102);
        assert!(parse_board(&g.board_string()).is_ok());
        assert!(matches!(parse_board("X"), Err(Error::Parse(_))));
        assert_eq!(perft_start(6, 2), Some(12));
        assert_eq!(perft_start(7, 2), None);
        assert_eq!(perft_start_portable(6, 2), Some(12));
    }

    /// Black minus white, the empty squares to the winner.
    fn final_score(g: &dyn AnyGame) -> i32 {
        let diff = g.count(Some(Color::Black)) as i32 - g.count(Some(Color::White)) as i32;
        diff + diff.signum() * g.count(None) as i32
    }

    #[test]
    fn random_playouts_are_games() {
        let mut rng = Rng::new(5);
        for size in [4, 6, 8, 10, 16] {
            let mut start = new_game(size).unwrap();
            for _ in 0..3 {
                let sq = start.legal_moves()[0];
                start.play(sq).unwrap();
            }
            let before = start.board_string();
            let mut firsts = std::collections::BTreeSet::new();
            for _ in 0..40 {
                let mut moves = Vec::new();
                let score = start.random_playout(&mut rng, &mut moves);
                assert_eq!(start.board_string(), before, "the game is not changed");
                firsts.insert(moves[0]);
                // Replayed with the rules, passing where forced: legal to
                // the end, and the score is the end's.
                let mut g = start.clone_box();
                for &sq in &moves {
                    if g.must_pass() {
                        g.pass().unwrap();
                    }
                    g.play(sq).unwrap();
                }
                assert!(g.is_game_over(), "{size}: {}", g.board_string());
                assert_eq!(score, final_score(&*g), "{size}");
            }
            assert_eq!(
                firsts.len(),
                start.legal_moves().len(),
                "{size}: every first move"
            );
        }
    }

    #[test]
    fn words_hold_the_discs_and_moves() {
        for size in [4, 8, 10, 16] {
            let mut g = new_game(size).unwrap();
            let mut rng = Rng::new(size as u64);
            while !g.is_game_over() && g.plies() < 20 {
                if g.must_pass() {
                    g.pass().unwrap();
                    continue;
                }
                let legal = g.legal_moves();
                let bits = g.words(None);
                for sq in 0..size as u32 * size as u32 {
                    let bit = bits[sq as usize / 64] >> (sq % 64) & 1 == 1;
                    assert_eq!(bit, legal.contains(&sq), "{size}: {sq}");
                    for c in [Color::Black, Color::White] {
                        let bit = g.words(Some(c))[sq as usize / 64] >> (sq % 64) & 1 == 1;
                        assert_eq!(bit, g.at(sq) == Some(c), "{size}: {sq}");
                    }
                }
                g.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
    }
}
