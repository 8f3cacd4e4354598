//! Labelled positions from game records (`othello-label`): replays the games
//! of text files (one game per line, `f5d6c3... +12`: the moves concatenated,
//! passes omitted, then black's final disc difference), picks positions by
//! their number of empties, and writes them as `.obf` lines, with or without
//! an exact solve.
//!
//! # Which positions
//!
//! A game's candidate positions are the positions before each of its moves,
//! so the side to move always has a move. When a side must pass, the position
//! is taken with the other side to move (the pass is stepped over): the board
//! of a pass appears once, with the side that plays next. Empties drop by one
//! per move, so a game has one candidate per number of empties from 60 down
//! to one more than its final number of empties.
//!
//! [`plan`] then goes through the files in order, line by line:
//!
//! - a line (0-based index `i` within its file) is a selected game when
//!   `i % every == offset`; selected games are numbered in that order across
//!   the files (their ordinal, from 0). Every line is parsed and replayed,
//!   selected or not, so a malformed or illegal line is always an error
//!   naming its file and line (1-based, as editors count).
//! - per selected game: every candidate with `lo..=hi` empties
//!   ([`PerGame::All`]), or one of them chosen at random ([`PerGame::One`]:
//!   uniformly among the candidates in range, from a stream that depends on
//!   the seed, the file name and the line index only); a game with no
//!   candidate in range (it ended earlier) gives none.
//! - the positions, in that order, are cut after `max`;
//! - shard `K/N` keeps the positions of the selected games whose ordinal
//!   satisfies `ordinal % N == K - 1`. Every shard makes the whole plan
//!   (replays are cheap; solves are not) before keeping its part, so the
//!   shards `1/N .. N/N` of one command hold each planned position exactly
//!   once, and their outputs, concatenated and sorted, are the one-shard
//!   output sorted (`--max` included).
//!
//! # Output line
//!
//! `<64 squares a1..h8, X O -> <X|O>; <MOVE>:<score>; % <file>:<line> empties <E>`
//! with the best move in upper case and the exact score in discs, signed,
//! for the side to move (as in the FFO `.obf` files); without a solve the
//! line is `<board> <side>; % ...`.

use othello::board::{Bits, S8};
use othello::notation::{parse_square, square_name};
use othello::rng::Rng;

/// The 8x8 position.
pub type Position = othello::Position<S8>;

/// A candidate position of a game: before one of its moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GamePosition {
    pub pos: Position,
    pub black_to_move: bool,
}

impl GamePosition {
    pub fn empties(&self) -> u32 {
        self.pos.empties().count()
    }
}

/// Replays one game line (`f5d6... +12`; the result may be absent, as in
/// opening lists): the positions before each move. Passes are inserted when
/// the side to move has no move. Errors: an odd-length or unknown square
/// name, an illegal move, a move after the game is over, a result that is
/// not a signed integer or, for a finished game, differs from the replay's.
pub fn replay(line: &str) -> Result<Vec<GamePosition>, String> {
    let mut words = line.split_whitespace();
    let moves = words.next().unwrap_or("");
    let result = words.next();
    if let Some(extra) = words.next() {
        return Err(format!("unexpected {extra:?} after the result"));
    }
    if !moves.len().is_multiple_of(2) || !moves.is_ascii() {
        return Err(format!(
            "the moves {moves:?} are not square names of two characters"
        ));
    }
    let mut pos = Position::start();
    let mut black = true;
    let mut out = Vec::with_capacity(moves.len() / 2);
    for (i, name) in moves.as_bytes().chunks(2).enumerate() {
        let name = std::str::from_utf8(name).expect("ASCII");
        let sq = parse_square(8, name)
            .map_err(|_| format!("move {}: {name:?} is not a square of the 8x8 board", i + 1))?;
        if pos.must_pass() {
            pos = pos.pass();
            black = !black;
        }
        if !pos.is_legal(sq) {
            return Err(format!(
                "move {} ({name}) is illegal{}",
                i + 1,
                if pos.is_game_over() {
                    ": the game is over"
                } else {
                    ""
                }
            ));
        }
        out.push(GamePosition {
            pos,
            black_to_move: black,
        });
        pos = pos.play_with(sq, pos.flips(sq));
        black = !black;
    }
    if let Some(r) = result {
        let stated: i32 = r
            .strip_prefix('+')
            .unwrap_or(r)
            .parse()
            .map_err(|_| format!("the result {r:?} is not a disc difference like +12"))?;
        if pos.is_game_over() {
            let score = pos.final_score();
            let replayed = if black { score } else { -score };
            if replayed != stated {
                return Err(format!(
                    "the result {r} differs from the replay's final score {replayed:+}"
                ));
            }
        }
    }
    Ok(out)
}

/// How many positions a selected game gives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PerGame {
    /// One, at a random number of empties in range.
    One,
    /// Every one in range.
    All,
}

/// What [`plan`] selects (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Selection {
    /// Empties, both inclusive.
    pub lo: u32,
    pub hi: u32,
    pub per_game: PerGame,
    /// Games are the lines with `index % every == offset`.
    pub every: usize,
    pub offset: usize,
    /// At most this many positions in all shards together.
    pub max: Option<usize>,
    pub seed: u64,
    /// Shard `k` of `n`, 1-based: `1 <= k <= n`.
    pub shard: (usize, usize),
}

/// A planned position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Planned {
    pub at: GamePosition,
    /// Index of the file in the `files` given to [`plan`].
    pub file: usize,
    /// 0-based line index in that file.
    pub line: usize,
    /// The game's ordinal among the selected games.
    pub ordinal: usize,
}

/// A stream for the game of line `line` of file `name`.
fn game_rng(seed: u64, name: &str, line: usize) -> Rng {
    // FNV-1a of the file name, then SplitMix of the mix.
    let h = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    let mut mix = Rng::new(seed ^ h ^ (line as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    Rng::new(mix.next_u64())
}

/// The positions selected from `files` (each a name, as written in the
/// output's comments, and its text), in file and line order, this shard's
/// part only. Errors name the file and the 1-based line.
pub fn plan(files: &[(String, String)], sel: &Selection) -> Result<Vec<Planned>, String> {
    assert!(sel.every >= 1 && sel.offset < sel.every, "offset < every");
    assert!(
        sel.shard.0 >= 1 && sel.shard.0 <= sel.shard.1,
        "1 <= K <= N"
    );
    let mut out = Vec::new();
    let mut total = 0usize;
    let mut ordinal = 0usize;
    for (f, (name, text)) in files.iter().enumerate() {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let positions = replay(line).map_err(|e| format!("{name}:{}: {e}", i + 1))?;
            if i % sel.every != sel.offset {
                continue;
            }
            let game = ordinal;
            ordinal += 1;
            let full = sel.max.is_some_and(|m| total >= m);
            if full {
                continue;
            }
            let mut in_range: Vec<GamePosition> = positions
                .into_iter()
                .filter(|p| (sel.lo..=sel.hi).contains(&p.empties()))
                .collect();
            if sel.per_game == PerGame::One && !in_range.is_empty() {
                let k = game_rng(sel.seed, name, i).below(in_range.len());
                in_range = vec![in_range[k]];
            }
            for at in in_range {
                if sel.max.is_some_and(|m| total >= m) {
                    break;
                }
                total += 1;
                if game % sel.shard.1 == sel.shard.0 - 1 {
                    out.push(Planned {
                        at,
                        file: f,
                        line: i,
                        ordinal: game,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The board and side of an `.obf` line: `<64 squares> <X|O>`.
pub fn board_text(at: &GamePosition) -> String {
    let (black, white) = if at.black_to_move {
        (at.pos.player, at.pos.opponent)
    } else {
        (at.pos.opponent, at.pos.player)
    };
    let mut s: String = (0..64)
        .map(|sq| {
            if black.has(sq) {
                'X'
            } else if white.has(sq) {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    s.push_str(if at.black_to_move { " X" } else { " O" });
    s
}

/// The comment of a position's line: `<file>:<line> empties <E>` (line
/// 1-based); also the key that tells a position already written.
pub fn source_tag(file_name: &str, p: &Planned) -> String {
    format!("{file_name}:{} empties {}", p.line + 1, p.at.empties())
}

/// An output line (no newline): the best move and the exact score in
/// discs, if solved, and the comment `% <tag>`.
pub fn obf_line(at: &GamePosition, label: Option<(u32, i32)>, tag: &str) -> String {
    match label {
        Some((sq, score)) => format!(
            "{}; {}:{score:+}; % {tag}",
            board_text(at),
            square_name(8, sq).to_uppercase()
        ),
        None => format!("{}; % {tag}", board_text(at)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::obf;
    use othello::Color;

    // The first game of wthor.txt: black wins by 4.
    const GAME: &str = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 +4";

    #[test]
    fn replays_a_game_and_rejects_bad_lines() {
        let ps = replay(GAME).unwrap();
        assert_eq!(ps.len(), 60);
        assert_eq!(ps[0].pos, Position::start());
        assert!(ps[0].black_to_move && !ps[1].black_to_move);
        for (i, p) in ps.iter().enumerate() {
            assert_eq!(p.empties(), 60 - i as u32);
            assert!(!p.pos.legal_moves().is_zero());
        }
        // Unfinished lines (openings) replay; the result is checked only
        // when the game is over.
        assert_eq!(replay("f5d6c3").unwrap().len(), 3);
        assert_eq!(replay("f5d6c3 +2").unwrap().len(), 3);
        for bad in [
            GAME.replace("+4", "+6"),
            GAME.replace("+4", "four"),
            "f5f5".into(),
            "f5d".into(),
            "f5z9".into(),
            "a1".into(),
            "f5 +0 x".into(),
        ] {
            assert!(replay(&bad).is_err(), "{bad}");
        }
        let over = replay(&GAME.replace(" +4", "a1 +4")).unwrap_err();
        assert!(over.ends_with("the game is over"), "{over}");
    }

    #[test]
    fn a_pass_is_stepped_over() {
        // Find a game with a pass by playing the lowest move each time.
        let mut pos = Position::start();
        let mut black = true;
        let mut line = String::new();
        let mut passed = false;
        while !pos.is_game_over() {
            if pos.must_pass() {
                pos = pos.pass();
                black = !black;
                passed = true;
                continue;
            }
            let sq = pos.legal_moves().lowest();
            line.push_str(&square_name(8, sq));
            pos = pos.play(sq).unwrap();
            black = !black;
        }
        let score = if black {
            pos.final_score()
        } else {
            -pos.final_score()
        };
        let ps = replay(&format!("{line} {score:+}")).unwrap();
        assert_eq!(ps.len(), line.len() / 2);
        assert!(ps.iter().all(|p| !p.pos.legal_moves().is_zero()));
        // Empties fall by one per candidate, whoever moves.
        assert!(ps.windows(2).all(|w| w[0].empties() == w[1].empties() + 1));
        assert!(passed, "this line has a pass: {line}");
    }

    fn files() -> Vec<(String, String)> {
        let mut text = String::new();
        // Whole games on lines 0, 4, .., 20; one-move openings between.
        for i in 0..23 {
            text.push_str(if i % 4 == 0 { GAME } else { "f5" });
            text.push('\n');
        }
        // Lines 0 and 2 are games, line 1 is blank.
        let b = format!("{GAME}\n\n{GAME}\n");
        vec![("a.txt".into(), text), ("b.txt".into(), b)]
    }

    #[test]
    fn shards_partition_the_plan() {
        let files = files();
        for per_game in [PerGame::One, PerGame::All] {
            for max in [None, Some(7)] {
                let sel = Selection {
                    lo: 20,
                    hi: 24,
                    per_game,
                    every: 2,
                    offset: 0,
                    max,
                    seed: 3,
                    shard: (1, 1),
                };
                let all = plan(&files, &sel).unwrap();
                let expected = match (per_game, max) {
                    (_, Some(m)) => m,
                    // Selected: a.txt lines 0, 2, .., 22 (12 games, of which
                    // the 6 whole ones reach 20 empties) and b.txt lines 0, 2.
                    (PerGame::One, None) => 8,
                    (PerGame::All, None) => 40,
                };
                assert_eq!(all.len(), expected, "{per_game:?} {max:?}");
                assert!(all.iter().all(|p| (20..=24).contains(&p.at.empties())));
                assert!(all.iter().all(|p| p.line % 2 == 0));
                let mut union = Vec::new();
                for k in 1..=3 {
                    let part = plan(
                        &files,
                        &Selection {
                            shard: (k, 3),
                            ..sel
                        },
                    )
                    .unwrap();
                    assert!(part.iter().all(|p| p.ordinal % 3 == k - 1));
                    union.extend(part);
                }
                union.sort_by_key(|p| (p.ordinal, 60 - p.at.empties()));
                assert_eq!(union, all);
            }
        }
        // Same seed, same choice; another seed, (here) another one.
        let sel = Selection {
            lo: 1,
            hi: 59,
            per_game: PerGame::One,
            every: 1,
            offset: 0,
            max: None,
            seed: 1,
            shard: (1, 1),
        };
        let a = plan(&files, &sel).unwrap();
        assert_eq!(a, plan(&files, &sel).unwrap());
        assert_ne!(a, plan(&files, &Selection { seed: 2, ..sel }).unwrap());
        // A bad line is an error naming the file and the 1-based line.
        let bad = vec![("x.txt".to_string(), format!("{GAME}\nf5f5 +0\n"))];
        let e = plan(&bad, &sel).unwrap_err();
        assert!(e.starts_with("x.txt:2: "), "{e}");
    }

    #[test]
    fn written_lines_parse_back() {
        let ps = replay(GAME).unwrap();
        for (i, at) in ps.iter().enumerate().step_by(7) {
            let p = Planned {
                at: *at,
                file: 0,
                line: 41,
                ordinal: 0,
            };
            let tag = source_tag("w.txt", &p);
            assert_eq!(tag, format!("w.txt:42 empties {}", 60 - i));
            let sq = at.pos.legal_moves().lowest();
            for label in [None, Some((sq, -12)), Some((sq, 0)), Some((sq, 30))] {
                let line = obf_line(at, label, &tag);
                assert_eq!(&line[64..66], if at.black_to_move { " X" } else { " O" });
                let back = obf::parse_line::<S8>(&line).unwrap().unwrap();
                assert_eq!(back.position, at.pos);
                assert_eq!(back.side == Color::Black, at.black_to_move);
                assert_eq!(back.best(), label);
            }
        }
        let line = obf_line(&ps[0], Some((37, 0)), "t");
        assert_eq!(
            line,
            "---------------------------OX------XO--------------------------- X; F5:+0; % t"
        );
    }
}
