//! Squares of the 8x8 board and their names (`a1`..`h8`).

use crate::error::Error;
use std::fmt;

/// A square: index = row * 8 + col, a1 = 0, h1 = 7, a8 = 56, h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 64;

    /// The square of `index`, or `None` if it is outside 0..64.
    pub fn new(index: i64) -> Option<Square> {
        if (0..64).contains(&index) {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    pub const fn from_coords(col: u8, row: u8) -> Square {
        Square(row * 8 + col)
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

impl std::str::FromStr for Square {
    type Err = Error;

    /// Parses `a1`..`h8`, either case for the column letter.
    fn from_str(text: &str) -> Result<Square, Error> {
        let bytes = text.as_bytes();
        let bad = || Error::Parse(format!("{text:?} is not a square name (a1..h8)"));
        if bytes.len() != 2 {
            return Err(bad());
        }
        let col = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        if col < 8 && row < 8 {
            Ok(Square::from_coords(col, row))
        } else {
            Err(bad())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>().unwrap(), sq);
            assert_eq!(name.to_uppercase().parse::<Square>().unwrap(), sq);
        }
        assert_eq!(Square::from_coords(3, 2).to_string(), "d3");
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
    }

    #[test]
    fn bad_names_rejected() {
        for bad in ["", "a", "a0", "a9", "i1", "a10", "1a", " a1", "a1 ", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?}");
        }
        assert!(Square::new(-1).is_none());
        assert!(Square::new(64).is_none());
    }
}
