//! The `.obf` lines of the FFO endgame test sets and of the positions the
//! tools write: a board string (see [`notation`](crate::notation): the
//! squares from a1 as `X`, `O` or `-`, a space, the side to move), then
//! optional `; MOVE:SCORE` entries, best first, each score in discs for the
//! side to move. `%` starts a comment that runs to the end of the line;
//! blank and comment-only lines hold no position.
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;
//! -----------O------XOOO-O--XOXXO---XOXOO---OXOOO----OX------O---- X; % wthor.txt:1
//! ```

use std::fmt;

use crate::board::{Geometry, Position};
use crate::color::Color;
use crate::error::Error;
use crate::game::Game;
use crate::notation::{parse_board, parse_square};

/// One position of an `.obf` text with its scored moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line<G: Geometry> {
    pub position: Position<G>,
    pub side: Color,
    /// `(square, score in discs)` in the order of the line: best first.
    pub scores: Vec<(u32, i32)>,
}

impl<G: Geometry> Line<G> {
    /// The first entry: the best move and its score, if the line has one.
    pub fn best(&self) -> Option<(u32, i32)> {
        self.scores.first().copied()
    }

    /// A game that starts at this position.
    pub fn game(&self) -> Game<G> {
        Game::from_position(self.position, self.side)
    }
}

/// What is wrong with a line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ObfError {
    /// The board string: too short, a square that is not `X`, `O` or `-`,
    /// or no side to move.
    Board(Error),
    /// An entry after the board that is not `MOVE:SCORE`.
    Entry(String),
    /// A move that is not a square name of the board.
    Move(Error),
    /// A score that is not a whole number.
    Score(String),
}

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObfError::Board(e) | ObfError::Move(e) => write!(f, "{e}"),
            ObfError::Entry(entry) => write!(f, "{entry:?} is not MOVE:SCORE"),
            ObfError::Score(score) => write!(f, "{score:?} is not a score in discs"),
        }
    }
}

impl std::error::Error for ObfError {}

/// An error of a whole text: the 1-based line number and what is wrong
/// there. Displayed as `LINE: ERROR`, so that `{file}:{error}` names both.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TextError {
    pub line: usize,
    pub error: ObfError,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.error)
    }
}

impl std::error::Error for TextError {}

/// Parses one line; `Ok(None)` for a blank or comment-only line.
pub fn parse_line<G: Geometry>(line: &str) -> Result<Option<Line<G>>, ObfError> {
    let data = line.split('%').next().unwrap_or_default();
    if data.trim().is_empty() {
        return Ok(None);
    }
    let mut fields = data.split(';');
    let board = fields.next().unwrap_or_default();
    let game = parse_board::<G>(board).map_err(ObfError::Board)?;
    let scores = fields
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(parse_entry::<G>)
        .collect::<Result<_, _>>()?;
    Ok(Some(Line {
        position: game.position(),
        side: game.side_to_move(),
        scores,
    }))
}

/// A line's comment: the text after its first `%`, trimmed (what the tools
/// tag their lines with); None without one.
pub fn comment(line: &str) -> Option<&str> {
    line.split_once('%').map(|(_, comment)| comment.trim())
}

/// Parses a whole text: its positions in order.
pub fn parse<G: Geometry>(text: &str) -> Result<Vec<Line<G>>, TextError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(parsed)) => out.push(parsed),
            Ok(None) => {}
            Err(error) => return Err(TextError { line: i + 1, error }),
        }
    }
    Ok(out)
}

fn parse_entry<G: Geometry>(entry: &str) -> Result<(u32, i32), ObfError> {
    let (mv, score) = entry
        .split_once(':')
        .ok_or_else(|| ObfError::Entry(entry.into()))?;
    let sq = parse_square(G::N, mv.trim()).map_err(ObfError::Move)?;
    let score = score.trim();
    let score = score.parse().map_err(|_| ObfError::Score(score.into()))?;
    Ok((sq, score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Bits, S8};

    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; \
                         G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    fn sq(name: &str) -> u32 {
        parse_square(8, name).unwrap()
    }

    #[test]
    fn reads_a_scored_line() {
        let line = parse_line::<S8>(FFO_1).unwrap().unwrap();
        assert_eq!(line.side, Color::Black);
        assert_eq!(line.position.empties().count(), 14);
        assert_eq!(line.scores.len(), 8);
        assert_eq!(line.best(), Some((sq("g8"), 18)));
        assert_eq!(line.scores[5], (sq("b1"), -4));
        assert_eq!(line.game().position(), line.position);
    }

    #[test]
    fn comments_and_blank_lines_hold_no_position() {
        assert_eq!(parse_line::<S8>("% a comment"), Ok(None));
        assert_eq!(parse_line::<S8>("   "), Ok(None));
        assert_eq!(parse_line::<S8>(""), Ok(None));
        let board = &FFO_1[..66];
        let line = parse_line::<S8>(&format!("{board}; % wthor.txt:1 empties 40"))
            .unwrap()
            .unwrap();
        assert!(line.scores.is_empty() && line.best().is_none());
        let tagged = format!("{board}; b1:-4;% tag 1 ");
        let line = parse_line::<S8>(&tagged).unwrap().unwrap();
        assert_eq!(line.scores, [(sq("b1"), -4)]);
        assert_eq!(comment(&tagged), Some("tag 1"));
        assert_eq!(comment(FFO_1), None);
        let text = format!("% header\n\n{FFO_1}\n{board}\n");
        let lines = parse::<S8>(&text).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].position, lines[0].position);
    }

    #[test]
    fn a_missing_side_is_an_error() {
        let e = parse_line::<S8>(&FFO_1[..64]).unwrap_err();
        assert!(matches!(e, ObfError::Board(_)), "{e}");
        let e = parse_line::<S8>(&format!("{}; G8:+18", &FFO_1[..64])).unwrap_err();
        assert!(matches!(e, ObfError::Board(_)), "{e}");
    }

    #[test]
    fn a_bad_square_is_an_error() {
        let e = parse_line::<S8>(&FFO_1.replacen('X', "Q", 1)).unwrap_err();
        assert!(matches!(e, ObfError::Board(_)), "{e}");
        let e = parse_line::<S8>(&FFO_1.replacen("G8", "I8", 1)).unwrap_err();
        assert!(matches!(e, ObfError::Move(_)), "{e}");
        let e = parse_line::<S8>(&FFO_1.replacen("G8:", "G8 ", 1)).unwrap_err();
        assert_eq!(e, ObfError::Entry("G8 +18".into()));
    }

    #[test]
    fn a_bad_score_is_an_error() {
        for bad in ["+1x8", "", "eighteen", "++18"] {
            let e = parse_line::<S8>(&FFO_1.replacen("+18", bad, 1)).unwrap_err();
            assert_eq!(e, ObfError::Score(bad.into()));
        }
        let text = format!("{FFO_1}\n% fine\n{}", FFO_1.replacen("+18", "x", 1));
        let e = parse::<S8>(&text).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.to_string(), "3: \"x\" is not a score in discs");
    }
}
