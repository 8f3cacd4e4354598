//! othello-tools: the programs behind the library's trained evaluation,
//! kept out of the library so that building it, or anything linking it,
//! does not build them.
//!
//! [`datagen`] plays and stores the self-play games (`othello-datagen`),
//! [`book`] builds the opening book (`othello-book`),
//! [`games`] reads the text game collections,
//! [`training`] fits the pattern weights to them (`othello-train`);
//! `othello-evalmatch` plays two evaluations against each other;
//! [`arena`] plays NBoard engines (ours, NTest, ...) against each other
//! through [`nboard`] (`othello-match`). The weights
//! file format and the pattern features are the library's
//! (`othello::eval::pattern`).

pub mod arena;
pub mod args;
pub mod book;
pub mod datagen;
pub mod games;
pub mod label;
pub mod nboard;
pub mod training;
