//! `othello-match` against real engines: copies of `examples/nboard.c` and
//! `examples/gtp.c` (compiled here against the static library cargo built
//! for this test run) at low levels, and shell scripts standing in for
//! NBoard engines that crash, hang, overrun a clock or play an illegal
//! move, and for GTP engines that fail a command or play an illegal move.
//! Nothing here needs NTest, Zebra or Edax.

use othello::board::{Bits, S8};
use othello::notation::{parse_transcript, transcript};
use othello::Color;
use othello_tools::arena::{Arena, Clock, Ending, GameResult, Settings, Summary};
use othello_tools::engine::{EngineSpec, Protocol};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// Two XOT openings (the first two lines of ../shared/games/xot.txt).
const OPENINGS: [&str; 2] = ["f5d6c4d3c2b3b4b5", "f5f4g3g6f3g4e3e2"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tools/ is in the workspace")
        .to_path_buf()
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("othello-match");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

/// `examples/NAME.c` linked to the `libothello.a` beside this test's
/// executable (cargo builds every crate type of the dependency there).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable");
    let deps = exe.parent().expect("target/<profile>/deps");
    let lib = deps.join("libothello.a");
    assert!(lib.is_file(), "{} not built", lib.display());
    let out = tmp(name);
    let root = root();
    let status = Command::new("cc")
        .args(["-std=c11", "-O2", "-pthread", "-I"])
        .arg(root.join("include"))
        .arg(root.join(format!("examples/{name}.c")))
        .arg(&lib)
        .args([
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
            "-o",
        ])
        .arg(&out)
        .status()
        .expect("cc runs");
    assert!(status.success(), "compiling examples/{name}.c failed");
    out
}

fn nboard() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| example("nboard"))
}

fn gtp() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| example("gtp"))
}

fn ours(label: &str, depth: u32) -> EngineSpec {
    EngineSpec {
        command: format!("{} --no-book --hash 4", nboard().display()),
        depth: Some(depth),
        label: label.into(),
        ..EngineSpec::default()
    }
}

/// A shell "engine": `go_reply` is the shell code run for `go`; it
/// answers pings and quits like an engine.
fn script(label: &str, go_reply: &str) -> EngineSpec {
    let body = format!(
        "while read -r c n; do case $c in ping) echo \"pong $n\";; \
         nboard) echo \"set myname {label}-script\";; go) {go_reply};; quit) exit;; esac; done"
    );
    // Tests run in parallel: each script its own file.
    static SCRIPTS: AtomicUsize = AtomicUsize::new(0);
    let n = SCRIPTS.fetch_add(1, Ordering::Relaxed);
    let path = tmp(&format!("engine-{label}-{n}.sh"));
    std::fs::write(&path, body).expect("the script is written");
    EngineSpec {
        command: format!("sh {}", path.display()),
        label: label.into(),
        ..EngineSpec::default()
    }
}

/// A shell GTP "engine" that appends every command it reads to `log`:
/// `genmove` runs `genmove_reply` (shell code; `$id` is the command's id,
/// `$n` counts the genmoves), `time_settings` fails, everything else
/// succeeds, in the forms real engines write (`= ID` as Edax does, a stray
/// line before an answer).
fn gtp_script(label: &str, log: &Path, genmove_reply: &str) -> EngineSpec {
    let body = format!(
        "n=0\n\
         while read -r id cmd args; do\n\
         echo \"$id $cmd $args\" >> {log}\n\
         case $cmd in\n\
         name) printf '=%s {label}-gtp\\n\\n' \"$id\";;\n\
         clear_board) echo '*** SEARCH STILL RUNNING ? ***'; printf '= %s\\n\\n' \"$id\";;\n\
         time_settings) printf '?%s unknown command\\n\\n' \"$id\";;\n\
         genmove) n=$((n + 1)); {genmove_reply};;\n\
         quit) printf '=%s\\n\\n' \"$id\"; exit;;\n\
         *) printf '=%s \\n\\n' \"$id\";;\n\
         esac\n\
         done\n",
        log = log.display()
    );
    static SCRIPTS: AtomicUsize = AtomicUsize::new(0);
    let n = SCRIPTS.fetch_add(1, Ordering::Relaxed);
    let path = tmp(&format!("gtp-{label}-{n}.sh"));
    std::fs::write(&path, body).expect("the script is written");
    EngineSpec {
        command: format!("sh {}", path.display()),
        protocol: Protocol::Gtp,
        label: label.into(),
        ..EngineSpec::default()
    }
}

fn openings() -> Vec<othello::Game<S8>> {
    OPENINGS
        .iter()
        .map(|o| parse_transcript::<S8>(o).expect("an opening"))
        .collect()
}

/// A game that was played out: legal from the opening to the end, and
/// its result is the final disc count's.
fn check_finished(r: &GameResult, opening: &str) {
    assert_eq!(r.ending, Ending::Finished);
    assert!(r.game.is_game_over());
    let moves = transcript(&r.game);
    assert!(moves.starts_with(opening), "{moves}");
    // The transcript replays under the rules to the same end.
    let replayed = parse_transcript::<S8>(&moves).expect("a legal game");
    assert_eq!(replayed.position(), r.game.position());
    assert!(replayed.is_game_over());
    let black = r.game.discs(Color::Black).count() as i32;
    let white = r.game.discs(Color::White).count() as i32;
    let empty = 64 - black - white;
    let black_diff = match black.cmp(&white) {
        std::cmp::Ordering::Greater => black - white + empty,
        std::cmp::Ordering::Less => black - white - empty,
        std::cmp::Ordering::Equal => 0,
    };
    assert_eq!(r.black_diff(), black_diff);
    assert_eq!(r.a_diff, if r.a_black { black_diff } else { -black_diff });
    // Every turn after the opening was an engine's, but the passes.
    assert_eq!(r.turns.len(), r.game.plies());
    let engine_moves = r.turns.iter().filter(|t| t.by.is_some()).count();
    assert_eq!(engine_moves, r.time[0].moves + r.time[1].moves);
    // Colours: A moves as black on the even plies after the 8-ply opening.
    for (i, t) in r.turns.iter().enumerate().skip(8) {
        if let Some(side) = t.by {
            let black_to_move = i % 2 == 0;
            assert_eq!(side == 0, black_to_move == r.a_black, "turn {i}");
        }
    }
}

#[test]
fn two_nboards_play_both_colours_of_each_opening() {
    let settings = Settings {
        clock: Some(Clock {
            initial: 60,
            increment: 1,
        }),
        ..Settings::default()
    };
    let mut arena = Arena::new([ours("A", 2), ours("B", 3)], settings).expect("both start");
    assert_eq!(
        arena.names(),
        &["othello2".to_string(), "othello3".to_string()]
    );
    let mut results = Vec::new();
    for (opening, text) in openings().iter().zip(OPENINGS) {
        for a_black in [true, false] {
            let r = arena.play(opening, a_black).expect("a game");
            assert_eq!(r.a_black, a_black);
            check_finished(&r, text);
            let ggf = r.ggf(Some(Clock {
                initial: 60,
                increment: 1,
            }));
            assert!(ggf.contains("TI[1:00/0:01]"), "{ggf}");
            let re = format!("RE[{:+.2}]", f64::from(r.black_diff()));
            assert!(ggf.contains(&re), "{re}: {ggf}");
            let players = if a_black {
                "PB[othello2]PW[othello3]"
            } else {
                "PB[othello3]PW[othello2]"
            };
            assert!(ggf.contains(players), "{ggf}");
            results.push(r);
        }
    }
    let errors = arena.close();
    assert_eq!(errors, [Vec::<String>::new(), Vec::new()]);
    let s = Summary::of(&results);
    assert_eq!(s.games, 4);
    assert_eq!(s.wins + s.draws + s.losses, 4);
    assert_eq!(s.discs, results.iter().map(|r| i64::from(r.a_diff)).sum());
    assert_eq!(s.forfeits, [0, 0]);
    assert!(s.time[0].moves >= 4 * 10 && s.time[1].moves >= 4 * 10);
    assert!((0.0..=1.0).contains(&s.score()));
}

#[test]
fn crashes_hangs_overruns_and_illegal_moves_lose_the_game() {
    let opening = &openings()[0];
    let short = Settings {
        move_timeout: Duration::from_millis(500),
        answer_timeout: Duration::from_secs(10),
        ..Settings::default()
    };
    let cases = [
        ("crash", script("B", "exit 3"), short.clone(), false),
        ("hang", script("B", "sleep 5"), short.clone(), true),
        // d4 is never empty.
        (
            "illegal",
            script("B", "echo \"=== D4/0/0\""),
            short.clone(),
            false,
        ),
        (
            "clock",
            script("B", "sleep 2; echo \"=== PA\""),
            Settings {
                clock: Some(Clock {
                    initial: 1,
                    increment: 0,
                }),
                ..short.clone()
            },
            true,
        ),
    ];
    for (what, b, settings, on_time) in cases {
        let mut arena = Arena::new([ours("A", 1), b], settings).expect("both start");
        // Twice: the failed engine is started afresh for the second game.
        for a_black in [true, false] {
            let r = arena.play(opening, a_black).expect("a game, forfeited");
            match &r.ending {
                Ending::Forfeit {
                    loser,
                    on_time: t,
                    why,
                } => {
                    assert_eq!((*loser, *t), (1, on_time), "{what}: {why}");
                    assert!(why.starts_with("engine B "), "{what}: {why}");
                }
                e => panic!("{what}: {e:?}"),
            }
            assert_eq!(r.a_diff, 64, "{what}");
            assert!(r.games_line().is_none());
            // A won: +64 for black when A had black.
            let re = match (a_black, on_time) {
                (true, true) => "RE[+64.00:t]",
                (true, false) => "RE[+64.00:r]",
                (false, true) => "RE[-64.00:t]",
                (false, false) => "RE[-64.00:r]",
            };
            assert!(r.ggf(None).contains(re), "{what}: {re}");
        }
        arena.close();
    }
}

#[test]
fn an_engine_that_cannot_start_is_an_error() {
    let bad = EngineSpec {
        command: "true".into(),
        label: "B".into(),
        ..EngineSpec::default()
    };
    let e = Arena::new([ours("A", 1), bad], Settings::default())
        .err()
        .expect("B fails");
    assert!(e.starts_with("engine B (`true`) exited"), "{e}");
}

#[test]
fn the_binary_reports_records_and_mirrors() {
    let xot = tmp("xot.txt");
    std::fs::write(&xot, OPENINGS.join("\n") + "\n").expect("openings written");
    let log = tmp("mirror-a.log");
    let _ = std::fs::remove_file(&log);
    let (ggf, record) = (tmp("games.ggf"), tmp("games.txt"));
    for f in [&ggf, &record] {
        let _ = std::fs::remove_file(f);
    }
    let engine = format!("{} --no-book --hash 4", nboard().display());
    let out = Command::new(env!("CARGO_BIN_EXE_othello-match"))
        .arg("--engine-a")
        .arg(format!("tee {} | {engine}", log.display()))
        .arg("--engine-b")
        .arg(&engine)
        .args([
            "--depth-a",
            "1",
            "--depth-b",
            "2",
            "--openings",
            "1",
            "--seed",
            "7",
        ])
        .arg("--xot")
        .arg(&xot)
        .args(["--mirror", "--mirror-first", "0.5"])
        .arg("--ggf")
        .arg(&ggf)
        .arg("--record")
        .arg(&record)
        .output()
        .expect("othello-match runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("game 1/2 opening 1 A black"), "{stdout}");
    assert!(stdout.contains("game 2/2 opening 1 A white"), "{stdout}");
    assert!(stdout.contains("2 games: A wins"), "{stdout}");
    assert!(stdout.contains("forfeits: A 0, B 0"), "{stdout}");
    // Both games in both files; the games-format lines replay.
    let ggf = std::fs::read_to_string(&ggf).expect("--ggf written");
    assert_eq!(ggf.lines().count(), 2);
    let record = std::fs::read_to_string(&record).expect("--record written");
    assert_eq!(record.lines().count(), 2);
    for line in record.lines() {
        let g = othello_tools::games::parse_line(line).expect("a games-format line");
        assert!(g.game.is_game_over());
    }
    // A was told a time before each of its moves: first --mirror-first (B
    // had not moved yet), then what B took.
    let sent = std::fs::read_to_string(&log).expect("A's input");
    let times: Vec<f64> = sent
        .lines()
        .filter_map(|l| l.strip_prefix("set movetime "))
        .map(|t| t.parse().expect("seconds"))
        .collect();
    let gos = sent.lines().filter(|l| *l == "go").count();
    assert_eq!(times.len(), gos);
    assert!(gos >= 20);
    assert_eq!(times[0], 0.5);
    assert!(times.iter().all(|&t| (0.0..5.0).contains(&t)));
}

#[test]
fn gtp_engines_are_told_the_game_and_lose_on_a_failure_or_an_illegal_move() {
    let opening = &openings()[0];
    // The GTP script has black and moves first, its first move legal.
    let legal = opening.legal_moves().squares().next().expect("a move");
    let first = othello::notation::square_name(8, legal);
    let settings = Settings {
        clock: Some(Clock {
            initial: 60,
            increment: 0,
        }),
        ..Settings::default()
    };
    let cases = [
        (
            "failure",
            r#"printf '?%s cannot\n\n' "$id""#,
            "`genmove black`: ? cannot",
        ),
        // d4 is never empty.
        ("illegal", r#"printf '=%s d4\n\n' "$id""#, "played d4"),
        ("crash", "exit 3", "exited"),
    ];
    for (what, second, why_part) in cases {
        let log = tmp(&format!("gtp-{what}.log"));
        let _ = std::fs::remove_file(&log);
        let reply =
            format!(r#"if [ $n = 1 ]; then printf '= %s {first}\n\n' "$id"; else {second}; fi"#);
        let b = gtp_script("B", &log, &reply);
        let mut arena = Arena::new([ours("A", 1), b], settings.clone()).expect("both start");
        assert_eq!(arena.names()[1], "B-gtp");
        let r = arena.play(opening, false).expect("a game, forfeited");
        match &r.ending {
            Ending::Forfeit {
                loser: 1,
                on_time: false,
                why,
            } => {
                assert!(why.starts_with("engine B "), "{what}: {why}");
                assert!(why.contains(why_part), "{what}: {why}");
            }
            e => panic!("{what}: {e:?}"),
        }
        assert_eq!(r.a_diff, 64);
        // B's first move was played, then A's.
        assert_eq!(r.turns.len(), 10, "{what}");
        assert_eq!(
            (r.turns[8].mv, r.turns[8].by),
            (othello::game::Move::Play(legal), Some(1))
        );
        assert_eq!(r.turns[9].by, Some(0));
        let answer = othello::notation::transcript(&r.game)[18..20].to_string();
        let errors = arena.close();
        // The `?` to time_settings is noted, not a forfeit.
        assert_eq!(errors[1], ["`time_settings 60 0 0`: ? unknown command"]);
        // What B was sent: the game set up, the opening, then each move
        // after a time_left.
        let sent = std::fs::read_to_string(&log).expect("B's log");
        let lines: Vec<&str> = sent.lines().collect();
        let mut expected = vec![
            "1 name ".to_string(),
            "2 boardsize 8".into(),
            "3 clear_board ".into(),
            "4 time_settings 60 0 0".into(),
        ];
        for (i, mv) in OPENINGS[0].as_bytes().chunks(2).enumerate() {
            let colour = if i % 2 == 0 { "black" } else { "white" };
            let mv = std::str::from_utf8(mv).expect("ascii");
            expected.push(format!("{} play {colour} {mv}", i + 5));
        }
        expected.push("13 time_left black 60 0".into());
        expected.push("14 genmove black".into());
        expected.push(format!("15 play white {answer}"));
        // B's clock, whole seconds rounded down: below 60 after its move.
        let left = lines.get(15).expect("a time_left");
        assert!(
            left.starts_with("16 time_left black 5") && left.ends_with(" 0"),
            "{left}"
        );
        expected.push(left.to_string());
        expected.push("17 genmove black".into());
        if what == "illegal" {
            // Not restarted for an illegal move: it is told to quit.
            expected.push("18 quit ".into());
        }
        assert_eq!(lines, expected, "{what}");
    }
}

#[test]
fn a_gtp_engine_takes_no_depth() {
    let log = tmp("gtp-depth.log");
    let b = EngineSpec {
        depth: Some(4),
        ..gtp_script("B", &log, "exit")
    };
    let e = Arena::new([ours("A", 1), b], Settings::default())
        .err()
        .expect("B fails");
    assert!(e.contains("NBoard's `set depth`"), "{e}");
}

#[test]
fn ours_over_gtp_plays_ours_over_nboard() {
    let gtp_spec = EngineSpec {
        command: format!("{} --level 2 --no-book --hash 4", gtp().display()),
        protocol: Protocol::Gtp,
        label: "A".into(),
        ..EngineSpec::default()
    };
    let settings = Settings {
        clock: Some(Clock {
            initial: 60,
            increment: 1,
        }),
        ..Settings::default()
    };
    let mut arena = Arena::new([gtp_spec, ours("B", 2)], settings).expect("both start");
    assert_eq!(
        arena.names(),
        &["othello".to_string(), "othello2".to_string()]
    );
    let mut results = Vec::new();
    for (opening, text) in openings().iter().zip(OPENINGS) {
        for a_black in [true, false] {
            let r = arena.play(opening, a_black).expect("a game");
            check_finished(&r, text);
            results.push(r);
        }
    }
    let errors = arena.close();
    assert_eq!(errors, [Vec::<String>::new(), Vec::new()]);
    let s = Summary::of(&results);
    assert_eq!((s.games, s.forfeits), (4, [0, 0]));
    assert!(s.time[0].moves >= 4 * 10 && s.time[1].moves >= 4 * 10);
}

/// Sixteen openings of one or two moves.
const SPRT_OPENINGS: [&str; 16] = [
    "f5", "d3", "c4", "e6", "f5d6", "f5f6", "f5f4", "d3c3", "d3c5", "d3e3", "c4c3", "c4c5", "c4e3",
    "e6f6", "e6f4", "e6d6",
];

#[test]
fn sprt_stops_a_match_that_has_decided() {
    let xot = tmp("xot-sprt.txt");
    std::fs::write(&xot, SPRT_OPENINGS.join("\n") + "\n").expect("openings written");
    let ours = format!("{} --no-book --hash 4", nboard().display());
    // An engine that always answers a1, which is never legal this early:
    // it forfeits every game.
    let forfeits = script("sprt", "echo '=== a1'").command;
    for (a, b, verdict, wins) in [
        (&ours, &forfeits, "H1 accepted", "A wins 16"),
        (&forfeits, &ours, "H0 accepted", "A wins 0"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_othello-match"))
            .args(["--engine-a", a, "--engine-b", b])
            .args(["--depth-a", "1", "--depth-b", "1", "--openings", "16"])
            .args(["--seed", "3", "--sprt", "0,35"])
            .arg("--xot")
            .arg(&xot)
            .output()
            .expect("othello-match runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        // Eight pairs, all won or all lost, decide (tools/src/sprt.rs).
        assert!(stdout.contains(&format!("16 games: {wins}")), "{stdout}");
        assert!(stdout.contains(verdict), "{stdout}");
        assert!(
            stdout.contains("Elo: not yet finite (8 game pairs)"),
            "{stdout}"
        );
        assert!(stdout.contains("SPRT elo0 0 elo1 35"), "{stdout}");
    }
    // Bad settings are refused before any game.
    let out = Command::new(env!("CARGO_BIN_EXE_othello-match"))
        .args(["--engine-a", &ours, "--engine-b", &ours, "--sprt", "10,0"])
        .arg("--xot")
        .arg(&xot)
        .output()
        .expect("othello-match runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--sprt"));
}

#[test]
fn random_balanced_openings_instead_of_xot() {
    let ours = format!("{} --no-book --hash 4", nboard().display());
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_othello-match"))
            .args(["--engine-a", &ours, "--engine-b", &ours])
            .args(["--depth-a", "1", "--depth-b", "1", "--openings", "2"])
            .args(["--seed", "9"])
            .args(extra)
            .output()
            .expect("othello-match runs")
    };
    let out = run(&[
        "--random-plies",
        "6",
        "--balanced",
        "3",
        "--balanced-depth",
        "4",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("2 random 6-ply openings within 3 discs at depth 4 (seed 9)"),
        "{stdout}"
    );
    assert!(stdout.contains("4 games: A wins"), "{stdout}");
    // Each game line starts from a 6-ply opening: the same one twice.
    let games: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0][..12], games[1][..12]);
    assert_ne!(games[0][..12], games[2][..12]);
    // Neither openings nor both: refused.
    assert!(!run(&[]).status.success());
    let both = run(&["--random-plies", "6", "--xot", "/nonexistent"]);
    assert!(!both.status.success());
}
