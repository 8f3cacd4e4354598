//! Matches between two engines (`othello-match`), each speaking NBoard or
//! GTP ([`crate::engine`]): openings played out twice with colours swapped,
//! the rules and the score kept by the library's [`Game`], each move timed
//! by the runner.
//!
//! An NBoard engine is told the whole game before every move (`set game
//! GGF`: the start position, every move with its evaluation and the time
//! the runner measured, `PA` for passes) and asked with `go`; a GTP engine
//! is told the moves it has not seen (`play`) and asked with `genmove`.
//! With a game clock the GGF carries it as `TI[m:ss/m:ss]` (time/increment,
//! GGF's thinking time for both players), from which an engine finds its
//! remaining time, and GTP has `time_settings` and `time_left`; one that
//! overruns its clock loses the game. An engine that exits, stops
//! answering, answers nonsense (GTP: any `?` but to the clock commands) or
//! plays an illegal move loses the game too (scored -64 for it); but for
//! an illegal move, it is started afresh for the next one.

use crate::engine::{Ask, ClockNow, Engine, EngineError, EngineSpec, Reply};
use othello::board::S8;
use othello::game::{Game, Move};
use othello::notation::{board_string, square_name, transcript};
use othello::{Color, Position};

use std::fmt::Write as _;
use std::time::Duration;

/// The two sides: A (the engine measured) and B (its sparring partner).
pub const SIDES: [&str; 2] = ["A", "B"];

/// A game clock: `initial` seconds, `increment` more after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub initial: u32,
    pub increment: u32,
}

impl Clock {
    /// `SECONDS[+INCREMENT]`, whole seconds (GGF's clock has no fractions).
    pub fn parse(text: &str) -> Result<Clock, String> {
        let bad = || format!("{text:?}: the clock is SECONDS[+INCREMENT], as 60+1");
        let (t, i) = text.split_once('+').unwrap_or((text, "0"));
        let initial: u32 = t.trim().parse().map_err(|_| bad())?;
        let increment: u32 = i.trim().parse().map_err(|_| bad())?;
        if initial == 0 {
            return Err(format!("{text:?}: a clock of 0 seconds"));
        }
        Ok(Clock { initial, increment })
    }

    /// GGF's `TI` value: `m:ss/m:ss`.
    pub fn ggf(&self) -> String {
        let t = |s: u32| format!("{}:{:02}", s / 60, s % 60);
        format!("{}/{}", t(self.initial), t(self.increment))
    }
}

/// How the match is played, beyond the engines.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Without a clock: the longest a move may take before it is lost.
    pub move_timeout: Duration,
    /// Startup and every `ping`: the longest an engine may take to answer.
    pub answer_timeout: Duration,
    pub clock: Option<Clock>,
    /// Mirror mode: sent to A before each of its moves, `{seconds}` replaced
    /// by the time B took on its last move (`set movetime {seconds}`).
    pub mirror: Option<String>,
    /// A's time in mirror mode before B has moved at all.
    pub mirror_first: f64,
    /// Mirror mode's time odds: A's time is this many times B's.
    pub mirror_odds: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            move_timeout: Duration::from_secs(600),
            answer_timeout: Duration::from_secs(60),
            clock: None,
            mirror: None,
            mirror_first: 1.0,
            mirror_odds: 1.0,
        }
    }
}

/// One turn of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turn {
    pub mv: Move,
    /// Who chose it: `Some(0)` A, `Some(1)` B; `None` for the opening's
    /// moves and for passes (which the runner plays).
    pub by: Option<usize>,
    pub eval: Option<f64>,
    /// Seconds from `go` to the reply, as the runner measured them.
    pub wall: f64,
    /// Seconds the engine said it took.
    pub reported: Option<f64>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Played to the end.
    Finished,
    /// Lost by side `loser` (0 A, 1 B) for the reason given; `on_time` for
    /// an overrun clock or move timeout.
    Forfeit {
        loser: usize,
        on_time: bool,
        why: String,
    },
}

/// Thinking time of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideTime {
    /// Moves it was asked for (and answered).
    pub moves: usize,
    /// Runner-measured seconds, in all and the longest move.
    pub wall: f64,
    pub max: f64,
    /// Seconds it reported, over the `reported_moves` moves that said.
    pub reported: f64,
    pub reported_moves: usize,
}

impl SideTime {
    fn add(&mut self, wall: f64, reported: Option<f64>) {
        self.moves += 1;
        self.wall += wall;
        self.max = self.max.max(wall);
        if let Some(r) = reported {
            self.reported += r;
            self.reported_moves += 1;
        }
    }

    fn merge(&mut self, o: &SideTime) {
        self.moves += o.moves;
        self.wall += o.wall;
        self.max = self.max.max(o.max);
        self.reported += o.reported;
        self.reported_moves += o.reported_moves;
    }
}

/// A game played.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game as far as it went (to the end unless forfeited).
    pub game: Game<S8>,
    /// Every turn from the start, the opening's included.
    pub turns: Vec<Turn>,
    pub a_black: bool,
    /// The final disc difference for A (empties to the winner); -64 or
    /// +64 for a forfeit.
    pub a_diff: i32,
    pub ending: Ending,
    /// A's and B's thinking time.
    pub time: [SideTime; 2],
    /// The engines' names, black first.
    pub players: [String; 2],
}

impl GameResult {
    /// Black's result: disc difference, or +-64 for a forfeit.
    pub fn black_diff(&self) -> i32 {
        if self.a_black {
            self.a_diff
        } else {
            -self.a_diff
        }
    }

    /// The game as one GGF line, with the players, the clock, the result
    /// (`RE[+12.00]`, `:t` lost on time, `:r` forfeited otherwise) and each
    /// move's evaluation and time.
    pub fn ggf(&self, clock: Option<Clock>) -> String {
        let diff = f64::from(self.black_diff());
        let re = match &self.ending {
            Ending::Finished => format!("{diff:+.2}"),
            Ending::Forfeit { on_time, .. } => {
                format!("{diff:+.2}:{}", if *on_time { 't' } else { 'r' })
            }
        };
        ggf_text(
            self.game.initial(),
            &self.turns,
            &self.players,
            clock,
            Some(&re),
        )
    }

    /// The game in the games format of `../shared/games` (`f5d6... +12`,
    /// black's result), if it was played to the end.
    pub fn games_line(&self) -> Option<String> {
        (self.ending == Ending::Finished)
            .then(|| format!("{} {:+}", transcript(&self.game), self.black_diff()))
    }
}

/// A GGF game from `initial` (position and side to move): `turns` in
/// order, `players` black first, the clock if any and the result if given.
pub fn ggf_text(
    initial: (Position<S8>, Color),
    turns: &[Turn],
    players: &[String; 2],
    clock: Option<Clock>,
    result: Option<&str>,
) -> String {
    // Brackets and backslashes would end or escape a property.
    let clean = |s: &str| s.replace(['[', ']', '\\'], "");
    let mut s = format!(
        "(;GM[Othello]PC[othello-match]PB[{}]PW[{}]",
        clean(&players[0]),
        clean(&players[1])
    );
    if let Some(re) = result {
        let _ = write!(s, "RE[{re}]");
    }
    if let Some(c) = clock {
        let _ = write!(s, "TI[{}]", c.ggf());
    }
    // The start position, row by row, `*` black and `O` white.
    let (position, side) = initial;
    let board = board_string(&Game::<S8>::from_position(position, side));
    let squares: Vec<String> = board.as_bytes()[..64]
        .chunks(8)
        .map(|row| {
            row.iter()
                .map(|&c| if c == b'X' { '*' } else { c as char })
                .collect()
        })
        .collect();
    let _ = write!(
        s,
        "TY[8]BO[8 {} {}]",
        squares.join(" "),
        if side == Color::Black { '*' } else { 'O' }
    );
    let mut black = side == Color::Black;
    for t in turns {
        let name = match t.mv {
            Move::Play(sq) => square_name(8, sq).to_ascii_uppercase(),
            Move::Pass => "PA".to_string(),
        };
        let _ = write!(s, "{}[{name}", if black { 'B' } else { 'W' });
        if t.by.is_some() {
            let eval = t.eval.map_or(String::new(), |e| format!("{e:.2}"));
            let _ = write!(s, "/{eval}/{:.2}", t.wall);
        }
        s.push(']');
        black = !black;
    }
    s.push_str(";)");
    s
}

/// Two engines and what they keep from game to game.
pub struct Arena {
    specs: [EngineSpec; 2],
    engines: [Option<Engine>; 2],
    settings: Settings,
    /// Each side's thinking time over the whole match (mirror mode's
    /// fallback), and its errors seen so far.
    so_far: [SideTime; 2],
    errors: [Vec<String>; 2],
    names: [String; 2],
}

impl Arena {
    /// Starts both engines; an error names the side that failed.
    pub fn new(specs: [EngineSpec; 2], settings: Settings) -> Result<Arena, String> {
        let mut arena = Arena {
            names: [specs[0].command.clone(), specs[1].command.clone()],
            specs,
            engines: [None, None],
            settings,
            so_far: [SideTime::default(); 2],
            errors: [Vec::new(), Vec::new()],
        };
        for side in 0..2 {
            arena.engine(side)?;
        }
        Ok(arena)
    }

    /// The names the engines gave themselves.
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// Each side's `error` lines so far (an unknown `set`, for example).
    pub fn errors(&self) -> &[Vec<String>; 2] {
        &self.errors
    }

    /// Side `side`'s engine, started if it is not running.
    fn engine(&mut self, side: usize) -> Result<&mut Engine, String> {
        if self.engines[side].is_none() {
            let e =
                Engine::start(&self.specs[side], self.settings.answer_timeout).map_err(|e| {
                    format!(
                        "engine {} (`{}`) {e}",
                        SIDES[side], self.specs[side].command
                    )
                })?;
            self.names[side] = e.name().to_string();
            self.engines[side] = Some(e);
        }
        self.engines[side]
            .as_mut()
            .ok_or_else(|| format!("engine {} is not running", SIDES[side]))
    }

    /// Stops side `side`'s engine (it is restarted when next needed),
    /// keeping its error lines.
    fn drop_engine(&mut self, side: usize) {
        if let Some(e) = self.engines[side].take() {
            self.errors[side].extend_from_slice(e.errors());
        }
    }

    /// Sends `quit` to both engines.
    pub fn close(mut self) -> [Vec<String>; 2] {
        for side in 0..2 {
            if let Some(e) = self.engines[side].take() {
                self.errors[side].extend_from_slice(e.errors());
                e.quit();
            }
        }
        self.errors
    }

    /// Plays `opening` to the end, A with black if `a_black`. An error only
    /// when an engine cannot be started again after a failure.
    pub fn play(&mut self, opening: &Game<S8>, a_black: bool) -> Result<GameResult, String> {
        let mut game = opening.clone();
        let mut turns: Vec<Turn> = opening
            .moves()
            .map(|mv| Turn {
                mv,
                by: None,
                eval: None,
                wall: 0.0,
                reported: None,
            })
            .collect();
        // Side of the colour: black is A when a_black.
        let side_of = |c: Color| usize::from((c == Color::Black) != a_black);
        let mut time = [SideTime::default(); 2];
        let mut remaining = self.settings.clock.map(|c| [f64::from(c.initial); 2]);
        let mut last_wall: [Option<f64>; 2] = [None, None];
        for side in 0..2 {
            self.engine(side)?;
        }
        let ending = loop {
            if game.is_game_over() {
                break Ending::Finished;
            }
            if game.must_pass() {
                game.pass().map_err(|e| format!("the rules: {e}"))?;
                turns.push(Turn {
                    mv: Move::Pass,
                    by: None,
                    eval: None,
                    wall: 0.0,
                    reported: None,
                });
                continue;
            }
            let side = side_of(game.side_to_move());
            let players = self.players(a_black);
            let ggf = ggf_text(game.initial(), &turns, &players, self.settings.clock, None);
            let limit = match remaining {
                Some(r) => Duration::from_secs_f64(r[side].max(0.0)),
                None => self.settings.move_timeout,
            };
            let mirror = match (&self.settings.mirror, side) {
                (Some(template), 0) => {
                    let t = last_wall[1]
                        .or_else(|| {
                            let b = &self.so_far[1];
                            (b.moves > 0).then(|| b.wall / b.moves as f64)
                        })
                        .map(|t| t * self.settings.mirror_odds)
                        .unwrap_or(self.settings.mirror_first)
                        // A move answered within half a millisecond would
                        // print as 0, which `set movetime` reads as no limit.
                        .max(0.001);
                    Some(template.replace("{seconds}", &format!("{t:.3}")))
                }
                _ => None,
            };
            let ask = Ask {
                game: &game,
                ggf: &ggf,
                mirror: mirror.as_deref(),
                clock: self.settings.clock.zip(remaining).map(|(c, r)| ClockNow {
                    initial: c.initial,
                    left: r[side],
                }),
                answer_timeout: self.settings.answer_timeout,
                limit,
            };
            let reply = self.engine(side)?.think(&ask);
            let forfeit = |on_time: bool, why: String| Ending::Forfeit {
                loser: side,
                on_time,
                why,
            };
            let Reply {
                mv,
                eval,
                reported,
                wall,
            } = match reply {
                Ok(r) => r,
                Err(e) => {
                    // Whatever state it is in, it starts afresh next time.
                    self.drop_engine(side);
                    let on_time = matches!(e, EngineError::Timeout(_));
                    break forfeit(on_time, format!("engine {} {e}", SIDES[side]));
                }
            };
            let wall = wall.as_secs_f64();
            time[side].add(wall, reported);
            last_wall[side] = Some(wall);
            if let Some(r) = remaining.as_mut() {
                if wall > r[side] {
                    break forfeit(
                        true,
                        format!(
                            "engine {} took {wall:.2} s with {:.2} s left on its clock",
                            SIDES[side], r[side]
                        ),
                    );
                }
                r[side] -= wall;
                r[side] += self.settings.clock.map_or(0.0, |c| f64::from(c.increment));
            }
            let played = match mv {
                Move::Play(sq) => game.play(sq).map(|_| ()),
                Move::Pass => game.pass(),
            };
            if let Err(e) = played {
                let name = match mv {
                    Move::Play(sq) => square_name(8, sq),
                    Move::Pass => "PA".into(),
                };
                break forfeit(
                    false,
                    format!(
                        "engine {} played {name} after {}: {e}",
                        SIDES[side],
                        transcript(&game)
                    ),
                );
            }
            turns.push(Turn {
                mv,
                by: Some(side),
                eval,
                wall,
                reported,
            });
        };
        for (total, t) in self.so_far.iter_mut().zip(&time) {
            total.merge(t);
        }
        let a_diff = match &ending {
            Ending::Finished => {
                let s = game.position().final_score();
                let black = if game.side_to_move() == Color::Black {
                    s
                } else {
                    -s
                };
                if a_black {
                    black
                } else {
                    -black
                }
            }
            Ending::Forfeit { loser, .. } => {
                if *loser == 0 {
                    -64
                } else {
                    64
                }
            }
        };
        Ok(GameResult {
            players: self.players(a_black),
            game,
            turns,
            a_black,
            a_diff,
            ending,
            time,
        })
    }

    /// The names, black first.
    fn players(&self, a_black: bool) -> [String; 2] {
        let [a, b] = self.names.clone();
        if a_black {
            [a, b]
        } else {
            [b, a]
        }
    }
}

/// The totals of a match, from A's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Sum of A's disc differences.
    pub discs: i64,
    /// Games forfeited by A and by B.
    pub forfeits: [usize; 2],
    pub time: [SideTime; 2],
}

impl Summary {
    pub fn of(results: &[GameResult]) -> Summary {
        let mut s = Summary::default();
        for r in results {
            s.add(r);
        }
        s
    }

    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        match r.a_diff.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.discs += i64::from(r.a_diff);
        if let Ending::Forfeit { loser, .. } = r.ending {
            self.forfeits[loser] += 1;
        }
        for (total, t) in self.time.iter_mut().zip(&r.time) {
            total.merge(t);
        }
    }

    /// Wins + draws / 2, per game.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::notation::parse_transcript;

    #[test]
    fn clocks_parse_and_print_as_ggf() {
        assert_eq!(
            Clock::parse("60+1"),
            Ok(Clock {
                initial: 60,
                increment: 1
            })
        );
        assert_eq!(Clock::parse("300").map(|c| c.ggf()), Ok("5:00/0:00".into()));
        assert_eq!(
            Clock::parse("75+2").map(|c| c.ggf()),
            Ok("1:15/0:02".into())
        );
        for bad in ["", "0", "1.5", "60+", "+1", "a+b", "60+1+2"] {
            assert!(Clock::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ggf_holds_the_start_the_moves_and_their_times() {
        let g = parse_transcript::<S8>("f5d6").unwrap();
        let mut turns: Vec<Turn> = g
            .moves()
            .map(|mv| Turn {
                mv,
                by: None,
                eval: None,
                wall: 0.0,
                reported: None,
            })
            .collect();
        turns.push(Turn {
            mv: Move::Pass,
            by: Some(1),
            eval: Some(-1.5),
            wall: 0.25,
            reported: None,
        });
        let clock = Clock::parse("60+1").ok();
        let text = ggf_text(
            g.initial(),
            &turns,
            &["x[1]".into(), "y".into()],
            clock,
            Some("+2.00"),
        );
        assert_eq!(
            text,
            "(;GM[Othello]PC[othello-match]PB[x1]PW[y]RE[+2.00]TI[1:00/0:01]TY[8]\
             BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
             B[F5]W[D6]B[PA/-1.50/0.25];)"
        );
    }
}
