//! Typed errors of the Rust core; the FFI layer maps each to a status code.

use std::fmt;

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Error {
    /// A square index or name outside the board.
    InvalidSquare(String),
    /// The square is occupied or flips nothing.
    IllegalMove(String),
    /// A pass was asked for while a legal move exists.
    CannotPass,
    /// Neither side can move.
    GameOver,
    NothingToUndo,
    NothingToRedo,
    /// Malformed text: square name, board string or transcript.
    Parse(String),
    /// An argument outside its documented range.
    InvalidArgument(String),
    /// A stop or a limit ended a call that has no partial result.
    Stopped,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidSquare(m) | Error::IllegalMove(m) | Error::Parse(m) => f.write_str(m),
            Error::InvalidArgument(m) => f.write_str(m),
            Error::CannotPass => f.write_str("cannot pass: the side to move has a legal move"),
            Error::GameOver => f.write_str("the game is over: neither side can move"),
            Error::NothingToUndo => f.write_str("nothing to undo: the game is at its start"),
            Error::NothingToRedo => f.write_str("nothing to redo"),
            Error::Stopped => {
                f.write_str("stopped (by othello_engine_stop or a limit) before finishing")
            }
        }
    }
}

impl std::error::Error for Error {}
