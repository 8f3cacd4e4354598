//! Evaluation error against exact scores, in two modes:
//!
//! - `cargo bench --bench eval_error -- FILE.obf [--weights FILE]` reads the
//!   positions of an `.obf` file with exact scores (`<board> <side>;
//!   MOVE:SCORE; ...`, the first entry the best, its score exact; `%` lines
//!   are comments), e.g. `benches/data/wthor-heldout-20-24.obf` (held-out
//!   WTHOR positions, written by `othello-label`; paths are relative to the
//!   crate root, where cargo runs benches).
//! - `cargo bench --bench eval_error -- [POSITIONS] [MIN_EMPTIES] [MAX_EMPTIES]
//!   [SEED] [--weights FILE]` (defaults 100, 20, 24, 1) plays seeded games
//!   (random first moves, then the engine at level 4 with a little
//!   randomness, so the positions are balanced-looking rather than
//!   lopsided), takes one position of each game at a random number of
//!   empties within the range and solves it exactly.
//!
//! Either way it prints the mean absolute error in discs of the trained
//! evaluation (the embedded weights, or those of `--weights FILE`) and of
//! the v1 evaluation (the static evaluation, no search) against the exact
//! score, by number of empties and in all, how low the trained one reads
//! on average (exact score minus its value: a bias for or against the side
//! to move, which a search's even and odd depths see with opposite
//! signs), and the trained MAE's standard
//! error (the positions are a sample: two weight sets whose MAEs differ by
//! less than about two standard errors are not told apart by this file).
//! `--ply 1` scores a 1-ply search (the best of the moves' static values)
//! instead of the static evaluation, `--ply N` (N >= 2) a search of N
//! plies without selective cuts, from a cleared table. `--compare FILE`
//! also scores the weights of FILE on the same positions and prints the
//! difference of the two MAEs with its own standard error, position by
//! position, which tells much closer weight sets apart.

use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::eval::pattern::PatternWeights;
use othello::eval::{Evaluate, Evaluator};
use othello::obf;
use othello::rng::Rng;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

type Position = othello::Position<S8>;

fn main() {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let trained = match args.iter().position(|a| a == "--weights") {
        None => PatternWeights::embedded(),
        Some(i) => {
            let path = args.get(i + 1).cloned().expect("--weights FILE");
            args.drain(i..i + 2);
            let w = PatternWeights::load(Path::new(&path)).unwrap_or_else(|e| panic!("{e}"));
            println!("weights: {path}");
            Arc::new(w)
        }
    };
    let mut tally = Tally::default();
    if let Some(i) = args.iter().position(|a| a == "--ply") {
        let n = args.get(i + 1).and_then(|a| a.parse().ok());
        tally.ply = n.filter(|&n| n <= 30).expect("--ply N, 0 to 30");
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--compare") {
        let path = args.get(i + 1).cloned().expect("--compare FILE");
        args.drain(i..i + 2);
        let w = PatternWeights::load(Path::new(&path)).unwrap_or_else(|e| panic!("{e}"));
        tally.other = Some((path, Arc::new(w)));
    }
    let start = Instant::now();
    let source = match args.first().filter(|a| a.parse::<u64>().is_err()) {
        Some(file) => {
            for (pos, score) in read_obf(file) {
                tally.add(&trained, pos, score);
            }
            file.clone()
        }
        None => {
            let nums: Vec<u64> = args
                .iter()
                .map(|a| {
                    a.parse()
                        .unwrap_or_else(|_| panic!("{a:?} is not a number"))
                })
                .collect();
            let seed = nums.get(3).copied().unwrap_or(1);
            self_play(&trained, &nums, &mut tally);
            format!("self-play, seed {seed}")
        }
    };
    tally.print(&source, start.elapsed().as_secs_f64());
}

/// The sums of one number of empties (or of all), in discs.
#[derive(Clone, Copy, Default)]
struct Sums {
    positions: u32,
    /// Absolute errors of the trained evaluation, and of v1.
    trained: f64,
    v1: f64,
    /// Exact score minus the trained value: how low it reads.
    low: f64,
}

impl Sums {
    fn add(&mut self, other: Sums) {
        self.positions += other.positions;
        self.trained += other.trained;
        self.v1 += other.v1;
        self.low += other.low;
    }

    /// The line of these sums (means per position) after `label` (its
    /// first 7 columns), then `note`.
    fn print(&self, label: &str, note: &str) {
        let k = self.positions as f64;
        println!(
            "{label:<7}  {:9}  {:11.2}  {:6.2}  {:+14.2}{note}",
            self.positions,
            self.trained / k,
            self.v1 / k,
            self.low / k
        );
    }
}

/// The sums per number of empties, and every trained error, for the
/// standard error of the mean. With `--compare FILE`, those weights' error
/// on each position too.
struct Tally {
    rows: Vec<Sums>,
    errors: Vec<f64>,
    other: Option<(String, Arc<PatternWeights>)>,
    other_errors: Vec<f64>,
    /// 0: the static evaluation; 1: a 1-ply search (the best of the
    /// moves' evaluations), as engines' figures are often given; more: a
    /// search of that depth.
    ply: u32,
    /// The engine of the deeper searches.
    engine: Engine,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            rows: vec![Sums::default(); 61],
            errors: Vec::new(),
            other: None,
            other_errors: Vec::new(),
            ply: 0,
            engine: Engine::new(16),
        }
    }
}

/// The value of `pos` for the side to move, in discs, by a search of `ply`
/// plies (2 or more) with `eval`, no selective cuts and a cleared table.
fn searched(engine: &mut Engine, eval: Evaluator, pos: Position, ply: u32) -> f64 {
    let mut limits = Limits::explicit(ply as i64, 0, 0).expect("a depth in range");
    limits.book = false;
    engine.set_evaluator(eval);
    engine.clear();
    let r = engine
        .search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
        .expect("a position with moves");
    r.score as f64 / 100.0
}

/// The value of `pos` for the side to move, in discs, by `eval`: static
/// (`ply` 0) or the best of its moves' static values (`ply` 1; static
/// when it has no move).
fn value(eval: impl Fn(Position) -> i32, pos: Position, ply: u32) -> f64 {
    let moves = pos.legal_moves();
    let v = if ply == 0 || moves.is_zero() {
        eval(pos)
    } else {
        moves
            .squares()
            .map(|sq| -eval(pos.play_with(sq, pos.flips(sq))))
            .max()
            .expect("a move")
    };
    v as f64 / 100.0
}

/// The mean of `xs` and its standard error (one standard deviation of
/// the mean over such samples).
fn mean_and_error(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if n < 2.0 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

impl Tally {
    /// Adds `pos`, whose exact score is `score` discs.
    fn add(&mut self, trained: &Arc<PatternWeights>, pos: Position, score: i32) {
        let score = score as f64;
        let ply = self.ply;
        let mut value_by = |weights: Option<&Arc<PatternWeights>>| match (ply, weights) {
            (2.., Some(w)) => searched(&mut self.engine, Evaluator::Pattern(w.clone()), pos, ply),
            (2.., None) => searched(&mut self.engine, Evaluator::V1, pos, ply),
            (_, Some(w)) => value(|x| w.evaluate(x), pos, ply),
            (_, None) => value(
                |x| Evaluate::<S8>::evaluate(&Evaluator::V1, x.player, x.opponent),
                pos,
                ply,
            ),
        };
        let t = value_by(Some(trained));
        let v = value_by(None);
        let o = self.other.as_ref().map(|(_, w)| value_by(Some(w)));
        self.rows[pos.empties().count() as usize].add(Sums {
            positions: 1,
            trained: (t - score).abs(),
            v1: (v - score).abs(),
            low: score - t,
        });
        self.errors.push((t - score).abs());
        if let Some(o) = o {
            self.other_errors.push((o - score).abs());
        }
    }

    fn print(&self, source: &str, secs: f64) {
        let how = match self.ply {
            0 => "static".to_string(),
            n => format!("{n}-ply search"),
        };
        println!(
            "empties  positions  trained MAE  v1 MAE  trained low by   (discs, exact scores, {how})"
        );
        let mut all = Sums::default();
        for (e, row) in self.rows.iter().enumerate() {
            if row.positions > 0 {
                row.print(&format!("{e:7}"), "");
                all.add(*row);
            }
        }
        all.print("all", &format!("   ({secs:.0} s, {source})"));
        let (mae, error) = mean_and_error(&self.errors);
        println!("trained MAE {mae:.2} +- {error:.2} (one standard error)");
        if let Some((path, _)) = &self.other {
            // The difference position by position: the two MAEs share
            // most of their sampling error, so it is known far better
            // than either.
            let diffs: Vec<f64> = self
                .other_errors
                .iter()
                .zip(&self.errors)
                .map(|(o, t)| o - t)
                .collect();
            let (other, _) = mean_and_error(&self.other_errors);
            let (d, e) = mean_and_error(&diffs);
            println!("{path}: MAE {other:.2}; its MAE minus the trained one {d:+.3} +- {e:.3}");
        }
    }
}

/// The positions of an `.obf` file and the score of their first (best)
/// move, in discs; `%` lines and blank lines are skipped.
fn read_obf(file: &str) -> Vec<(Position, i32)> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let parsed =
            obf::parse_line::<S8>(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
        let Some(parsed) = parsed else {
            continue;
        };
        let (_, score) = parsed
            .best()
            .unwrap_or_else(|| panic!("{file}:{}: no MOVE:SCORE after the board", i + 1));
        out.push((parsed.position, score));
    }
    out
}

/// The self-play mode: `nums` are POSITIONS, MIN_EMPTIES, MAX_EMPTIES and
/// SEED, each optional.
fn self_play(trained: &Arc<PatternWeights>, nums: &[u64], tally: &mut Tally) {
    let count = nums.first().copied().unwrap_or(100) as usize;
    let lo = nums.get(1).copied().unwrap_or(20) as u32;
    let hi = nums.get(2).copied().unwrap_or(24).max(lo as u64) as u32;
    let seed = nums.get(3).copied().unwrap_or(1);
    let mut rng = Rng::new(seed);
    let stop = AtomicBool::new(false);
    let mut player = Engine::new(16);
    let mut solver = Engine::new(64);
    let mut play = Limits::level(4).expect("level 4");
    play.randomness = 2;
    let mut exact = Limits::level(0).expect("level 0");
    exact.depth = 10;
    exact.exact_empties = 60;
    let mut done = 0;
    while done < count {
        let target = lo + rng.below((hi - lo + 1) as usize) as u32;
        let Some(pos) = game_position(&mut rng, &mut player, &mut play, target, &stop) else {
            continue;
        };
        solver.clear();
        let r = solver
            .search(pos, &exact, &stop, &mut |_| {})
            .expect("a position with moves");
        assert!(r.exact, "the solve finished");
        tally.add(trained, pos, r.score / 100);
        done += 1;
    }
}

/// A position with `empties` empty squares and a move to play, from a game
/// of 6 random moves then the engine; None if the game ended or passed
/// there.
fn game_position(
    rng: &mut Rng,
    engine: &mut Engine,
    limits: &mut Limits,
    empties: u32,
    stop: &AtomicBool,
) -> Option<Position> {
    let mut pos = Position::start();
    engine.clear();
    let mut ply = 0;
    while pos.empties().count() > empties {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            if pos.opponent_moves().is_zero() {
                return None;
            }
            pos = pos.pass();
            continue;
        }
        let sq = if ply < 6 {
            moves.squares().nth(rng.below(moves.count() as usize))?
        } else {
            limits.seed = rng.below(1 << 30) as u64;
            engine.search(pos, limits, stop, &mut |_| {}).ok()?.best?
        };
        pos = pos.play(sq)?;
        ply += 1;
    }
    (!pos.legal_moves().is_zero()).then_some(pos)
}
