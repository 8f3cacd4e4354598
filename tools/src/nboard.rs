//! An engine program that speaks the NBoard protocol, driven from the GUI
//! side ([`crate::engine`] runs the process): told the game with
//! `set game GGF`, asked for its move with `go`, answered with
//! `=== MOVE[/EVAL[/SECONDS]]` (NBoard's reply; Edax's nboard mode writes
//! `=== MOVE EVAL SECONDS`).
//!
//! Nothing is written to an engine while it searches: NTest abandons its
//! search on any input, so `ping` is only used between searches.

use crate::engine::{Ask, EngineError, EngineSpec, Process, Reply};
use othello::game::Move;
use othello::notation::parse_square;

use std::time::{Duration, Instant};

/// A running NBoard engine.
pub struct Client {
    process: Process,
    pings: u64,
    /// From its `set myname NAME`, else the command line.
    name: String,
    /// Its `error ...` lines so far, as they came.
    errors: Vec<String>,
}

impl Client {
    /// Starts `spec`'s command, sends `nboard 2`, the depth and the setup
    /// lines, and waits (up to `timeout`) for the `pong` that follows them.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Client, EngineError> {
        let mut engine = Client {
            process: Process::spawn(spec)?,
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
        self.process.send(line)
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

    /// One move: the game (`set game GGF`), the mirror line if any, a ping
    /// to be sure it has read them (and anything it had to say before is
    /// read), then `go`.
    pub fn think(&mut self, ask: &Ask) -> Result<Reply, EngineError> {
        self.send(&format!("set game {}", ask.ggf))?;
        if let Some(line) = ask.mirror {
            self.send(line)?;
        }
        self.sync(ask.answer_timeout)?;
        self.go(ask.limit)
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
    pub fn quit(self) {
        self.process.quit("quit");
    }

    /// The next line before `deadline`; notes names and errors.
    fn next_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let line = self.process.next_line(deadline)?;
        let t = line.trim();
        if let Some(name) = t.strip_prefix("set myname ") {
            self.name = name.trim().to_string();
        } else if t == "error" || t.starts_with("error ") {
            self.errors.push(t.to_string());
        }
        Ok(line)
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
            Client::start(&spec("true"), short),
            Err(EngineError::Exited(_))
        ));
        // Never answers.
        assert!(matches!(
            Client::start(&spec("sleep 30"), Duration::from_millis(300)),
            Err(EngineError::Timeout(_))
        ));
        // Not found: the shell says so and exits.
        assert!(matches!(
            Client::start(&spec("/nonexistent/engine"), short),
            Err(EngineError::Exited(_))
        ));
    }

    #[test]
    fn a_scripted_engine_answers_pings_and_go() {
        // A shell loop standing in for an engine: answers ping and go.
        let script = "while read -r c n; do case $c in \
            ping) echo \"pong $n\";; nboard) echo \"set myname sh\";; \
            go) echo status; echo \"=== D3/0.50/0.01\";; quit) exit;; esac; done";
        let mut e = Client::start(&spec(&format!("sh -c '{script}'")), Duration::from_secs(5))
            .expect("starts");
        assert_eq!(e.name(), "sh");
        let r = e.go(Duration::from_secs(5)).expect("a move");
        assert_eq!(r.mv, Move::Play(parse_square(8, "d3").unwrap()));
        assert_eq!((r.eval, r.reported), (Some(0.5), Some(0.01)));
        e.sync(Duration::from_secs(5)).expect("pong");
        e.quit();
    }
}
