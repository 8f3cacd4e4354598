//! An engine program that speaks the NBoard protocol, driven from the GUI
//! side: started as a child process, told the game with `set game GGF`,
//! asked for its move with `go`, answered with `=== MOVE[/EVAL[/SECONDS]]`
//! (NBoard's reply; Edax's nboard mode writes `=== MOVE EVAL SECONDS`).
//!
//! Every wait has a deadline, and a child that exits, stops answering or
//! says something unreadable is an [`EngineError`], never a panic, so a
//! match can score the game and go on with a fresh process. Nothing is
//! written to an engine while it searches: NTest abandons its search on any
//! input, so `ping` is only used between searches.

use othello::game::Move;
use othello::notation::parse_square;

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How to start an engine and set it up.
#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    /// A shell command line (`sh -c 'exec COMMAND'`), e.g.
    /// `target/examples/nboard --no-book`.
    pub command: String,
    /// Its working directory (NTest needs its run folder); the runner's by
    /// default.
    pub cwd: Option<PathBuf>,
    /// Sent as `set depth N` after `nboard 2`.
    pub depth: Option<u32>,
    /// Further lines sent after that, as they are (`set book 0`).
    pub setup: Vec<String>,
    /// Copy the protocol, both ways, to standard error.
    pub verbose: bool,
    /// A label for messages ("A", "B").
    pub label: String,
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// It could not be started.
    Spawn(String),
    /// Its output ended (it exited or closed standard output); the exit
    /// status if it is known.
    Exited(String),
    /// No answer within the time it had.
    Timeout(Duration),
    /// Its standard input is closed.
    Write(String),
    /// An answer that is not NBoard.
    Protocol(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(why) => write!(f, "cannot start: {why}"),
            EngineError::Exited(status) => write!(f, "exited ({status})"),
            EngineError::Timeout(t) => write!(f, "no answer within {:.1} s", t.as_secs_f64()),
            EngineError::Write(why) => write!(f, "cannot be written to: {why}"),
            EngineError::Protocol(why) => write!(f, "protocol error: {why}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The answer to `go`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reply {
    pub mv: Move,
    /// The evaluation it gave, if any (discs, its point of view).
    pub eval: Option<f64>,
    /// The thinking time it reported, if any (seconds).
    pub reported: Option<f64>,
    /// Wall time from sending `go` to reading the reply.
    pub wall: Duration,
}

/// A running engine.
pub struct Engine {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    pings: u64,
    /// From its `set myname NAME`, else the command line.
    name: String,
    /// Its `error ...` lines so far, as they came.
    errors: Vec<String>,
}

impl Engine {
    /// Starts `spec`'s command, sends `nboard 2`, the depth and the setup
    /// lines, and waits (up to `timeout`) for the `pong` that follows them.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, EngineError> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("exec {}", spec.command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if spec.verbose {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        if let Some(dir) = &spec.cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            let dir = spec
                .cwd
                .as_ref()
                .map_or(String::new(), |d| format!(" in {}", d.display()));
            EngineError::Spawn(format!("`{}`{dir}: {e}", spec.command))
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn("no pipes to the child".into()));
        };
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            pings: 0,
            name: spec.command.clone(),
            errors: Vec::new(),
        };
        engine.send("nboard 2")?;
        if let Some(depth) = spec.depth {
            engine.send(&format!("set depth {depth}"))?;
        }
        for line in &spec.setup {
            engine.send(line)?;
        }
        engine.sync(timeout)?;
        Ok(engine)
    }

    /// The name it gave itself (`set myname`), else its command line.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its `error` lines so far.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.spec.verbose {
            eprintln!("{} << {line}", self.spec.label);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| match self.exit_status() {
                Some(status) => EngineError::Exited(status),
                None => EngineError::Write(e.to_string()),
            })
    }

    /// `ping N`, then reads up to `pong N`: everything the engine had to
    /// say before is read (and its name and errors noted).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        let deadline = Instant::now() + timeout;
        loop {
            if self.next_line(deadline)?.trim() == pong {
                return Ok(());
            }
        }
    }

    /// Sends `go` and waits for the move, at most `timeout`. On a timeout
    /// the engine is still thinking: it is not fit for another command and
    /// should be dropped (which kills it).
    pub fn go(&mut self, timeout: Duration) -> Result<Reply, EngineError> {
        let start = Instant::now();
        self.send("go")?;
        let deadline = start + timeout;
        loop {
            let line = self.next_line(deadline)?;
            if let Some(rest) = line.trim().strip_prefix("===") {
                let wall = start.elapsed();
                let (mv, eval, reported) = parse_reply(rest)?;
                return Ok(Reply {
                    mv,
                    eval,
                    reported,
                    wall,
                });
            }
        }
    }

    /// Sends `quit` and gives it a moment to exit; then it is killed.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// The next line before `deadline`; notes names and errors.
    fn next_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                if self.spec.verbose {
                    eprintln!("{} >> {line}", self.spec.label);
                }
                let t = line.trim();
                if let Some(name) = t.strip_prefix("set myname ") {
                    self.name = name.trim().to_string();
                } else if t == "error" || t.starts_with("error ") {
                    self.errors.push(t.to_string());
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(left)),
            Err(RecvTimeoutError::Disconnected) => {
                // The output ended: give the exit status a moment to come.
                let until = Instant::now() + Duration::from_millis(500);
                loop {
                    if let Some(status) = self.exit_status() {
                        return Err(EngineError::Exited(status));
                    }
                    if Instant::now() >= until {
                        return Err(EngineError::Exited("output closed".into()));
                    }
                    thread::sleep(Duration::from_millis(10));
                }
            }
        }
    }

    fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            _ => None,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// `MOVE[/EVAL[/SECONDS]]` (NBoard, NTest: `H4//1.39` for an eval of 0) or
/// `MOVE EVAL SECONDS` (Edax), as after `===`.
pub fn parse_reply(text: &str) -> Result<(Move, Option<f64>, Option<f64>), EngineError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let fields: Vec<&str> = match words.as_slice() {
        [one] => one.split('/').collect(),
        [] => return Err(EngineError::Protocol("`===` without a move".into())),
        more => more.to_vec(),
    };
    let mv = parse_move(fields[0])
        .ok_or_else(|| EngineError::Protocol(format!("`=== {}`: no move", text.trim())))?;
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    Ok((mv, number(1), number(2)))
}

/// `f5`, `F5`, `PA` or `pass`.
pub fn parse_move(text: &str) -> Option<Move> {
    if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    parse_square(8, text).ok().map(Move::Play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_of_each_dialect() {
        let f5 = Move::Play(parse_square(8, "f5").unwrap());
        assert_eq!(
            parse_reply(" F5/1.50/0.25"),
            Ok((f5, Some(1.5), Some(0.25)))
        );
        assert_eq!(parse_reply(" f5//1.39"), Ok((f5, None, Some(1.39))));
        assert_eq!(parse_reply(" f5"), Ok((f5, None, None)));
        assert_eq!(
            parse_reply(" f5 -2.00 0.7"),
            Ok((f5, Some(-2.0), Some(0.7)))
        );
        assert_eq!(parse_reply(" PA"), Ok((Move::Pass, None, None)));
        for bad in ["", " z9/1/1", " /1/2"] {
            assert!(parse_reply(bad).is_err(), "{bad:?}");
        }
    }

    fn spec(command: &str) -> EngineSpec {
        EngineSpec {
            command: command.into(),
            label: "T".into(),
            ..EngineSpec::default()
        }
    }

    #[test]
    fn a_program_that_is_not_an_engine_is_an_error() {
        let short = Duration::from_secs(5);
        // Exits at once.
        assert!(matches!(
            Engine::start(&spec("true"), short),
            Err(EngineError::Exited(_))
        ));
        // Never answers.
        assert!(matches!(
            Engine::start(&spec("sleep 30"), Duration::from_millis(300)),
            Err(EngineError::Timeout(_))
        ));
        // Not found: the shell says so and exits.
        assert!(matches!(
            Engine::start(&spec("/nonexistent/engine"), short),
            Err(EngineError::Exited(_))
        ));
    }

    #[test]
    fn a_scripted_engine_answers_pings_and_go() {
        // A shell loop standing in for an engine: answers ping and go.
        let script = "while read -r c n; do case $c in \
            ping) echo \"pong $n\";; nboard) echo \"set myname sh\";; \
            go) echo status; echo \"=== D3/0.50/0.01\";; quit) exit;; esac; done";
        let mut e = Engine::start(&spec(&format!("sh -c '{script}'")), Duration::from_secs(5))
            .expect("starts");
        assert_eq!(e.name(), "sh");
        let r = e.go(Duration::from_secs(5)).expect("a move");
        assert_eq!(r.mv, Move::Play(parse_square(8, "d3").unwrap()));
        assert_eq!((r.eval, r.reported), (Some(0.5), Some(0.01)));
        e.sync(Duration::from_secs(5)).expect("pong");
        e.quit();
    }
}
