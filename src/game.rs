//! A game on any board size: a position, the colour to move, and the full
//! history of turns (moves and passes) that undo and redo walk.

use crate::board::square::square_name;
use crate::board::{Bits, Geometry, Position};
use crate::color::Color;
use crate::error::Error;

/// One turn: a disc placed on a square (`row * N + col`), or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(u32),
    Pass,
}

/// A turn taken, with the position before it for undo.
struct Turn<G: Geometry> {
    mv: Move,
    before: Position<G>,
}

impl<G: Geometry> Clone for Turn<G> {
    fn clone(&self) -> Self {
        Turn {
            mv: self.mv,
            before: self.before,
        }
    }
}

/// Position + side to move + history. Every failing method leaves it unchanged.
pub struct Game<G: Geometry> {
    initial: Position<G>,
    initial_side: Color,
    position: Position<G>,
    side: Color,
    history: Vec<Turn<G>>,
    /// Moves undone, most recently undone last; cleared by any new move.
    redo: Vec<Move>,
}

impl<G: Geometry> Clone for Game<G> {
    fn clone(&self) -> Self {
        Game {
            initial: self.initial,
            initial_side: self.initial_side,
            position: self.position,
            side: self.side,
            history: self.history.clone(),
            redo: self.redo.clone(),
        }
    }
}

impl<G: Geometry> std::fmt::Debug for Game<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("position", &self.position)
            .field("side", &self.side)
            .field("plies", &self.history.len())
            .finish()
    }
}

impl<G: Geometry> Default for Game<G> {
    fn default() -> Self {
        Game::new()
    }
}

impl<G: Geometry> Game<G> {
    /// The standard start, black to move.
    pub fn new() -> Game<G> {
        Game::from_position(Position::start(), Color::Black)
    }

    /// A game starting from `position` with `side` to move, with no history.
    pub fn from_position(position: Position<G>, side: Color) -> Game<G> {
        Game {
            initial: position,
            initial_side: side,
            position,
            side,
            history: Vec::new(),
            redo: Vec::new(),
        }
    }

    pub fn position(&self) -> Position<G> {
        self.position
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The position this game started from, and who moved first there.
    pub fn initial(&self) -> (Position<G>, Color) {
        (self.initial, self.initial_side)
    }

    /// Discs of `color`.
    pub fn discs(&self, color: Color) -> G::B {
        if color == self.side {
            self.position.player
        } else {
            self.position.opponent
        }
    }

    /// The colour on `sq`, if any.
    pub fn at(&self, sq: u32) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|&c| self.discs(c).has(sq))
    }

    pub fn legal_moves(&self) -> G::B {
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
    pub fn preview(&self, sq: u32) -> Result<G::B, Error> {
        if sq >= G::SQUARES {
            return Err(Error::InvalidSquare(format!(
                "square {sq} is outside the {n}x{n} board (0..{})",
                G::SQUARES - 1,
                n = G::N
            )));
        }
        if self.is_game_over() {
            return Err(Error::GameOver);
        }
        let flips = self.position.flips(sq);
        if flips.is_zero() {
            let why = if (self.position.player | self.position.opponent).has(sq) {
                "is occupied"
            } else {
                "flips no disc"
            };
            let name = square_name(G::N, sq);
            return Err(Error::IllegalMove(format!("illegal move: {name} {why}")));
        }
        Ok(flips)
    }

    /// Plays `sq` for the side to move and returns the flipped discs.
    pub fn play(&mut self, sq: u32) -> Result<G::B, Error> {
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

    fn push(&mut self, mv: Move, next: Position<G>) {
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
    use crate::board::{S6, S8};

    #[test]
    fn play_undo_redo_on_6x6() {
        let mut g = Game::<S6>::new();
        let start = g.position();
        // c2 (row 1, col 2) flips c3 (row 2, col 2).
        let f = g.play(8).unwrap();
        assert_eq!(f, 1 << 14);
        assert_eq!(g.side_to_move(), Color::White);
        assert_eq!(g.at(14), Some(Color::Black));
        assert_eq!(g.undo().unwrap(), Move::Play(8));
        assert_eq!(g.position(), start);
        assert_eq!(g.redo().unwrap(), Move::Play(8));
        assert_eq!(g.redo(), Err(Error::NothingToRedo));
        assert!(matches!(g.play(0), Err(Error::IllegalMove(_))));
        assert!(matches!(g.play(36), Err(Error::InvalidSquare(_))));
        assert_eq!(g.pass(), Err(Error::CannotPass));
    }

    fn sq(name: &str) -> u32 {
        crate::board::square::parse_square(8, name).unwrap()
    }

    /// Everything a game holds: position, side, start, history and the
    /// redo list.
    type State<G> = (
        Position<G>,
        Color,
        (Position<G>, Color),
        Vec<Move>,
        Vec<Move>,
    );

    /// The state of `g`, for comparing games (`Game` has no `PartialEq`);
    /// the redo list is read by redoing on a copy.
    fn state<G: Geometry>(g: &Game<G>) -> State<G> {
        let mut copy = g.clone();
        let mut redo = Vec::new();
        while let Ok(mv) = copy.redo() {
            redo.push(mv);
        }
        (
            g.position(),
            g.side_to_move(),
            g.initial(),
            g.moves().collect(),
            redo,
        )
    }

    #[test]
    fn play_undo_redo() {
        let mut g = Game::<S8>::new();
        let start = g.clone();
        let f = g.play(sq("f5")).unwrap();
        assert_eq!(f, <u64 as Bits>::bit(sq("e5")));
        assert_eq!(g.side_to_move(), Color::White);
        assert_eq!(g.at(sq("e5")), Some(Color::Black));
        let after = g.clone();
        assert_eq!(g.undo().unwrap(), Move::Play(sq("f5")));
        assert_eq!(g.position(), start.position());
        assert_eq!(g.redo().unwrap(), Move::Play(sq("f5")));
        assert_eq!(state(&g), state(&after));
        assert_eq!(g.redo(), Err(Error::NothingToRedo));
        g.undo().unwrap();
        g.play(sq("d3")).unwrap();
        assert!(!g.can_redo());
    }

    #[test]
    fn failures_leave_game_unchanged() {
        let mut g = Game::<S8>::new();
        let before = state(&g);
        assert!(matches!(g.play(sq("a1")), Err(Error::IllegalMove(_))));
        assert!(matches!(g.play(sq("d4")), Err(Error::IllegalMove(_))));
        assert!(matches!(g.play(64), Err(Error::InvalidSquare(_))));
        assert_eq!(g.pass(), Err(Error::CannotPass));
        assert_eq!(g.undo(), Err(Error::NothingToUndo));
        assert_eq!(state(&g), before);
    }
}
