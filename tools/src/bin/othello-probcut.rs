//! Samples and fits the Multi-ProbCut error model of the midgame search.
//!
//! ```text
//! othello-probcut sample --text ../shared/games/wthor.txt --every 10 --offset 5 \
//!     --positions 500 --max-depth 10 [--seed 1] [--shard K/N] [--weights FILE] > samples.txt
//! othello-probcut fit samples.txt
//! ```
//!
//! `sample` takes one position per selected game (line numbers `i` with
//! `i % every == offset`, a seeded number of empties in 14..=54), searches it
//! with no selectivity to every depth up to `max-depth` and prints one line
//! per position: its empties, then its value at depths 0 (the static
//! evaluation) to `max-depth`, in centi-discs. Shards (`--shard K/N`: the
//! K-th of every N selected games) concatenate into the same set.
//!
//! `fit` reads such lines and, for each depth `d` from the cut's minimum
//! with its shallow depth `s` (`othello::search::probcut::shallow_depth`),
//! measures the mean and standard deviation of `v_d - v_s` by empties
//! (buckets of 10), then fits `σ = c0 + c1 * empties + c2 * d + c3 * s` by
//! least squares over those buckets (weighted by their sample counts) and
//! prints the constants for `src/search/probcut.rs`.
//!
//! The selective solve's model (`probcut::endgame_sigma`) comes from
//! solved positions instead:
//!
//! ```text
//! othello-label --games ../shared/games/wthor.txt --every 10 --offset 0 --per-game 1 \
//!     --empties 10..=18 --max 2000 --seed 11 --solve exact --hash 16 --out heldout-10-18.obf
//! othello-probcut endgame benches/data/wthor-heldout-20-24-2000.obf heldout-10-18.obf \
//!     --per-empties 300 --max-depth 10 > endgame.txt
//! othello-probcut endgame-fit endgame.txt
//! ```
//!
//! (the held-out games of the built-in weights, `i % 10 == 0`).
//!
//! `endgame` searches each position with no selectivity to every depth up
//! to `max-depth` and prints its empties, its exact score and the values
//! (centi-discs); `endgame-fit` prints the mean and standard deviation of
//! `exact - v_d` by empties and depth, and the line `σ = a + b * d` fitted
//! to the depths from 2 on, all empties pooled.

use clap::{Parser, Subcommand};
use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::eval::{Evaluate, Evaluator};
use othello::obf;
use othello::rng::Rng;
use othello::search::probcut::{shallow_depth, EXACT_SELECTIVITY, FIT_MIN_DEPTH};
use othello::Position;
use othello_tools::args::{evaluator, parse_shard};
use othello_tools::games::read;
use std::io::Write;
use std::sync::atomic::AtomicBool;

#[derive(Parser)]
#[command(name = "othello-probcut")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Searches positions of real games to every depth and prints the values.
    Sample {
        /// A text game collection (../shared/games format).
        #[arg(long, value_name = "FILE")]
        text: String,
        /// Take the games whose 0-based line number i has i % every == offset.
        #[arg(long, default_value_t = 10)]
        every: usize,
        #[arg(long, default_value_t = 5)]
        offset: usize,
        /// Positions to sample (one per game).
        #[arg(long, default_value_t = 500)]
        positions: usize,
        /// The deepest search.
        #[arg(long, default_value_t = 10)]
        max_depth: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// This process's part: the K-th of every N selected games (1-based).
        #[arg(long, value_name = "K/N", value_parser = parse_shard, default_value = "1/1")]
        shard: (usize, usize),
        /// A weights file; the library's built-in weights by default.
        #[arg(long, value_name = "FILE")]
        weights: Option<String>,
    },
    /// Searches solved positions (`.obf` lines with their exact score) to
    /// every depth and prints, per position, its empties, its exact score
    /// and the values, all in centi-discs: the samples of the selective
    /// endgame search's model.
    Endgame {
        /// `.obf` files of solved positions (`othello-label --solve exact`).
        #[arg(required = true)]
        files: Vec<String>,
        /// At most this many positions of each number of empties.
        #[arg(long, default_value_t = 400)]
        per_empties: usize,
        /// The deepest search.
        #[arg(long, default_value_t = 8)]
        max_depth: u32,
        /// A weights file; the library's built-in weights by default.
        #[arg(long, value_name = "FILE")]
        weights: Option<String>,
    },
    /// Fits the selective solve's model to `endgame` lines.
    EndgameFit {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Fits the error model to sample lines and prints its constants.
    Fit {
        /// Files of `sample` output.
        #[arg(required = true)]
        files: Vec<String>,
    },
}

fn main() {
    match Cli::parse().command {
        Command::Sample {
            text,
            every,
            offset,
            positions,
            max_depth,
            seed,
            shard,
            weights,
        } => sample(
            &text, every, offset, positions, max_depth, seed, shard, weights,
        ),
        Command::Endgame {
            files,
            per_empties,
            max_depth,
            weights,
        } => endgame(&files, per_empties, max_depth, weights),
        Command::EndgameFit { files } => endgame_fit(&files),
        Command::Fit { files } => fit(&files),
    }
}

#[allow(clippy::too_many_arguments)]
fn sample(
    text: &str,
    every: usize,
    offset: usize,
    positions: usize,
    max_depth: u32,
    seed: u64,
    (k, n): (usize, usize),
    weights: Option<String>,
) {
    let games = read(text, |i| i % every.max(1) == offset).unwrap_or_else(|e| panic!("{e}"));
    let mut searches = DepthValues::new(max_depth, weights.as_deref());
    let out = std::io::stdout();
    let mut out = out.lock();
    for (ordinal, (line, game)) in games.iter().enumerate().take(positions) {
        // Every game draws its empties from its own stream, so shards agree.
        let mut rng = Rng::new(seed ^ (*line as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let target = 14 + rng.below(41) as u32;
        if ordinal % n != k - 1 {
            continue;
        }
        let Some(&(pos, _, _)) = game
            .positions()
            .iter()
            .find(|(p, _, _)| p.empties().count() <= target)
        else {
            continue;
        };
        let values = searches.of(pos);
        let empties = pos.empties().count();
        writeln!(out, "{empties} {values}").expect("stdout");
    }
}

/// Searches with no cuts to every depth up to a maximum, each position
/// from a cleared engine: the values of `sample` and `endgame` lines.
struct DepthValues {
    eval: Evaluator,
    engine: Engine,
    /// To the deepest depth; each search takes its own depth from it.
    limits: Limits,
    stop: AtomicBool,
}

impl DepthValues {
    /// Up to `max_depth`, with the evaluation `weights` (None: built in).
    fn new(max_depth: u32, weights: Option<&str>) -> DepthValues {
        let eval = evaluator(weights.unwrap_or("builtin"));
        let mut engine = Engine::new(64);
        engine.set_evaluator(eval.clone());
        let mut limits = Limits::explicit(max_depth.into(), 0, 0).expect("valid depth");
        limits.selectivity = EXACT_SELECTIVITY;
        DepthValues {
            eval,
            engine,
            limits,
            stop: AtomicBool::new(false),
        }
    }

    /// The values of `pos` by depth, space-separated: the static
    /// evaluation, then each depth's (centi-discs). A search deepens two
    /// plies at a time, so each depth is a search of its own, on the table
    /// the shallower ones filled.
    fn of(&mut self, pos: Position<S8>) -> String {
        self.engine.clear();
        let mut values = vec![Evaluate::<S8>::evaluate(
            &self.eval,
            pos.player,
            pos.opponent,
        )];
        for depth in 1..=self.limits.depth {
            let limits = Limits {
                depth,
                ..self.limits
            };
            let r = self
                .engine
                .search(pos, &limits, &self.stop, &mut |_| {})
                .expect("a position with moves");
            // A depth that reaches the end is the solver's: no sample.
            if r.exact {
                break;
            }
            values.push(r.score);
        }
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        values.join(" ")
    }
}

/// The lines of whitespace-separated integers of `files` (sample output).
fn number_lines(files: &[String]) -> Vec<Vec<i32>> {
    let mut lines = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        for (i, line) in text.lines().enumerate() {
            lines.push(
                line.split_whitespace()
                    .map(|x| x.parse().unwrap_or_else(|e| panic!("{f}:{}: {e}", i + 1)))
                    .collect(),
            );
        }
    }
    lines
}

fn endgame(files: &[String], per_empties: usize, max_depth: u32, weights: Option<String>) {
    let mut searches = DepthValues::new(max_depth, weights.as_deref());
    let mut taken = [0usize; 65];
    let out = std::io::stdout();
    let mut out = out.lock();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        for line in obf::parse::<S8>(&text).unwrap_or_else(|e| panic!("{f}:{e}")) {
            let Some((_, exact)) = line.best() else {
                continue;
            };
            let empties = line.position.empties().count();
            if taken[empties as usize] >= per_empties || empties <= max_depth {
                continue;
            }
            taken[empties as usize] += 1;
            let values = searches.of(line.position);
            writeln!(out, "{empties} {} {values}", exact * 100).expect("stdout");
        }
    }
}

/// Count, sum and sum of squares of some residuals.
type Moment = (f64, f64, f64);

fn add(m: &mut Moment, r: f64) {
    m.0 += 1.0;
    m.1 += r;
    m.2 += r * r;
}

/// The mean and standard deviation of a moment's residuals.
fn spread(&(c, sum, sq): &Moment) -> (f64, f64) {
    let mean = sum / c;
    (mean, (sq / c - mean * mean).max(0.0).sqrt())
}

fn endgame_fit(files: &[String]) {
    // By (empties, depth), and by depth over every empties.
    let mut cells = std::collections::BTreeMap::<(u32, usize), Moment>::new();
    let mut pooled = std::collections::BTreeMap::<usize, Moment>::new();
    for nums in number_lines(files) {
        let (empties, exact) = (nums[0] as u32, nums[1]);
        for (d, &v) in nums[2..].iter().enumerate() {
            let r = (exact - v) as f64 / 100.0;
            add(cells.entry((empties, d)).or_default(), r);
            add(pooled.entry(d).or_default(), r);
        }
    }
    println!("empties depth  count   mean  sigma");
    for (&(empties, d), m) in &cells {
        let (mean, sigma) = spread(m);
        println!("{empties:>7} {d:>5} {:>6} {mean:>6.2} {sigma:>6.2}", m.0);
    }
    // Least squares of sigma on (1, d) over the depths from 2, by count.
    let (mut s, mut sd, mut sdd, mut sy, mut sdy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (&d, m) in pooled.range(2..) {
        let (c, d, sigma) = (m.0, d as f64, spread(m).1);
        println!("depth {d}: sigma {sigma:.2} over {c}");
        s += c;
        sd += c * d;
        sdd += c * d * d;
        sy += c * sigma;
        sdy += c * d * sigma;
    }
    let b = (s * sdy - sd * sy) / (s * sdd - sd * sd);
    let a = (sy - b * sd) / s;
    println!("sigma = {a:.2} {b:+.3} * depth");
}

/// Per (depth, empties bucket): count, sum and sum of squares of the
/// residuals `v_d - v_shallow(d)` in discs.
type Moments = std::collections::BTreeMap<(u32, u32), Moment>;

fn fit(files: &[String]) {
    let mut m = Moments::new();
    for nums in number_lines(files) {
        let (empties, values) = (nums[0] as u32, &nums[1..]);
        for d in FIT_MIN_DEPTH..values.len() as u32 {
            let s = shallow_depth(d);
            let r = (values[d as usize] - values[s as usize]) as f64 / 100.0;
            add(m.entry((d, empties / 10)).or_default(), r);
        }
    }
    println!("depth shallow empties  count   mean  sigma");
    // Least squares on (1, empties, d, s) -> sigma, weighted by count.
    let mut ata = [[0f64; 4]; 4];
    let mut atb = [0f64; 4];
    for (&(d, bucket), moment) in &m {
        let c = moment.0;
        let (mean, sigma) = spread(moment);
        let s = shallow_depth(d);
        let empties = bucket as f64 * 10.0 + 5.0;
        println!(
            "{d:>5} {s:>7} {:>3}-{:<3} {c:>6} {mean:>6.2} {sigma:>6.2}",
            bucket * 10,
            bucket * 10 + 9
        );
        if c < 20.0 {
            continue;
        }
        let x = [1.0, empties, d as f64, s as f64];
        for a in 0..4 {
            atb[a] += c * x[a] * sigma;
            for b in 0..4 {
                ata[a][b] += c * x[a] * x[b];
            }
        }
    }
    let coef = solve4(ata, atb);
    println!(
        "const C0: f32 = {:.3};\nconst C_EMPTIES: f32 = {:.4};\nconst C_DEPTH: f32 = {:.4};\nconst C_SHALLOW: f32 = {:.4};",
        coef[0], coef[1], coef[2], coef[3]
    );
}

/// Solves the 4x4 system by Gaussian elimination with partial pivoting.
fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> [f64; 4] {
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("rows");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..4 {
            let f = a[row][col] / pivot_row[col];
            for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0f64; 4];
    for row in (0..4).rev() {
        let s: f64 = (row + 1..4).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x
}
