//! Text forms on any board size.
//!
//! - Square names: column letter `a`..`p` then row number `1`..`16`
//!   (`a1`, `c10`, `p16`), the letter in either case on input. They live in
//!   the board layer ([`crate::board::square`], which `game` uses too) and
//!   are re-exported here.
//! - Board strings: the `N * N` squares row by row from a1 (`X` black, `O`
//!   white, `-` empty), a space, and `X` or `O` for the side to move. The
//!   number of squares gives the size: 16, 36, 64, 100, 144, 196 or 256
//!   squares are a 4x4 .. 16x16 board, nothing else is valid.
//! - Transcripts: square names concatenated (`c2b2`, `j10a1`), passes implied;
//!   every move starts with its letter, so names of two- and three-characters
//!   mix without ambiguity.

use crate::board::{Bits, Geometry, Position};
use crate::color::Color;
use crate::error::Error;
use crate::game::{Game, Move};

pub use crate::board::square::{parse_square, square_name, valid_size, MAX_SIZE, MIN_SIZE};

/// The board string of a game: `N * N` squares, a space, the side to move.
pub fn board_string<G: Geometry>(game: &Game<G>) -> String {
    let mut s = String::with_capacity(G::SQUARES as usize + 2);
    for sq in 0..G::SQUARES {
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

/// The board side a board string is for: the square count of its first
/// word (everything before the first whitespace, surrounding whitespace
/// ignored), if that is one of 16, 36, .., 256.
pub fn board_string_size(text: &str) -> Option<u32> {
    let squares = text
        .trim()
        .split(|c: char| c.is_ascii_whitespace())
        .next()?
        .len();
    (MIN_SIZE..=MAX_SIZE)
        .step_by(2)
        .find(|&n| (n * n) as usize == squares)
}

/// Parses a board string of the `G` size: `N * N` squares accepting
/// `X`/`x`/`*`/`B` for black, `O`/`o`/`W` for white, `-`/`.` for empty, then
/// whitespace and the side to move. Surrounding whitespace is ignored.
pub fn parse_board<G: Geometry>(text: &str) -> Result<Game<G>, Error> {
    let text = text.trim();
    let bytes = text.as_bytes();
    let count = G::SQUARES as usize;
    let n = G::N;
    if bytes.len() < count + 1 {
        return Err(Error::Parse(format!(
            "board string too short: {} characters, expected {count} squares ({n}x{n}), \
             a space and X or O",
            bytes.len()
        )));
    }
    let mut black = G::B::ZERO;
    let mut white = G::B::ZERO;
    for (i, &c) in bytes[..count].iter().enumerate() {
        match disc_of(c) {
            Some(Some(Color::Black)) => black |= G::B::bit(i as u32),
            Some(Some(Color::White)) => white |= G::B::bit(i as u32),
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
    let rest = text.get(count..).ok_or_else(|| {
        Error::Parse(format!(
            "board string: expected whitespace after the {count} squares"
        ))
    })?;
    let side_text = rest.trim_start();
    if side_text.len() == rest.len() {
        return Err(Error::Parse(format!(
            "board string: expected whitespace after the {count} squares"
        )));
    }
    let side = match side_text.as_bytes() {
        [c] => match disc_of(*c) {
            Some(Some(color)) => Some(color),
            _ => None,
        },
        _ => None,
    }
    .ok_or_else(|| {
        Error::Parse(format!(
            "board string: side to move {side_text:?} is not X or O"
        ))
    })?;
    let (player, opponent) = match side {
        Color::Black => (black, white),
        Color::White => (white, black),
    };
    Ok(Game::from_position(Position::new(player, opponent), side))
}

/// The moves played, as `c2b2...`; passes are left out.
pub fn transcript<G: Geometry>(game: &Game<G>) -> String {
    let mut s = String::with_capacity(game.plies() * 3);
    for mv in game.moves() {
        if let Move::Play(sq) = mv {
            s.push_str(&square_name(G::N, sq));
        }
    }
    s
}

/// Splits a transcript into square names: each starts with a letter and
/// runs up to the next letter or whitespace; whitespace may separate moves.
fn split_moves(text: &str) -> Result<Vec<String>, Error> {
    let mut names: Vec<String> = Vec::new();
    // Whether the last name may still take digits: whitespace ends a name.
    let mut open = false;
    for c in text.chars() {
        if c.is_ascii_whitespace() {
            open = false;
        } else if c.is_ascii_alphabetic() {
            names.push(c.to_string());
            open = true;
        } else if let (true, Some(last)) = (c.is_ascii_digit() && open, names.last_mut()) {
            last.push(c);
        } else {
            return Err(Error::Parse(format!(
                "transcript: unexpected character {c:?} (moves are names like c4 or j10)"
            )));
        }
    }
    Ok(names)
}

/// Plays a transcript from the standard start of the `G` size. Passes are
/// implied: when the side to move has no move, it passes before the next
/// move is read. Whitespace between moves is allowed.
pub fn parse_transcript<G: Geometry>(text: &str) -> Result<Game<G>, Error> {
    let mut game = Game::<G>::new();
    for (i, name) in split_moves(text)?.iter().enumerate() {
        let sq = parse_square(G::N, name).map_err(|_| {
            Error::Parse(format!(
                "transcript move {}: {name:?} is not a square of the {n}x{n} board",
                i + 1,
                n = G::N
            ))
        })?;
        if game.must_pass() {
            game.pass()?;
        }
        game.play(sq).map_err(|e| {
            Error::Parse(format!(
                "transcript move {} ({}): {e}",
                i + 1,
                square_name(G::N, sq)
            ))
        })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{S10, S4, S6, S8};

    #[test]
    fn board_strings_round_trip() {
        let g = Game::<S6>::new();
        let s = board_string(&g);
        assert_eq!(s, "--------------OX----XO-------------- X");
        assert_eq!(board_string_size(&s), Some(6));
        assert_eq!(parse_board::<S6>(&s).unwrap().position(), g.position());
        // Miri (tests/miri.sh) stops at 10x10 (see `for_every_size`).
        #[cfg(not(miri))]
        {
            use crate::board::S16;
            let g16 = parse_transcript::<S16>("h7 g7").unwrap();
            let s16 = board_string(&g16);
            assert_eq!(s16.len(), 258);
            assert_eq!(board_string_size(&format!("  {s16}\n")), Some(16));
            let back = parse_board::<S16>(&s16).unwrap();
            assert_eq!(back.position(), g16.position());
            assert_eq!(back.side_to_move(), Color::Black);
        }
        for bad in ["", "X", &s[..37], &s.replace(' ', ""), &s.replace('X', "Q")] {
            assert!(parse_board::<S6>(bad).is_err(), "{bad:?}");
        }
        assert_eq!(board_string_size(&s[..35]), None);
    }

    #[test]
    fn transcripts_mix_name_lengths() {
        // 10x10: e4 (row 4, column e) is one of black's four first moves.
        let g = parse_transcript::<S10>(" E4\n").unwrap();
        assert_eq!(transcript(&g), "e4");
        let mut h = Game::<S10>::new();
        for _ in 0..30 {
            if h.is_game_over() {
                break;
            }
            if h.must_pass() {
                h.pass().unwrap();
                continue;
            }
            let sq = h.legal_moves().highest();
            h.play(sq).unwrap();
        }
        let t = transcript(&h);
        assert!(t.contains("10"), "{t}");
        let back = parse_transcript::<S10>(&t).unwrap();
        assert_eq!(back.position(), h.position());
        assert!(back.moves().eq(h.moves()));
        for bad in ["f", "f4f", "f4 3", "z1", "f4f4", "a1", "f4-", "f40"] {
            assert!(parse_transcript::<S10>(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_transcript::<S4>("").unwrap().plies(), 0);
    }

    #[test]
    fn start_string() {
        let s = board_string(&Game::<S8>::new());
        assert_eq!(
            s,
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(board_string_size(&s), Some(8));
        assert_eq!(
            parse_board::<S8>(&s).unwrap().position(),
            Position::<S8>::start()
        );
    }

    #[test]
    fn transcript_round_trip() {
        let g = parse_transcript::<S8>("f5d6c3d3c4").unwrap();
        assert_eq!(transcript(&g), "f5d6c3d3c4");
        assert_eq!(g.plies(), 5);
        assert_eq!(parse_transcript::<S8>("F5 D6").unwrap().plies(), 2);
    }

    #[test]
    fn malformed_rejected() {
        for bad in ["f5d", "f5zz", "f5f5", "a1", "f5d6c3d3c4c4"] {
            assert!(
                matches!(parse_transcript::<S8>(bad), Err(Error::Parse(_))),
                "{bad}"
            );
        }
        let good = board_string(&Game::<S8>::new());
        for bad in [
            "",
            "X",
            &good[..65],
            &good.replace(' ', ""),
            &good.replace('X', "Q"),
            &format!("{} Y", &good[..64]),
            &format!("{} XO", &good[..64]),
        ] {
            assert!(
                matches!(parse_board::<S8>(bad), Err(Error::Parse(_))),
                "{bad:?}"
            );
        }
    }
}
