//! othello: an embeddable Othello (Reversi) engine.
//!
//! The core is pure Rust: [`position`] holds the rules on bitboards, [`game`] a
//! game with history, [`notation`] the text forms. [`ffi`] is the C ABI over it,
//! the only module that touches raw pointers.
//!
//! ```
//! use othello::engine::{Engine, Limits};
//! use othello::{Game, Square};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut game = Game::new();
//! let f5: Square = "f5".parse().unwrap();
//! let flipped = game.play(f5).unwrap();
//! assert_eq!(flipped.count(), 1);
//!
//! let stop = AtomicBool::new(false);
//! let result = Engine::new(1)
//!     .search(game.position(), &Limits::level(4).unwrap(), &stop, &mut |_| {})
//!     .unwrap();
//! assert!(game.legal_moves().contains(result.best.unwrap()));
//! ```

pub mod bitboard;
pub mod classic;
pub mod color;
pub mod endgame;
pub mod engine;
pub mod error;
pub mod eval;
pub mod ffi;
pub mod game;
pub mod hash;
pub mod notation;
pub mod pattern;
pub mod perft;
pub mod position;
pub mod rng;
pub mod search;
pub mod sized;
pub mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use error::Error;
pub use game::{Game, Move};
pub use position::Position;
pub use square::Square;
