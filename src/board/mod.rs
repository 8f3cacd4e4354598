//! The board: bit sets, geometries (one per board size, 4x4 to 16x16), the
//! rules on a position seen from the side to move, position keys, square
//! names, perft, and the instruction sets hot recursions are compiled for
//! (`isa`: run-time chosen x86-64-v3 and v4 copies with AVX2 and AVX-512 8x8
//! moves and flips).
//!
//! Everything is written once over a [`Geometry`] and monomorphised per
//! size: `u64` bit sets for 4x4 to 8x8, `u128` for 10x10 and a four-word
//! [`U256`] for 12x12 to 16x16. [`S8`] is the fast instance: it replaces the
//! hot operations with dedicated 8x8 code. Squares are `row * size + col`
//! (a1 = 0).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub mod bits;
pub mod geometry;
pub mod isa;
pub mod key;
pub mod perft;
pub mod position;
pub mod rules;
pub mod s8;
pub mod square;
#[cfg(test)]
pub(crate) mod testing;

pub use bits::{Bits, U256};
pub use geometry::{Geometry, S10, S12, S14, S16, S4, S6};
pub use key::{key, key_of, Key};
pub use position::{final_score, Position};
pub use s8::S8;

/// Calls `$body` with `$g` bound to the geometry type of side `$n`, or
/// evaluates `$other` for any other side.
#[macro_export]
#[doc(hidden)]
macro_rules! with_geometry {
    ($n:expr, $g:ident => $body:expr, _ => $other:expr) => {
        match $n {
            4 => {
                type $g = $crate::board::S4;
                $body
            }
            6 => {
                type $g = $crate::board::S6;
                $body
            }
            8 => {
                type $g = $crate::board::S8;
                $body
            }
            10 => {
                type $g = $crate::board::S10;
                $body
            }
            12 => {
                type $g = $crate::board::S12;
                $body
            }
            14 => {
                type $g = $crate::board::S14;
                $body
            }
            16 => {
                type $g = $crate::board::S16;
                $body
            }
            _ => $other,
        }
    };
}
