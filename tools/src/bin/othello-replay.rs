//! Replays the endgames of an `othello-match --ggf` file with our engine,
//! and scores its moves against the exact values.
//!
//! ```text
//! othello-replay GGF [--games N] [--from 26] [--scored 20] [--odds 1.0] [--verbose]
//! ```
//!
//! In each game, the engine takes the place of the side named `othello...`
//! (our nboard's name in the match). From `--from` empties on, at each of
//! that side's moves, it searches the game's position at level 60 with the
//! time the other side took on its move before (at least 1 ms, times
//! `--odds`), as `othello-match --mirror` gives it, keeping its table from
//! move to move as in a game; the game then goes on with the recorded
//! move. From `--scored` empties on, each chosen move is scored against the
//! exact values of all moves: discs lost, and whether it changes the
//! game's result (win, draw or loss). The recorded times have the GGF's
//! two decimals, so this is a model of the match, not a copy of it; its
//! use is to compare builds or settings on the same positions in a minute,
//! where a match needs hundreds of games to tell them apart.

use clap::Parser;
use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::game::Game;
use othello::notation::{board_string, parse_square};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "othello-replay")]
struct Cli {
    /// Games as `othello-match --ggf` writes them, one a line.
    ggf: String,
    /// Games to replay, from the first.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The empties from which the engine searches (filling its table).
    #[arg(long, default_value_t = 26)]
    from: u32,
    /// The empties from which its moves are scored.
    #[arg(long, default_value_t = 20)]
    scored: u32,
    /// Factor on the mirrored time.
    #[arg(long, default_value_t = 1.0)]
    odds: f64,
    /// Print each scored move.
    #[arg(long)]
    verbose: bool,
}

/// A GGF move: whether black played it, the move ("pa" for a pass) and the
/// seconds it took (0 when not recorded).
struct GgfMove {
    black: bool,
    square: String,
    seconds: f64,
}

/// The moves of a GGF game: `B[...]` and `W[...]`, each `move/eval/time`.
fn ggf_moves(line: &str) -> Vec<GgfMove> {
    let mut moves = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("B[").into_iter().chain(rest.find("W[")).min() {
        let black = rest.as_bytes()[i] == b'B';
        let body = &rest[i + 2..];
        let end = body.find(']').unwrap_or(body.len());
        // BO[...] is the board, not a move.
        if i == 0 || rest.as_bytes()[i - 1] == b']' {
            let mut parts = body[..end].split('/');
            let square = parts.next().unwrap_or("").to_ascii_lowercase();
            let seconds = parts.nth(1).and_then(|t| t.parse().ok()).unwrap_or(0.0);
            moves.push(GgfMove {
                black,
                square,
                seconds,
            });
        }
        rest = &body[end..];
    }
    moves
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cli = Cli::parse();
    let text = std::fs::read_to_string(&cli.ggf).map_err(|e| format!("{}: {e}", cli.ggf))?;
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(64);
    let mut oracle = Engine::new(64);
    let exact = Limits::explicit(8, 60, 60)?;
    let (mut scored, mut lost, mut changed, mut spent) = (0u32, 0i64, 0u32, 0f64);
    for (index, line) in text.lines().take(cli.games).enumerate() {
        let ours_black = line.contains("PB[othello");
        let mut game = Game::<S8>::new();
        engine.clear();
        let mut other_took = 0.0;
        for m in ggf_moves(line) {
            if game.is_game_over() {
                break;
            }
            if m.square == "pa" {
                continue;
            }
            if game.must_pass() {
                game.pass()?;
            }
            let empties = game.position().empties().count();
            if m.black == ours_black && empties <= cli.from {
                let mut limits = Limits::level(60)?;
                let ms = (other_took * 1000.0 * cli.odds).max(1.0);
                limits.time = Some(Duration::from_secs_f64(ms / 1000.0));
                limits.book = false;
                let r = engine.search(game.position(), &limits, &stop, &mut |_| {})?;
                spent += r.elapsed.as_secs_f64();
                if empties <= cli.scored {
                    // Every move's exact value, in discs, best first.
                    oracle.clear();
                    let values = oracle.analyze(game.position(), &exact, &stop)?;
                    let best = values.first().map_or(0, |v| v.score / 100);
                    let played = values
                        .iter()
                        .find(|v| Some(v.square) == r.best)
                        .map_or(best, |v| v.score / 100);
                    let result_changed = played.signum() < best.signum();
                    scored += 1;
                    lost += i64::from(best - played);
                    changed += u32::from(result_changed);
                    if cli.verbose {
                        println!(
                            "game {} {} {empties} empties, {ms:.0} ms: took {:.1} ms, depth {}{}, \
                             score {:+}, lost {}{}",
                            index + 1,
                            board_string(&game),
                            r.elapsed.as_secs_f64() * 1000.0,
                            r.depth,
                            if r.exact {
                                " exact"
                            } else if r.wld {
                                " wld"
                            } else {
                                ""
                            },
                            r.score,
                            best - played,
                            if result_changed {
                                ", result changed"
                            } else {
                                ""
                            }
                        );
                    }
                }
            }
            if m.black != ours_black {
                other_took = m.seconds;
            }
            game.play(parse_square(8, &m.square)?)?;
        }
    }
    println!(
        "{scored} moves scored: {:.3} discs lost a move, {changed} results changed, \
         {spent:.2} s searched",
        lost as f64 / f64::from(scored.max(1))
    );
    Ok(())
}
