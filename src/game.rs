//! A game: a position, the colour to move, and a history that undo/redo walk.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::Error;
use crate::position::Position;
use crate::square::Square;

/// One turn: a disc placed on a square, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(Square),
    Pass,
}

/// A turn taken, with what undo needs to restore the position before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Turn {
    mv: Move,
    before: Position,
}

/// Position + side to move + history. Every failing method leaves it unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    initial: Position,
    initial_side: Color,
    position: Position,
    side: Color,
    history: Vec<Turn>,
    /// Moves undone, most recently undone last; cleared by any new move.
    redo: Vec<Move>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// The standard start, black to move.
    pub fn new() -> Game {
        Game::from_position(Position::start(), Color::Black)
    }

    /// A game starting from `position` with `side` to move, with no history.
    pub fn from_position(position: Position, side: Color) -> Game {
        Game {
            initial: position,
            initial_side: side,
            position,
            side,
            history: Vec::new(),
            redo: Vec::new(),
        }
    }

    pub fn position(&self) -> Position {
        self.position
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The position this game started from, and who moved first there.
    pub fn initial(&self) -> (Position, Color) {
        (self.initial, self.initial_side)
    }

    /// Discs of `color`.
    pub fn discs(&self, color: Color) -> Bitboard {
        if color == self.side {
            self.position.player
        } else {
            self.position.opponent
        }
    }

    /// The colour on `sq`, if any.
    pub fn at(&self, sq: Square) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|&c| self.discs(c).contains(sq))
    }

    pub fn legal_moves(&self) -> Bitboard {
        self.position.legal_moves()
    }

    pub fn must_pass(&self) -> bool {
        self.position.must_pass()
    }

    pub fn is_game_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// Turns played since the initial position, passes included.
    pub fn plies(&self) -> usize {
        self.history.len()
    }

    /// The turns played so far, oldest first.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|t| t.mv)
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Discs a move on `sq` would flip, without playing it.
    pub fn preview(&self, sq: Square) -> Result<Bitboard, Error> {
        if self.is_game_over() {
            return Err(Error::GameOver);
        }
        let flips = self.position.flips(sq);
        if flips.is_empty() {
            let why = if (self.position.player | self.position.opponent).contains(sq) {
                "is occupied"
            } else {
                "flips no disc"
            };
            return Err(Error::IllegalMove(format!("illegal move: {sq} {why}")));
        }
        Ok(flips)
    }

    /// Plays `sq` for the side to move and returns the flipped discs.
    pub fn play(&mut self, sq: Square) -> Result<Bitboard, Error> {
        let flips = self.preview(sq)?;
        self.push(Move::Play(sq), self.position.play_with(sq, flips));
        self.redo.clear();
        Ok(flips)
    }

    /// Hands the turn over; only allowed when the side to move has no move.
    pub fn pass(&mut self) -> Result<(), Error> {
        if self.is_game_over() {
            return Err(Error::GameOver);
        }
        if !self.must_pass() {
            return Err(Error::CannotPass);
        }
        self.push(Move::Pass, self.position.pass());
        self.redo.clear();
        Ok(())
    }

    /// Plays a move or a pass.
    pub fn play_move(&mut self, mv: Move) -> Result<Bitboard, Error> {
        match mv {
            Move::Play(sq) => self.play(sq),
            Move::Pass => self.pass().map(|()| Bitboard::EMPTY),
        }
    }

    fn push(&mut self, mv: Move, next: Position) {
        self.history.push(Turn {
            mv,
            before: self.position,
        });
        self.position = next;
        self.side = self.side.opponent();
    }

    /// Takes back the last turn (a move or a pass).
    pub fn undo(&mut self) -> Result<Move, Error> {
        let turn = self.history.pop().ok_or(Error::NothingToUndo)?;
        self.position = turn.before;
        self.side = self.side.opponent();
        self.redo.push(turn.mv);
        Ok(turn.mv)
    }

    /// Plays again the last turn undone.
    pub fn redo(&mut self) -> Result<Move, Error> {
        let mv = *self.redo.last().ok_or(Error::NothingToRedo)?;
        let next = match mv {
            Move::Play(sq) => self.position.play(sq),
            Move::Pass => Some(self.position.pass()),
        };
        // The redo list only ever holds turns undone from this very history.
        let next = next.ok_or_else(|| Error::IllegalMove("redo list out of step".into()))?;
        self.redo.pop();
        self.push(mv, next);
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn play_undo_redo() {
        let mut g = Game::new();
        let start = g.clone();
        let f = g.play(sq("f5")).unwrap();
        assert_eq!(f, Bitboard::from_square(sq("e5")));
        assert_eq!(g.side_to_move(), Color::White);
        assert_eq!(g.at(sq("e5")), Some(Color::Black));
        let after = g.clone();
        assert_eq!(g.undo().unwrap(), Move::Play(sq("f5")));
        assert_eq!(g.position(), start.position());
        assert_eq!(g.redo().unwrap(), Move::Play(sq("f5")));
        assert_eq!(g, after);
        assert_eq!(g.redo(), Err(Error::NothingToRedo));
        g.undo().unwrap();
        g.play(sq("d3")).unwrap();
        assert!(!g.can_redo());
    }

    #[test]
    fn failures_leave_game_unchanged() {
        let mut g = Game::new();
        let before = g.clone();
        assert!(matches!(g.play(sq("a1")), Err(Error::IllegalMove(_))));
        assert!(matches!(g.play(sq("d4")), Err(Error::IllegalMove(_))));
        assert_eq!(g.pass(), Err(Error::CannotPass));
        assert_eq!(g.undo(), Err(Error::NothingToUndo));
        assert_eq!(g, before);
    }
}
