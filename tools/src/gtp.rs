//! An engine program that speaks the Go Text Protocol as Othello engines
//! do (Edax `-gtp`, our `examples/gtp`), driven from the controller's side
//! ([`crate::engine`] runs the process).
//!
//! Each command goes out as `ID command`; the answer is `=ID text` (or
//! `= ID text`, as Edax writes it) or `?ID message`, over one or more lines,
//! ended by an empty line. Lines before an answer starts are not GTP (Edax
//! prints `*** SEARCH STILL RUNNING ? ***` among its answers) and are
//! skipped. A `?` is an error, and so a lost game, except for the clock
//! commands: an engine without them still plays, and the runner still
//! times it.
//!
//! GTP keeps the game in the engine, so the client remembers the moves the
//! engine has accepted: asked for a move in a game that goes on from them
//! it sends only the new ones (`play black f5`, `play white pass`), in any
//! other a new game (`boardsize 8`, `clear_board`, `time_settings`) and the
//! whole of it.

use crate::engine::{Ask, EngineError, EngineSpec, Process, Reply};
use crate::nboard::parse_move;
use othello::board::S8;
use othello::game::{Game, Move};
use othello::notation::square_name;
use othello::Color;

use std::time::{Duration, Instant};

/// A running GTP engine.
pub struct Client {
    process: Process,
    /// The id of the last command sent.
    id: u64,
    /// From its `name`, else the command line.
    name: String,
    /// Its `?` answers to the clock commands.
    errors: Vec<String>,
    /// The moves of the game the engine holds, passes included; `None`
    /// before the first game.
    told: Option<Vec<Move>>,
}

impl Client {
    /// Starts `spec`'s command, asks its `name` and sends the setup lines,
    /// each of which must succeed within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Client, EngineError> {
        if spec.depth.is_some() {
            return Err(EngineError::Spawn(
                "a depth is NBoard's `set depth`; give a GTP engine its own command".into(),
            ));
        }
        let mut engine = Client {
            process: Process::spawn(spec)?,
            id: 0,
            name: spec.command.clone(),
            errors: Vec::new(),
            told: None,
        };
        let name = engine.command("name", timeout)?;
        if !name.trim().is_empty() {
            engine.name = name.trim().to_string();
        }
        for line in &spec.setup {
            engine.command(line, timeout)?;
        }
        Ok(engine)
    }

    /// The name it gave itself (`name`), else its command line.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its `?` answers to `time_settings` and `time_left`.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// Sends `command` and reads its answer, at most `timeout`: the text
    /// of a `=` answer (its lines joined by newlines), or an error.
    pub fn command(&mut self, command: &str, timeout: Duration) -> Result<String, EngineError> {
        self.id += 1;
        let id = self.id;
        self.process.send(&format!("{id} {command}"))?;
        let deadline = Instant::now() + timeout;
        let (ok, first) = loop {
            let line = self.process.next_line(deadline)?;
            let line = line.trim();
            if let Some(rest) = line.strip_prefix('=') {
                break (true, rest.to_string());
            }
            if let Some(rest) = line.strip_prefix('?') {
                break (false, rest.to_string());
            }
        };
        let mut text = strip_id(&first, id)
            .ok_or_else(|| {
                EngineError::Protocol(format!("`{command}` (id {id}) answered with another id"))
            })?
            .to_string();
        loop {
            let line = self.process.next_line(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim_end());
        }
        if ok {
            Ok(text)
        } else {
            Err(EngineError::Protocol(format!("`{command}`: ? {text}")))
        }
    }

    /// A command whose `?` is noted, not fatal.
    fn optional(&mut self, command: &str, timeout: Duration) -> Result<(), EngineError> {
        match self.command(command, timeout) {
            Err(EngineError::Protocol(why)) => {
                self.errors.push(why);
                Ok(())
            }
            other => other.map(|_| ()),
        }
    }

    /// One move: the game brought up to date (see the module's doc), the
    /// mirror command if any, `time_left` with a clock, then `genmove`,
    /// timed from sending it to its answer.
    pub fn think(&mut self, ask: &Ask) -> Result<Reply, EngineError> {
        let timeout = ask.answer_timeout;
        let game = ask.game;
        let moves: Vec<Move> = game.moves().collect();
        // Taken until the move is in: after an error the next game starts
        // afresh.
        let mut told = match self.told.take() {
            Some(told) if moves.starts_with(&told) => told,
            _ => {
                if game.initial() != Game::<S8>::new().initial() {
                    return Err(EngineError::Protocol(
                        "GTP games start from the standard position".into(),
                    ));
                }
                self.command("boardsize 8", timeout)?;
                self.command("clear_board", timeout)?;
                if let Some(clock) = ask.clock {
                    self.optional(&format!("time_settings {} 0 0", clock.initial), timeout)?;
                }
                Vec::new()
            }
        };
        let first = game.initial().1;
        for (i, &mv) in moves.iter().enumerate().skip(told.len()) {
            // Turns alternate, passes included.
            let colour = if i % 2 == 0 { first } else { first.opponent() };
            let line = format!("play {} {}", colour_name(colour), move_name(mv));
            self.command(&line, timeout)?;
            told.push(mv);
        }
        if let Some(line) = ask.mirror {
            self.command(line, timeout)?;
        }
        let me = colour_name(game.side_to_move());
        if let Some(clock) = ask.clock {
            // GTP's time is whole seconds: rounded down, never more than
            // the engine has.
            let left = clock.left.max(0.0).floor();
            self.optional(&format!("time_left {me} {left:.0} 0"), timeout)?;
        }
        let start = Instant::now();
        let answer = self.command(&format!("genmove {me}"), ask.limit)?;
        let wall = start.elapsed();
        let word = answer.trim();
        let mv = parse_move(word).ok_or_else(|| {
            let what = if word.eq_ignore_ascii_case("resign") {
                "resigned".to_string()
            } else {
                format!("`genmove {me}` answered `{word}`: no move")
            };
            EngineError::Protocol(what)
        })?;
        // The engine has played it on its board, legal or not.
        told.push(mv);
        self.told = Some(told);
        Ok(Reply {
            mv,
            eval: None,
            reported: None,
            wall,
        })
    }

    /// Sends `quit` and gives it a moment to exit; then it is killed.
    pub fn quit(mut self) {
        self.id += 1;
        let line = format!("{} quit", self.id);
        self.process.quit(&line);
    }
}

/// The text of an answer after `=` or `?`, less the id: `None` if it
/// starts with another number than `id`. An answer without an id is taken.
fn strip_id(rest: &str, id: u64) -> Option<&str> {
    let rest = rest.trim_start();
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return Some(rest);
    }
    (rest[..digits].parse::<u64>().ok() == Some(id)).then(|| rest[digits..].trim_start())
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn move_name(mv: Move) -> String {
    match mv {
        Move::Play(sq) => square_name(8, sq),
        Move::Pass => "pass".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_with_and_without_ids() {
        assert_eq!(strip_id("3 f5", 3), Some("f5"));
        assert_eq!(strip_id(" 3 f5", 3), Some("f5"));
        assert_eq!(strip_id("12", 12), Some(""));
        assert_eq!(strip_id(" f5", 3), Some("f5"));
        assert_eq!(strip_id("", 3), Some(""));
        assert_eq!(strip_id("4 f5", 3), None);
    }
}
