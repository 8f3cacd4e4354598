//! othello: an embeddable Othello (Reversi) engine, on every board size from
//! 4x4 to 16x16.
//!
//! The core is pure Rust and written once over a board
//! [`Geometry`](board::Geometry), with the 8x8 board ([`board::S8`]) as its
//! fast instance: [`board`] holds the bit sets, geometries, rules, position
//! keys and square names, [`game`] a game with history, [`notation`] the
//! text forms, [`eval`] the evaluations, [`search`] the midgame search, the
//! exact solver and the engine, [`classic`] the 1986 program's players, and
//! [`any`] a game of any size behind one type. [`ffi`] is the C ABI over it,
//! the only module that touches raw pointers.
//!
//! The modules stand in layers and import only from their own layer and
//! those below, bottom to top: `error`, `color`, `rng`, `clock`; `board`; `eval`,
//! `game`, `book`, `classic`; `notation`, `obf`; `search`; the engine
//! (`search::engine`); `any`; `ffi`. `tests/layers.rs` checks it.
//!
//! ```
//! use othello::board::{Bits, S8};
//! use othello::engine::{Engine, Limits};
//! use othello::notation::parse_square;
//! use othello::Game;
//! use std::sync::atomic::AtomicBool;
//!
//! let mut game = Game::<S8>::new();
//! let f5 = parse_square(8, "f5").unwrap();
//! let flipped = game.play(f5).unwrap();
//! assert_eq!(flipped.count(), 1);
//!
//! let stop = AtomicBool::new(false);
//! let result = Engine::new(1)
//!     .search(game.position(), &Limits::level(4).unwrap(), &stop, &mut |_| {})
//!     .unwrap();
//! assert!(game.legal_moves().has(result.best.unwrap()));
//! ```

pub mod any;
pub mod board;
pub mod book;
pub mod classic;
pub mod clock;
pub mod color;
pub mod error;
pub mod eval;
pub mod ffi;
pub mod game;
pub mod notation;
pub mod obf;
pub mod rng;
pub mod search;

pub use search::engine;

pub use board::Position;
pub use color::Color;
pub use error::Error;
pub use game::{Game, Move};
