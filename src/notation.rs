//! Text forms: board strings (`X`/`O`/`-` for a1..h8, a space, the side to move)
//! and transcripts (moves concatenated, `f5d6c3...`, passes implied).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::Error;
use crate::game::{Game, Move};
use crate::position::Position;
use crate::square::Square;

/// Length of a board string: 64 squares, a space, the side to move.
pub const BOARD_STRING_LEN: usize = 66;

/// The 64 squares a1..h8 (`X` black, `O` white, `-` empty), a space, and `X` or
/// `O` for the side to move.
pub fn board_string(game: &Game) -> String {
    let mut s = String::with_capacity(BOARD_STRING_LEN);
    for sq in Square::all() {
        s.push(match game.at(sq) {
            Some(c) => c.letter(),
            None => '-',
        });
    }
    s.push(' ');
    s.push(game.side_to_move().letter());
    s
}

fn disc_of(c: u8) -> Option<Option<Color>> {
    match c {
        b'X' | b'x' | b'*' | b'B' | b'b' => Some(Some(Color::Black)),
        b'O' | b'o' | b'W' | b'w' => Some(Some(Color::White)),
        b'-' | b'.' => Some(None),
        _ => None,
    }
}

/// Parses a board string. Squares accept `X`/`x`/`*`/`B` for black, `O`/`o`/`W`
/// for white, `-`/`.` for empty; the side to move follows after whitespace.
/// Surrounding whitespace is ignored.
pub fn parse_board(text: &str) -> Result<Game, Error> {
    let text = text.trim();
    let bytes = text.as_bytes();
    if bytes.len() < 65 {
        return Err(Error::Parse(format!(
            "board string too short: {} characters, expected 64 squares, a space and X or O",
            bytes.len()
        )));
    }
    let mut black = 0u64;
    let mut white = 0u64;
    for (i, &c) in bytes[..64].iter().enumerate() {
        match disc_of(c) {
            Some(Some(Color::Black)) => black |= 1 << i,
            Some(Some(Color::White)) => white |= 1 << i,
            Some(None) => {}
            None => {
                return Err(Error::Parse(format!(
                    "board string: character {} ({:?}) is not X, O or -",
                    i + 1,
                    c as char
                )))
            }
        }
    }
    let rest = &text[64..];
    let side_text = rest.trim_start();
    if side_text.len() == rest.len() {
        return Err(Error::Parse(
            "board string: expected whitespace after the 64 squares".into(),
        ));
    }
    let side = match side_text.as_bytes() {
        [c] => match disc_of(*c) {
            Some(Some(color)) => color,
            _ => {
                return Err(Error::Parse(format!(
                    "board string: side to move {side_text:?} is not X or O"
                )))
            }
        },
        _ => {
            return Err(Error::Parse(format!(
                "board string: side to move {side_text:?} is not X or O"
            )))
        }
    };
    let (player, opponent) = match side {
        Color::Black => (black, white),
        Color::White => (white, black),
    };
    Ok(Game::from_position(
        Position::new(Bitboard(player), Bitboard(opponent)),
        side,
    ))
}

/// The moves played, as `f5d6c3...`; passes are left out.
pub fn transcript(game: &Game) -> String {
    let mut s = String::with_capacity(game.plies() * 2);
    for mv in game.moves() {
        if let Move::Play(sq) = mv {
            s.push_str(&sq.to_string());
        }
    }
    s
}

/// Plays a transcript from the standard start. Passes are implied: when the
/// side to move has no move, it passes before the next move is read.
/// Whitespace between moves is allowed.
pub fn parse_transcript(text: &str) -> Result<Game, Error> {
    let mut game = Game::new();
    let compact: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !compact.len().is_multiple_of(2) {
        return Err(Error::Parse(format!(
            "transcript has an odd number of characters ({})",
            compact.len()
        )));
    }
    for (i, pair) in compact.chunks(2).enumerate() {
        let name = std::str::from_utf8(pair).unwrap_or("??");
        let sq: Square = name.parse().map_err(|_| {
            Error::Parse(format!(
                "transcript move {}: {name:?} is not a square",
                i + 1
            ))
        })?;
        if game.must_pass() {
            game.pass()?;
        }
        game.play(sq)
            .map_err(|e| Error::Parse(format!("transcript move {} ({sq}): {e}", i + 1)))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_string() {
        let s = board_string(&Game::new());
        assert_eq!(
            s,
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(parse_board(&s).unwrap().position(), Position::start());
    }

    #[test]
    fn transcript_round_trip() {
        let g = parse_transcript("f5d6c3d3c4").unwrap();
        assert_eq!(transcript(&g), "f5d6c3d3c4");
        assert_eq!(g.plies(), 5);
        assert_eq!(parse_transcript("F5 D6").unwrap().plies(), 2);
    }

    #[test]
    fn malformed_rejected() {
        for bad in ["f5d", "f5zz", "f5f5", "a1", "f5d6c3d3c4c4"] {
            assert!(
                matches!(parse_transcript(bad), Err(Error::Parse(_))),
                "{bad}"
            );
        }
        let good = board_string(&Game::new());
        for bad in [
            "",
            "X",
            &good[..65],
            &good.replace(' ', ""),
            &good.replace('X', "Q"),
            &format!("{} Y", &good[..64]),
            &format!("{} XO", &good[..64]),
        ] {
            assert!(matches!(parse_board(bad), Err(Error::Parse(_))), "{bad:?}");
        }
    }
}
