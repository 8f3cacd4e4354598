//! A match between two engines that speak NBoard or GTP, e.g. ours against
//! NTest:
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-match -- \
//!     --engine-a "target/examples/nboard --no-book" --depth-a 8 \
//!     --engine-b ANCHORS/ntest/ntest/build/ntest --cwd-b ANCHORS/ntest/run --depth-b 8 \
//!     --xot ../shared/games/xot.txt --openings 20 --seed 1
//! ```
//!
//! See `--help` (the `Cli` docs below) for every option; the library's
//! `arena` module plays the games, `engine` drives the engines (through
//! `nboard` and `gtp`).

use clap::Parser;
use othello::board::Bits;
use othello_tools::arena::{Arena, Clock, Ending, GameResult, Settings, SideTime, Summary, SIDES};
use othello_tools::engine::{EngineSpec, Protocol};
use othello_tools::games::sample_openings;
use othello_tools::openings::RandomOpenings;
use othello_tools::sprt::{Pairs, Sprt, Verdict};

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Plays two engines that speak the NBoard protocol or GTP against each other.
///
/// Each engine is a shell command line (run as `sh -c 'exec COMMAND'`, in
/// --cwd-a/--cwd-b if given). An NBoard engine (the default) is told
/// `nboard 2`, `set depth N` (--depth-a, --depth-b) and any --send-a/--send-b
/// lines, then before each of its moves the whole game as `set game GGF` and
/// `go`; it answers `=== MOVE[/EVAL[/SECONDS]]`. A GTP engine
/// (--protocol-a gtp, --protocol-b gtp: Edax -gtp, our examples/gtp) is asked
/// its `name` and sent the --send lines as GTP commands (it takes no
/// --depth); each game starts with `boardsize 8`, `clear_board` and the
/// opening's moves as `play black f5`, then it is told the other side's moves
/// (`play white d6`, passes as `pass`) and asked `genmove black`. The runner
/// keeps the rules and the score (the othello library), plays the passes,
/// and times every move from `go` or `genmove` to the answer. An engine that
/// exits, hangs past the time it has, answers nonsense (GTP: a `?` to any
/// command but the clock's) or plays an illegal move loses that game (-64
/// discs) and is restarted for the next one.
///
/// Openings: --openings N drawn from the XOT file by --seed (the same seed,
/// the same openings), each played twice, A taking black then white. Or,
/// with --random-plies N instead of --xot, random games of N plies (by
/// --seed), each a different position that our search of --balanced-depth
/// plies (8) scores within --balanced discs (2): where the engine was not
/// tuned.
///
/// Time: without --clock an engine has --move-timeout per move. With
/// --clock T+I each side has T seconds for the game and I more after each
/// move; the GGF it receives carries the clock (TI[m:ss/m:ss]) and every
/// move's time, so it can work out what it has left (GTP: `time_settings
/// T 0 0` at the start, `time_left COLOR SECONDS 0` before each `genmove`,
/// whole seconds rounded down); overrunning loses the game. --mirror sends
/// A, before each of its moves, a line giving it the time B took on its
/// last move (B's mean per move before B has moved in the game,
/// --mirror-first before B has moved at all), so both think equally long
/// if A obeys it (a GTP engine A needs a GTP --mirror-command).
///
/// Prints one line per game, then A's score (wins + draws/2), the Elo
/// difference with its 95% interval (from the scores of game pairs), the
/// disc sum, forfeits, and each side's thinking time as measured and as
/// reported. --sprt ELO0,ELO1 stops the match as soon as a sequential test
/// on the game pairs accepts "A is ELO0 stronger" (H0) or "A is ELO1
/// stronger" (H1), with error rates --sprt-alpha and --sprt-beta (0.05
/// each), --openings being the most it plays.
#[derive(Parser)]
#[command(
    name = "othello-match",
    args_override_self = true,
    verbatim_doc_comment,
    after_long_help = EXAMPLES
)]
struct Cli {
    /// Engine A's command line, e.g. "target/examples/nboard --no-book".
    #[arg(long, value_name = "COMMAND")]
    engine_a: String,
    /// Engine B's command line, e.g. "ANCHORS/ntest/ntest/build/ntest".
    #[arg(long, value_name = "COMMAND")]
    engine_b: String,
    /// The protocol A speaks: nboard or gtp.
    #[arg(long, value_name = "PROTOCOL", default_value = "nboard")]
    protocol_a: Protocol,
    /// The protocol B speaks: nboard or gtp.
    #[arg(long, value_name = "PROTOCOL", default_value = "nboard")]
    protocol_b: Protocol,
    /// Working directory of A.
    #[arg(long, value_name = "DIR")]
    cwd_a: Option<PathBuf>,
    /// Working directory of B (NTest: ANCHORS/ntest/run).
    #[arg(long, value_name = "DIR")]
    cwd_b: Option<PathBuf>,
    /// `set depth N` for A (our nboard: its level; NTest: its depth).
    #[arg(long, value_name = "N")]
    depth_a: Option<u32>,
    /// `set depth N` for B.
    #[arg(long, value_name = "N")]
    depth_b: Option<u32>,
    /// A line sent to A after `nboard 2` and the depth (repeatable), e.g.
    /// "set book 0"; for a GTP engine, a command after `name`.
    #[arg(long, value_name = "LINE")]
    send_a: Vec<String>,
    /// A line sent to B after `nboard 2` and the depth (repeatable).
    #[arg(long, value_name = "LINE")]
    send_b: Vec<String>,
    /// Openings file, one move list a line (as ../shared/games/xot.txt).
    #[arg(long, value_name = "FILE", required_unless_present = "random_plies")]
    xot: Option<String>,
    /// Instead of --xot: random openings of N plies (drawn by --seed), each
    /// a different position that a search of ours scores within
    /// --balanced discs.
    #[arg(long, value_name = "N", conflicts_with = "xot")]
    random_plies: Option<u32>,
    /// The most a random opening may favour a side, in discs.
    #[arg(long, value_name = "D", default_value_t = 2)]
    balanced: u32,
    /// The depth of the search that judges a random opening.
    #[arg(long, value_name = "N", default_value_t = 8)]
    balanced_depth: u32,
    /// Openings to play, each twice with colours swapped.
    #[arg(long, value_name = "N", default_value_t = 10)]
    openings: usize,
    /// Stop when a sequential test decides between A ELO0 and A ELO1
    /// stronger than B (logistic Elo), e.g. 0,20.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The SPRT's false-positive rate (accepting H1 when H0 holds).
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    sprt_alpha: f64,
    /// The SPRT's false-negative rate (accepting H0 when H1 holds).
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    sprt_beta: f64,
    /// Seed of the openings drawn from the file.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Game clock of each side: SECONDS[+INCREMENT] (whole seconds).
    #[arg(long, value_name = "T+I")]
    clock: Option<String>,
    /// Without --clock, seconds a move may take before it loses the game.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    move_timeout: f64,
    /// Seconds an engine may take to start and to answer a ping.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    answer_timeout: f64,
    /// Mirror mode: before each of A's moves, send it --mirror-command
    /// with the time B took on its last move.
    #[arg(long)]
    mirror: bool,
    /// The mirror line; {seconds} becomes B's time (three decimals).
    #[arg(long, value_name = "LINE", default_value = MIRROR_NBOARD)]
    mirror_command: String,
    /// A's time in mirror mode before B has made any move.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
    mirror_first: f64,
    /// Time odds in mirror mode: A is given FACTOR times B's time (to see
    /// how A's strength grows with its time).
    #[arg(long, value_name = "FACTOR", default_value_t = 1.0)]
    mirror_odds: f64,
    /// Append each game to FILE as a GGF line (players, clock, result,
    /// every move's evaluation and time).
    #[arg(long, value_name = "FILE")]
    ggf: Option<String>,
    /// Append each finished game to FILE in the games format of
    /// ../shared/games (moves, black's disc difference).
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// Copy the protocol of both engines (and their stderr) to stderr.
    #[arg(long)]
    verbose: bool,
}

/// NBoard's mirror line, as our nboard reads it.
const MIRROR_NBOARD: &str = "set movetime {seconds}";

const EXAMPLES: &str = "\
Examples, from the repository root after `make -C examples nboard` (ANCHORS:
the folder ../shared/anchors/build.sh built the reference engines in):

  # our level 8 against NTest depth 8, 20 XOT openings x 2 colours
  othello-match --engine-a target/examples/nboard --depth-a 8 \\
      --engine-b ANCHORS/ntest/ntest/build/ntest --cwd-b ANCHORS/ntest/run \\
      --depth-b 8 --xot ../shared/games/xot.txt --openings 20 --seed 1

  # this build against an older one, both level 10 without the book,
  # 100 openings, the games kept
  othello-match --engine-a \"target/examples/nboard --no-book\" \\
      --engine-b \"/tmp/old/nboard --no-book\" --depth-a 10 --depth-b 10 \\
      --xot ../shared/games/xot.txt --openings 100 --ggf /tmp/games.ggf

  # ours over GTP against ours over NBoard (after `make -C examples gtp`);
  # Edax: --engine-b \"stdbuf -oL EDAX -gtp -n 1 -level 2 ...\"
  othello-match --engine-a target/examples/gtp --protocol-a gtp \\
      --engine-b target/examples/nboard --xot ../shared/games/xot.txt

  # the protocol, every line both ways, on stderr
  othello-match ... --openings 1 --verbose 2>protocol.log";

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othello-match: {e}");
            ExitCode::FAILURE
        }
    }
}

fn seconds(what: &str, s: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(s).map_err(|_| format!("{what}: {s} is not a number of seconds"))
}

fn append(path: &str) -> Result<std::fs::File, String> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{path}: {e}"))
}

fn run(cli: Cli) -> Result<(), String> {
    let clock = cli.clock.as_deref().map(Clock::parse).transpose()?;
    let sprt = cli
        .sprt
        .as_deref()
        .map(|s| Sprt::parse(s, cli.sprt_alpha, cli.sprt_beta))
        .transpose()?;
    let settings = Settings {
        move_timeout: seconds("--move-timeout", cli.move_timeout)?,
        answer_timeout: seconds("--answer-timeout", cli.answer_timeout)?,
        clock,
        mirror: cli.mirror.then(|| cli.mirror_command.clone()),
        mirror_first: cli.mirror_first,
        mirror_odds: cli.mirror_odds,
    };
    if !(cli.mirror_odds > 0.0 && cli.mirror_odds <= 1000.0) {
        return Err(format!(
            "--mirror-odds {} is not in (0, 1000]",
            cli.mirror_odds
        ));
    }
    if cli.mirror && !cli.mirror_command.contains("{seconds}") {
        return Err("--mirror-command has no {seconds}".into());
    }
    if cli.mirror && cli.protocol_a == Protocol::Gtp && cli.mirror_command == MIRROR_NBOARD {
        return Err(format!(
            "--mirror: `{MIRROR_NBOARD}` is NBoard's; give the GTP engine A its --mirror-command"
        ));
    }
    let spec =
        |command: &str, protocol, cwd: &Option<PathBuf>, depth, setup: &[String], label: &str| {
            EngineSpec {
                command: command.to_string(),
                protocol,
                cwd: cwd.clone(),
                depth,
                setup: setup.to_vec(),
                verbose: cli.verbose,
                label: label.to_string(),
            }
        };
    let specs = [
        spec(
            &cli.engine_a,
            cli.protocol_a,
            &cli.cwd_a,
            cli.depth_a,
            &cli.send_a,
            "A",
        ),
        spec(
            &cli.engine_b,
            cli.protocol_b,
            &cli.cwd_b,
            cli.depth_b,
            &cli.send_b,
            "B",
        ),
    ];
    let (openings, kind) = match (&cli.xot, cli.random_plies) {
        (Some(xot), _) => (
            sample_openings(xot, cli.openings, cli.seed).map_err(|e| e.to_string())?,
            "XOT openings".to_string(),
        ),
        (None, Some(plies)) => {
            let draw = RandomOpenings {
                plies,
                within: cli.balanced,
                depth: cli.balanced_depth,
                seed: cli.seed,
            };
            (
                draw.draw(cli.openings)?,
                format!(
                    "random {plies}-ply openings within {} discs at depth {}",
                    cli.balanced, cli.balanced_depth
                ),
            )
        }
        (None, None) => return Err("--xot FILE or --random-plies N is needed".into()),
    };
    let mut ggf_out = cli.ggf.as_deref().map(append).transpose()?;
    let mut record_out = cli.record.as_deref().map(append).transpose()?;

    let start = Instant::now();
    let mut arena = Arena::new(specs, settings)?;
    let [a, b] = arena.names().clone();
    println!(
        "A: {a} (`{}`{}), B: {b} (`{}`{}); {} {kind} (seed {}) x 2 colours{}{}",
        cli.engine_a,
        about(cli.protocol_a, cli.depth_a),
        cli.engine_b,
        about(cli.protocol_b, cli.depth_b),
        openings.len(),
        cli.seed,
        clock.map_or(String::new(), |c| format!(
            ", clock {}+{} s",
            c.initial, c.increment
        )),
        if !cli.mirror {
            String::new()
        } else if cli.mirror_odds == 1.0 {
            ", A mirrors B's time".to_string()
        } else {
            format!(", A gets {}x B's time", cli.mirror_odds)
        },
    );
    let mut summary = Summary::default();
    let mut pairs = Pairs::default();
    let mut verdict = Verdict::Continue;
    let total = 2 * openings.len();
    for (i, opening) in openings.iter().enumerate() {
        let mut pair = [0.0; 2];
        for (g, a_black) in [true, false].into_iter().enumerate() {
            let r = arena.play(opening, a_black)?;
            summary.add(&r);
            pair[g] = f64::from(r.a_diff.signum() + 1) / 2.0;
            println!("{}", game_line(summary.games, total, i + 1, &r));
            if let Some(out) = ggf_out.as_mut() {
                writeln!(out, "{}", r.ggf(clock)).map_err(|e| format!("--ggf: {e}"))?;
            }
            if let (Some(out), Some(line)) = (record_out.as_mut(), r.games_line()) {
                writeln!(out, "{line}").map_err(|e| format!("--record: {e}"))?;
            }
        }
        pairs.add(pair[0], pair[1]);
        if let Some(test) = &sprt {
            verdict = test.verdict(&pairs);
            if verdict != Verdict::Continue {
                break;
            }
        }
    }
    let errors = arena.close();
    report(&summary, &errors, start.elapsed());
    println!("{}", elo_line(&pairs));
    if let Some(test) = &sprt {
        println!("{}", sprt_line(test, &pairs, verdict));
    }
    Ok(())
}

/// `Elo +35.0 (+12.1, +58.9), 95%, 200 pairs`.
fn elo_line(pairs: &Pairs) -> String {
    match pairs.elo() {
        Some((elo, low, high)) => format!(
            "Elo {elo:+.1} ({low:+.1}, {high:+.1}), 95%, {} game pairs",
            pairs.n()
        ),
        None => format!("Elo: not yet finite ({} game pairs)", pairs.n()),
    }
}

/// The SPRT's state: its hypotheses, LLR, bounds and verdict.
fn sprt_line(test: &Sprt, pairs: &Pairs, verdict: Verdict) -> String {
    let (lower, upper) = test.bounds();
    let said = match verdict {
        Verdict::H0 => format!("H0 accepted: A is not {} Elo stronger", test.elo1),
        Verdict::H1 => format!("H1 accepted: A is at least {} Elo stronger", test.elo0),
        Verdict::Continue => "no verdict within --openings".to_string(),
    };
    format!(
        "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:.2} in ({lower:.2}, {upper:.2}): {said}",
        test.elo0,
        test.elo1,
        test.alpha,
        test.beta,
        test.llr(pairs)
    )
}

/// `, GTP` and `, depth 8`, as they apply.
fn about(protocol: Protocol, depth: Option<u32>) -> String {
    let gtp = if protocol == Protocol::Gtp {
        ", GTP"
    } else {
        ""
    };
    let depth = depth.map_or(String::new(), |d| format!(", depth {d}"));
    format!("{gtp}{depth}")
}

/// `game 3/40 opening 2 A black: +12 (38-26 black) ...`.
fn game_line(n: usize, total: usize, opening: usize, r: &GameResult) -> String {
    let colour = if r.a_black { "black" } else { "white" };
    let how = match &r.ending {
        Ending::Finished => {
            let black = r.game.discs(othello::Color::Black).count();
            let white = r.game.discs(othello::Color::White).count();
            format!("{black}-{white}")
        }
        Ending::Forfeit { loser, why, .. } => format!("forfeit by {}: {why}", SIDES[*loser]),
    };
    format!(
        "game {n}/{total} opening {opening} A {colour}: A {:+} ({how}); time A {:.2} s, B {:.2} s; {}",
        r.a_diff,
        r.time[0].wall,
        r.time[1].wall,
        othello::notation::transcript(&r.game)
    )
}

fn per_move(t: &SideTime) -> String {
    let mean = if t.moves > 0 {
        t.wall / t.moves as f64
    } else {
        0.0
    };
    format!(
        "{:.1} s over {} moves ({:.3} s/move, longest {:.2} s)",
        t.wall, t.moves, mean, t.max
    )
}

fn report(s: &Summary, errors: &[Vec<String>; 2], elapsed: Duration) {
    println!(
        "{} games: A wins {}, draws {}, losses {}: score {:.3} ({:.1}/{}), disc sum {:+} (mean {:+.2})",
        s.games,
        s.wins,
        s.draws,
        s.losses,
        s.score(),
        s.score() * s.games as f64,
        s.games,
        s.discs,
        if s.games > 0 {
            s.discs as f64 / s.games as f64
        } else {
            0.0
        }
    );
    println!("forfeits: A {}, B {}", s.forfeits[0], s.forfeits[1]);
    let [ta, tb] = &s.time;
    println!("time measured (go to reply): A {}", per_move(ta));
    println!("                             B {}", per_move(tb));
    if tb.wall > 0.0 {
        println!("A/B time {:.2}x", ta.wall / tb.wall);
    }
    let reported = |t: &SideTime| {
        if t.reported_moves == 0 {
            "none".to_string()
        } else {
            format!("{:.1} s over {} moves", t.reported, t.reported_moves)
        }
    };
    println!(
        "time reported by the engines: A {}, B {}",
        reported(ta),
        reported(tb)
    );
    for side in 0..2 {
        if let Some(first) = errors[side].first() {
            println!(
                "engine {} answered {} error lines, the first: {first}",
                SIDES[side],
                errors[side].len()
            );
        }
    }
    println!("{:.0} s", elapsed.as_secs_f64());
}
