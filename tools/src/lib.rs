//! othello-tools: the programs behind the library's trained evaluation,
//! its opening book and its tuning, kept out of the library so that
//! building it, or anything linking it, does not build them.
//!
//! The programs (`src/bin`):
//! - `othello-datagen`: plays and stores self-play games ([`datagen`]);
//! - `othello-label`: picks positions of game records and writes them as
//!   `.obf` lines, solved or not ([`label`]);
//! - `othello-train`: fits the pattern weights to games and labelled
//!   positions ([`training`], [`games`]);
//! - `othello-evalmatch`: plays two evaluations (and selectivities) against
//!   each other at equal limits;
//! - `othello-match`: plays NBoard and GTP engines (ours, NTest, Edax, ...)
//!   against each other ([`arena`] through [`engine`]: [`nboard`], [`gtp`]),
//!   from XOT's openings or random balanced ones ([`openings`]), and stops
//!   when [`sprt`] says the games have decided;
//! - `othello-replay`: replays the endgames of a match's games and scores
//!   our moves against the exact values;
//! - `othello-probcut`: samples and fits the Multi-ProbCut error models of
//!   the search;
//! - `othello-book`: builds, checks and measures opening books ([`book`]).
//!
//! The weights file format and the pattern features are the library's
//! (`othello::eval::pattern`), and so is the `.obf` reader
//! (`othello::obf`); [`args`] holds the command-line helpers.

pub mod arena;
pub mod args;
pub mod book;
pub mod datagen;
pub mod engine;
pub mod games;
pub mod gtp;
pub mod label;
pub mod nboard;
pub mod openings;
pub mod sprt;
pub mod training;
