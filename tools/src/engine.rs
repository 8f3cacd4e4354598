//! An engine program driven from the GUI side, whichever protocol it
//! speaks: [`Engine`] is an NBoard ([`crate::nboard`]) or a GTP
//! ([`crate::gtp`]) client, and the arena asks either for a move with one
//! [`Ask`]. Both run the engine as a child process ([`Process`]) whose every
//! wait has a deadline: a child that exits, stops answering or says
//! something unreadable is an [`EngineError`], never a panic, so a match can
//! score the game and go on with a fresh process.

use crate::{gtp, nboard};
use othello::board::S8;
use othello::game::{Game, Move};

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// NBoard's (version 2): NTest, Edax `-nboard`, our `examples/nboard`.
    #[default]
    NBoard,
    /// The Go Text Protocol as Othello engines speak it: Edax `-gtp`, our
    /// `examples/gtp`.
    Gtp,
}

impl FromStr for Protocol {
    type Err = String;

    /// `nboard` or `gtp`.
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.to_ascii_lowercase().as_str() {
            "nboard" => Ok(Protocol::NBoard),
            "gtp" => Ok(Protocol::Gtp),
            _ => Err(format!("{s:?}: the protocol is nboard or gtp")),
        }
    }
}

/// How to start an engine and set it up.
#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    /// A shell command line (`sh -c 'exec COMMAND'`), e.g.
    /// `target/examples/nboard --no-book`.
    pub command: String,
    pub protocol: Protocol,
    /// Its working directory (NTest needs its run folder); the runner's by
    /// default.
    pub cwd: Option<PathBuf>,
    /// NBoard's `set depth N`, sent after `nboard 2`. GTP has no such
    /// command: a GTP engine with a depth does not start.
    pub depth: Option<u32>,
    /// Further commands sent at the start, as they are (`set book 0`).
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
    /// An answer that is not the protocol's, or (GTP) a `?` failure.
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

/// The side to move's game clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockNow {
    /// The game's time for each side, seconds.
    pub initial: u32,
    /// What the side to move has left, seconds.
    pub left: f64,
}

/// A request for a move, with everything either protocol needs.
pub struct Ask<'a> {
    /// The game so far, from the standard start; the side to move is asked.
    pub game: &'a Game<S8>,
    /// The same game as GGF, with its clock and times (NBoard's `set game`).
    pub ggf: &'a str,
    /// A command sent before the move is asked for (mirror mode's).
    pub mirror: Option<&'a str>,
    pub clock: Option<ClockNow>,
    /// The longest any command but the move itself may take.
    pub answer_timeout: Duration,
    /// The longest the move may take.
    pub limit: Duration,
}

/// The engine's move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reply {
    pub mv: Move,
    /// The evaluation it gave, if any (discs, its point of view).
    pub eval: Option<f64>,
    /// The thinking time it reported, if any (seconds).
    pub reported: Option<f64>,
    /// Wall time from asking for the move (`go`, `genmove`) to the answer.
    pub wall: Duration,
}

/// A running engine of either protocol.
pub enum Engine {
    NBoard(nboard::Client),
    Gtp(gtp::Client),
}

impl Engine {
    /// Starts `spec`'s command and sets it up by its protocol; `timeout`
    /// bounds each answer.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, EngineError> {
        Ok(match spec.protocol {
            Protocol::NBoard => Engine::NBoard(nboard::Client::start(spec, timeout)?),
            Protocol::Gtp => Engine::Gtp(gtp::Client::start(spec, timeout)?),
        })
    }

    /// The name it gave itself, else its command line.
    pub fn name(&self) -> &str {
        match self {
            Engine::NBoard(e) => e.name(),
            Engine::Gtp(e) => e.name(),
        }
    }

    /// What it complained about without losing a game: NBoard's `error`
    /// lines, GTP's `?` answers to the clock commands.
    pub fn errors(&self) -> &[String] {
        match self {
            Engine::NBoard(e) => e.errors(),
            Engine::Gtp(e) => e.errors(),
        }
    }

    /// Its move in `ask.game`. After an error (a timeout above all) the
    /// engine is not fit for another command and should be dropped, which
    /// kills it.
    pub fn think(&mut self, ask: &Ask) -> Result<Reply, EngineError> {
        match self {
            Engine::NBoard(e) => e.think(ask),
            Engine::Gtp(e) => e.think(ask),
        }
    }

    /// Says `quit` and gives it a moment to exit; then it is killed.
    pub fn quit(self) {
        match self {
            Engine::NBoard(e) => e.quit(),
            Engine::Gtp(e) => e.quit(),
        }
    }
}

/// The child process behind a client: its input, its output as lines read
/// by a thread, and the protocol echoed to standard error if verbose.
pub struct Process {
    label: String,
    verbose: bool,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    /// Runs `sh -c 'exec COMMAND'` in the spec's directory.
    pub fn spawn(spec: &EngineSpec) -> Result<Process, EngineError> {
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
        Ok(Process {
            label: spec.label.clone(),
            verbose: spec.verbose,
            child,
            stdin,
            lines,
        })
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.verbose {
            eprintln!("{} << {line}", self.label);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| match self.exit_status() {
                Some(status) => EngineError::Exited(status),
                None => EngineError::Write(e.to_string()),
            })
    }

    /// The next line before `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                if self.verbose {
                    eprintln!("{} >> {line}", self.label);
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

    /// Sends `line` (the protocol's quit) and gives the child two seconds
    /// to exit; dropping the process then kills it.
    pub fn quit(mut self, line: &str) {
        let _ = self.send(line);
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            _ => None,
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocols_by_name() {
        assert_eq!("gtp".parse(), Ok(Protocol::Gtp));
        assert_eq!("NBoard".parse(), Ok(Protocol::NBoard));
        assert!("uci".parse::<Protocol>().is_err());
    }
}
