//! Self-play training data for the pattern evaluation: games played by the
//! engine from seeded, randomised openings, solved exactly near the end, in
//! a compact binary file (`othello-datagen` writes it, `othello-train` reads
//! it).
//!
//! A game is a pure function of the file's [`GenParams`] and the game's
//! index: each game starts from a fresh table and its own random stream, so
//! the file's content does not depend on the number of threads, and a run
//! that is interrupted and resumed writes the same bytes as one that is not.
//!
//! # File format (little-endian)
//!
//! Header, [`HEADER_LEN`] bytes: the magic `OTHGAMES`, the format version
//! (u32), then the parameters: seed (u64), depth, exact_empties,
//! random_min, random_max (one byte each), the per-mille chance of a
//! randomised midgame move (u16) and two reserved bytes.
//!
//! Then one record per game, in game order: the number of plies `n` (u8), the
//! final disc difference from black's point of view (i8), and `n` plies of 4
//! bytes: the square played (0..63, 64 for a pass), the [`PlyKind`] (u8), and
//! the value of the position before the ply from the side to move's point of
//! view (i16, centi-discs; exact plies hold the exact score times 100).

use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::notation::square_name;
use othello::rng::Rng;
use othello::Error;

/// The 8x8 position, the only size the pattern evaluation trains on.
pub type Position = othello::Position<S8>;
use std::sync::atomic::AtomicBool;

/// The file magic.
pub const MAGIC: &[u8; 8] = b"OTHGAMES";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the first game record.
pub const HEADER_LEN: usize = 28;
/// The square byte of a pass.
pub const PASS: u8 = 64;

/// How a game is generated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GenParams {
    /// Every random choice derives from this and the game index.
    pub seed: u64,
    /// Midgame search depth of the strong moves.
    pub depth: u8,
    /// From this many empties on, moves are exact (perfect play), and so is
    /// the final result.
    pub exact_empties: u8,
    /// The opening is `random_min..=random_max` plies of weak random play.
    pub random_min: u8,
    pub random_max: u8,
    /// Per mille: the chance that a midgame move is picked at random among
    /// the moves within 2 discs of the best, for variety.
    pub noise_permille: u16,
}

impl Default for GenParams {
    fn default() -> GenParams {
        GenParams {
            seed: 1,
            depth: 8,
            exact_empties: 20,
            random_min: 8,
            random_max: 20,
            noise_permille: 60,
        }
    }
}

/// Where a ply's move and value come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum PlyKind {
    /// A random opening move (value: a 2-ply search, a rough guess).
    Opening = 0,
    /// A midgame search of `depth` plies.
    Search = 1,
    /// The exact solver: the value is the exact final score.
    Exact = 2,
    /// A forced pass (value: the exact one if the position was solved, else
    /// the negated value of the next ply).
    Pass = 3,
}

/// One ply of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ply {
    /// None for a pass; else the square (0..64).
    pub square: Option<u32>,
    pub kind: PlyKind,
    /// The value of the position before the ply, side to move's view, in
    /// centi-discs.
    pub score: i16,
}

/// A generated game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    pub plies: Vec<Ply>,
    /// Final disc difference (empties to the winner), black's point of view.
    pub result: i8,
}

/// A labelled position of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sample {
    pub pos: Position,
    /// The game's final result from the side to move's point of view: exact
    /// from `exact_empties` on (perfect play from there).
    pub result: i8,
    /// The ply's value (centi-discs, side to move's view).
    pub score: i16,
    pub kind: PlyKind,
}

/// A random stream for game `index` of `seed`.
fn game_rng(seed: u64, index: u64) -> Rng {
    let mut mix = Rng::new(seed ^ index.wrapping_mul(0xd605_bbb5_8c8a_bd09));
    Rng::new(mix.next_u64() ^ index)
}

/// Plays game `index`: a random opening, strong midgame play, perfect play
/// from `exact_empties`. `engine` is cleared first.
pub fn play_game(engine: &mut Engine, params: &GenParams, index: u64) -> GameRecord {
    engine.clear();
    let stop = AtomicBool::new(false);
    let mut rng = game_rng(params.seed, index);
    let span = params.random_max.saturating_sub(params.random_min) as usize + 1;
    let random_plies = params.random_min as usize + rng.below(span);
    let mut pos = Position::start();
    let mut black_to_move = true;
    let mut plies = Vec::with_capacity(64);
    loop {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            if pos.opponent_moves().is_zero() {
                break;
            }
            plies.push(Ply {
                square: None,
                kind: PlyKind::Pass,
                score: 0,
            });
            pos = pos.pass();
            black_to_move = !black_to_move;
            continue;
        }
        let empties = pos.empties().count();
        let mut limits = Limits::level(0).expect("level 0 exists");
        limits.seed = rng.next_u64();
        let kind = if plies.len() < random_plies {
            limits.depth = 2;
            limits.randomness = 8;
            PlyKind::Opening
        } else if empties <= params.exact_empties as u32 {
            limits.depth = params.depth as u32;
            limits.exact_empties = params.exact_empties as u32;
            limits.wld_empties = params.exact_empties as u32;
            PlyKind::Exact
        } else {
            limits.depth = params.depth as u32;
            if rng.below(1000) < params.noise_permille as usize {
                limits.randomness = 2;
            }
            PlyKind::Search
        };
        let r = engine
            .search(pos, &limits, &stop, &mut |_| {})
            .expect("a position with moves searches");
        let sq = r.best.expect("the side to move has a move");
        debug_assert!(kind != PlyKind::Exact || r.exact);
        plies.push(Ply {
            square: Some(sq),
            kind,
            score: r.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        });
        pos = pos.play_with(sq, pos.flips(sq));
        black_to_move = !black_to_move;
    }
    let score = pos.final_score();
    let result = if black_to_move { score } else { -score };
    // A pass takes the value of the position after it, negated.
    for i in (0..plies.len()).rev() {
        if plies[i].kind == PlyKind::Pass {
            plies[i].score = match plies.get(i + 1) {
                Some(next) => next.score.saturating_neg(),
                None => 0,
            };
        }
    }
    GameRecord {
        plies,
        result: result as i8,
    }
}

/// The file header for `params`.
pub fn encode_header(params: &GenParams) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&params.seed.to_le_bytes());
    out.extend_from_slice(&[
        params.depth,
        params.exact_empties,
        params.random_min,
        params.random_max,
    ]);
    out.extend_from_slice(&params.noise_permille.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    debug_assert_eq!(out.len(), HEADER_LEN);
    out
}

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidArgument(msg.into())
}

/// The parameters of a file header.
pub fn decode_header(bytes: &[u8]) -> Result<GenParams, Error> {
    if bytes.len() < HEADER_LEN {
        return Err(bad(format!(
            "games file: header truncated ({} of {HEADER_LEN} bytes)",
            bytes.len()
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(bad("games file: bad magic (not an OTHGAMES file)"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(bad(format!(
            "games file: version {version}, this build reads {VERSION}"
        )));
    }
    Ok(GenParams {
        seed: u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes")),
        depth: bytes[20],
        exact_empties: bytes[21],
        random_min: bytes[22],
        random_max: bytes[23],
        noise_permille: u16::from_le_bytes([bytes[24], bytes[25]]),
    })
}

impl GameRecord {
    /// Appends the record's bytes to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.plies.len() as u8);
        out.push(self.result as u8);
        for p in &self.plies {
            out.push(p.square.map_or(PASS, |s| s as u8));
            out.push(p.kind as u8);
            out.extend_from_slice(&p.score.to_le_bytes());
        }
    }

    /// Decodes one record at the start of `bytes`: the record and its
    /// length, or None if `bytes` ends inside it. Checks that every move is
    /// legal.
    pub fn decode(bytes: &[u8]) -> Result<Option<(GameRecord, usize)>, Error> {
        if bytes.len() < 2 {
            return Ok(None);
        }
        let n = bytes[0] as usize;
        let len = 2 + 4 * n;
        if bytes.len() < len {
            return Ok(None);
        }
        let mut plies = Vec::with_capacity(n);
        let mut pos = Position::start();
        for chunk in bytes[2..len].chunks_exact(4) {
            let kind = match chunk[1] {
                0 => PlyKind::Opening,
                1 => PlyKind::Search,
                2 => PlyKind::Exact,
                3 => PlyKind::Pass,
                k => return Err(bad(format!("games file: bad ply kind {k}"))),
            };
            let square = if chunk[0] == PASS {
                if !pos.must_pass() {
                    return Err(bad("games file: a pass while moves exist"));
                }
                pos = pos.pass();
                None
            } else {
                let sq = chunk[0] as u32;
                if sq >= 64 {
                    return Err(bad(format!("games file: bad square {}", chunk[0])));
                }
                pos = pos.play(sq).ok_or_else(|| {
                    bad(format!("games file: illegal move {}", square_name(8, sq)))
                })?;
                Some(sq)
            };
            plies.push(Ply {
                square,
                kind,
                score: i16::from_le_bytes([chunk[2], chunk[3]]),
            });
        }
        Ok(Some((
            GameRecord {
                plies,
                result: bytes[1] as i8,
            },
            len,
        )))
    }

    /// Every position before a ply (passes left out), with its labels.
    pub fn samples(&self) -> Vec<Sample> {
        let mut out = Vec::with_capacity(self.plies.len());
        let mut pos = Position::start();
        let mut black = true;
        for p in &self.plies {
            match p.square {
                None => pos = pos.pass(),
                Some(sq) => {
                    let result = if black { self.result } else { -self.result };
                    out.push(Sample {
                        pos,
                        result,
                        score: p.score,
                        kind: p.kind,
                    });
                    pos = pos.play_with(sq, pos.flips(sq));
                }
            }
            black = !black;
        }
        out
    }
}

/// Reads a whole games file: its parameters, the complete games, and the
/// length in bytes of the complete part (a partly written last record, as
/// an interrupted run may leave, is ignored).
pub fn read_games(bytes: &[u8]) -> Result<(GenParams, Vec<GameRecord>, usize), Error> {
    let params = decode_header(bytes)?;
    let mut games = Vec::new();
    let mut at = HEADER_LEN;
    while let Some((g, len)) = GameRecord::decode(&bytes[at..])? {
        games.push(g);
        at += len;
    }
    Ok((params, games, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> GenParams {
        GenParams {
            seed: 5,
            depth: 2,
            exact_empties: 8,
            random_min: 4,
            random_max: 10,
            noise_permille: 200,
        }
    }

    #[test]
    fn games_are_reproducible_and_round_trip() {
        let params = tiny();
        let mut engine = Engine::new(1);
        let mut bytes = encode_header(&params);
        let mut games = Vec::new();
        for i in 0..4 {
            let g = play_game(&mut engine, &params, i);
            g.encode(&mut bytes);
            games.push(g);
        }
        // Same index, same game, whatever was played before.
        assert_eq!(play_game(&mut Engine::new(1), &params, 2), games[2]);
        assert_ne!(games[0], games[1]);
        let (p, back, len) = read_games(&bytes).unwrap();
        assert_eq!(p, params);
        assert_eq!(back, games);
        assert_eq!(len, bytes.len());
        // A truncated last record is left out.
        let (_, cut, len) = read_games(&bytes[..bytes.len() - 3]).unwrap();
        assert_eq!(cut.len(), 3);
        assert!(len < bytes.len() - 3);
        for g in &games {
            let samples = g.samples();
            assert!(samples.len() >= 50);
            // The exact plies score the game's result.
            for s in samples.iter().filter(|s| s.kind == PlyKind::Exact) {
                assert_eq!(s.score as i32, s.result as i32 * 100);
                assert!(s.pos.empties().count() <= 8);
            }
        }
    }

    #[test]
    fn corrupt_files_are_rejected() {
        let params = tiny();
        let mut bytes = encode_header(&params);
        play_game(&mut Engine::new(1), &params, 0).encode(&mut bytes);
        assert!(read_games(&bytes[..10]).is_err());
        let mut bad_magic = bytes.clone();
        bad_magic[0] = b'X';
        assert!(read_games(&bad_magic).is_err());
        let mut bad_move = bytes.clone();
        bad_move[HEADER_LEN + 2] = 0; // a1 is never legal first
        assert!(read_games(&bad_move).is_err());
    }
}
