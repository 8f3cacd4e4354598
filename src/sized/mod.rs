//! Every board size from 4x4 to 16x16 (even sides).
//!
//! The 8x8 game keeps its own dedicated code ([`crate::position`],
//! [`crate::search`], [`crate::endgame`], [`crate::eval`]), untouched. This
//! module holds the same rules, search, solver and evaluation written once
//! over a [`geometry::Geometry`] (side length, bit type and masks) and
//! monomorphised per size class: `u64` bitboards for 4x4 and 6x6, `u128` for
//! 10x10 and a four-word [`bits::U256`] for 12x12 to 16x16, each with
//! shift-and-mask move generation. ([`geometry::S8`] runs the generic code
//! on 8x8 too, so that tests can check it against the dedicated code.)
//!
//! [`AnyGame`] is the size-erased game the C API holds for boards other than
//! 8x8: squares are `row * size + col`, named `a1`..`p16`.

pub mod bits;
pub mod classic;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod hash;
pub mod notation;
pub mod perft;
pub mod position;
pub mod search;

use crate::color::Color;
use crate::engine::Limits;
use crate::error::Error;
use bits::Bits;
use engine::{SizedEngine, SizedMoveScore, SizedProgress, SizedResult};
use game::{SizedGame, SizedMove};
use geometry::{Geometry, S10, S12, S14, S16, S4, S6, S8};
use std::sync::atomic::AtomicBool;

pub use notation::{valid_size, MAX_SIZE, MIN_SIZE};

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
    fn board_string(&self) -> String;
    fn transcript(&self) -> String;
    /// The engine's search from the current position.
    fn search(
        &self,
        engine: &mut SizedEngine,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SizedProgress),
    ) -> Result<SizedResult, Error>;
    /// Every legal move scored, best first.
    fn analyze(
        &self,
        engine: &mut SizedEngine,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Vec<SizedMoveScore>, Error>;
}

fn list<B: Bits>(b: B) -> Vec<u32> {
    b.squares().collect()
}

impl<G: Geometry> AnyGame for SizedGame<G> {
    fn size(&self) -> u32 {
        G::N
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn side_to_move(&self) -> Color {
        SizedGame::side_to_move(self)
    }
    fn at(&self, sq: u32) -> Option<Color> {
        SizedGame::at(self, sq)
    }
    fn count(&self, color: Option<Color>) -> u32 {
        match color {
            Some(c) => self.discs(c).count(),
            None => self.position().empties().count(),
        }
    }
    fn legal_moves(&self) -> Vec<u32> {
        list(SizedGame::legal_moves(self))
    }
    fn mobility(&self, color: Color) -> u32 {
        let pos = self.position();
        if color == SizedGame::side_to_move(self) {
            pos.legal_moves().count()
        } else {
            pos.opponent_moves().count()
        }
    }
    fn preview(&self, sq: u32) -> Result<Vec<u32>, Error> {
        SizedGame::preview(self, sq).map(list)
    }
    fn play(&mut self, sq: u32) -> Result<Vec<u32>, Error> {
        SizedGame::play(self, sq).map(list)
    }
    fn pass(&mut self) -> Result<(), Error> {
        SizedGame::pass(self)
    }
    fn undo(&mut self) -> Result<(), Error> {
        SizedGame::undo(self).map(drop)
    }
    fn redo(&mut self) -> Result<(), Error> {
        SizedGame::redo(self).map(drop)
    }
    fn plies(&self) -> usize {
        SizedGame::plies(self)
    }
    fn can_redo(&self) -> bool {
        SizedGame::can_redo(self)
    }
    fn must_pass(&self) -> bool {
        SizedGame::must_pass(self)
    }
    fn is_game_over(&self) -> bool {
        SizedGame::is_game_over(self)
    }
    fn history(&self) -> Vec<Option<u32>> {
        self.moves()
            .map(|m| match m {
                SizedMove::Play(sq) => Some(sq),
                SizedMove::Pass => None,
            })
            .collect()
    }
    fn board_string(&self) -> String {
        notation::board_string(self)
    }
    fn transcript(&self) -> String {
        notation::transcript(self)
    }
    fn search(
        &self,
        engine: &mut SizedEngine,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SizedProgress),
    ) -> Result<SizedResult, Error> {
        engine.search(self.position(), limits, stop, progress)
    }
    fn analyze(
        &self,
        engine: &mut SizedEngine,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Vec<SizedMoveScore>, Error> {
        engine.analyze(self.position(), limits, stop)
    }
}

/// Calls `$body` with `$g` bound to the geometry type of side `$n`
/// (8 included: the generic 8x8), or evaluates `$other` for other sides.
macro_rules! with_geometry {
    ($n:expr, $g:ident => $body:expr, _ => $other:expr) => {
        match $n {
            4 => {
                type $g = S4;
                $body
            }
            6 => {
                type $g = S6;
                $body
            }
            8 => {
                type $g = S8;
                $body
            }
            10 => {
                type $g = S10;
                $body
            }
            12 => {
                type $g = S12;
                $body
            }
            14 => {
                type $g = S14;
                $body
            }
            16 => {
                type $g = S16;
                $body
            }
            _ => $other,
        }
    };
}

fn size_error(size: i64) -> Error {
    Error::InvalidArgument(format!(
        "board size {size} is not supported: the sizes are the even numbers \
         {MIN_SIZE}..{MAX_SIZE}"
    ))
}

/// A new game at the standard start of the `size`x`size` board. Size 8 gives
/// the generic 8x8 game (the C API uses the dedicated [`crate::Game`]).
pub fn new_game(size: i64) -> Result<Box<dyn AnyGame>, Error> {
    with_geometry!(size, G => Ok(Box::new(SizedGame::<G>::new())), _ => Err(size_error(size)))
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
    with_geometry!(size, G => Some(perft::perft(position::Pos::<G>::start(), depth)), _ => None)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
