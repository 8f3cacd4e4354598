//! Game collections in text form (`../shared/games/*.txt`): one game per
//! line, the moves concatenated (`f5d6c3...`, passes left out), a space and
//! black's final disc difference (`+12`, empties to the winner).

use othello::board::S8;
use othello::game::{Game, Move};
use othello::notation::parse_transcript;
use othello::rng::Rng;
use othello::{Color, Error};

/// The 8x8 position, the only size these collections hold.
pub type Position = othello::Position<S8>;

/// One game of a collection.
#[derive(Clone, Debug)]
pub struct TextGame {
    /// The game, replayed (passes inserted where the side to move had none).
    pub game: Game<S8>,
    /// Black's final disc difference, as recorded.
    pub result: i32,
}

impl TextGame {
    /// Every position where a move was played, with the side to move there
    /// and the move.
    pub fn positions(&self) -> Vec<(Position, Color, u32)> {
        let (mut pos, mut side) = self.game.initial();
        let mut out = Vec::with_capacity(60);
        for mv in self.game.moves() {
            if let Move::Play(sq) = mv {
                out.push((pos, side, sq));
                pos = pos.play(sq).expect("a replayed move is legal");
            } else {
                pos = pos.pass();
            }
            side = side.opponent();
        }
        out
    }

    /// The result from `side`'s point of view.
    pub fn result_for(&self, side: Color) -> i32 {
        match side {
            Color::Black => self.result,
            Color::White => -self.result,
        }
    }
}

/// Parses one line: moves, whitespace, the signed result.
pub fn parse_line(line: &str) -> Result<TextGame, Error> {
    let mut parts = line.split_whitespace();
    let (Some(moves), Some(result), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(Error::Parse(format!(
            "expected `moves result`, found {line:?}"
        )));
    };
    let result: i32 = result
        .parse()
        .ok()
        .filter(|r: &i32| r.abs() <= 64)
        .ok_or_else(|| Error::Parse(format!("bad result {result:?}")))?;
    let game = parse_transcript::<S8>(moves)?;
    Ok(TextGame { game, result })
}

/// Reads a collection: `(line index, game)` for every line that `keep`
/// accepts (by its 0-based index); a bad line is an error naming it.
pub fn read(path: &str, keep: impl Fn(usize) -> bool) -> Result<Vec<(usize, TextGame)>, Error> {
    read_with(path, keep, parse_line)
}

/// As [`read`], each line read by `parse` (the opening book reads move
/// lists, which XOT openings are: they have no result).
pub fn read_with<T>(
    path: &str,
    keep: impl Fn(usize) -> bool,
    parse: impl Fn(&str) -> Result<T, Error>,
) -> Result<Vec<(usize, T)>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Parse(format!("cannot read {path}: {e}")))?;
    text.lines()
        .enumerate()
        .filter(|(i, l)| keep(*i) && !l.trim().is_empty())
        .map(|(i, l)| {
            parse(l)
                .map(|g| (i, g))
                .map_err(|e| Error::Parse(format!("{path}:{}: {e}", i + 1)))
        })
        .collect()
}

/// `count` openings of an XOT-style file (one move list a line, as
/// `../shared/games/xot.txt`), a sample without repeats drawn by `seed`:
/// the same file, count and seed give the same openings in the same order.
pub fn sample_openings(path: &str, count: usize, seed: u64) -> Result<Vec<Game<S8>>, Error> {
    let mut all: Vec<Game<S8>> = read_with(path, |_| true, |l| parse_transcript::<S8>(l.trim()))?
        .into_iter()
        .map(|(_, g)| g)
        .collect();
    let mut rng = Rng::new(seed);
    // A partial Fisher-Yates shuffle: the first `count` are the sample.
    let count = count.min(all.len());
    for i in 0..count {
        let j = i + rng.below(all.len() - i);
        all.swap(i, j);
    }
    all.truncate(count);
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_replays_with_its_positions_and_result() {
        let g = parse_line("f5d6c3d3c4 -2").unwrap();
        assert_eq!(g.result, -2);
        let p = g.positions();
        assert_eq!(p.len(), 5);
        assert_eq!(p[0].0, Position::start());
        assert_eq!((p[0].1, p[1].1), (Color::Black, Color::White));
        assert_eq!(g.result_for(Color::White), 2);
        // Each position is the previous one after its move.
        for w in p.windows(2) {
            assert_eq!(w[0].0.play(w[0].2), Some(w[1].0));
        }
    }

    #[test]
    fn bad_lines_are_errors() {
        for bad in ["f5d6", "f5d6 x", "f5d6 +99", "f5f5 +2", "z9 +0", "f5 +1 2"] {
            assert!(parse_line(bad).is_err(), "{bad}");
        }
    }
}
