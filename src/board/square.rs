//! Square names on any board size: column letter `a`..`p` then row number
//! `1`..`16` (`a1`, `c10`, `p16`), the letter in either case on input; and
//! the board sides there are geometries for. The rest of the text forms are
//! in [`crate::notation`], which re-exports these.

use crate::error::Error;

/// The smallest and the largest board side.
pub const MIN_SIZE: u32 = 4;
pub const MAX_SIZE: u32 = 16;

/// True for the supported sides: even, 4..=16.
pub fn valid_size(n: i64) -> bool {
    (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&n) && n % 2 == 0
}

/// The name of square `sq` on the `n`x`n` board: `a1`, `c10`, `p16`.
pub fn square_name(n: u32, sq: u32) -> String {
    format!("{}{}", (b'a' + (sq % n) as u8) as char, sq / n + 1)
}

/// Parses a square name for the `n`x`n` board: a column letter (either case)
/// and a row number without leading zero, both on the board.
pub fn parse_square(n: u32, text: &str) -> Result<u32, Error> {
    let bad = || {
        Error::Parse(format!(
            "{text:?} is not a square name of the {n}x{n} board (a1..{})",
            square_name(n, n * n - 1)
        ))
    };
    let bytes = text.as_bytes();
    if !(2..=3).contains(&bytes.len()) || bytes[1] == b'0' {
        return Err(bad());
    }
    let col = bytes[0].to_ascii_lowercase().wrapping_sub(b'a') as u32;
    if col >= n || !bytes[1..].iter().all(u8::is_ascii_digit) {
        return Err(bad());
    }
    let row = bytes[1..]
        .iter()
        .fold(0u32, |v, &d| v * 10 + (d - b'0') as u32);
    if row == 0 || row > n {
        return Err(bad());
    }
    Ok((row - 1) * n + col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_size() {
        // Miri (tests/miri.sh): every fifth square.
        let step = if cfg!(miri) { 5 } else { 1 };
        for n in (MIN_SIZE..=MAX_SIZE).step_by(2) {
            for sq in (0..n * n).step_by(step) {
                let name = square_name(n, sq);
                assert_eq!(parse_square(n, &name).unwrap(), sq);
                assert_eq!(parse_square(n, &name.to_uppercase()).unwrap(), sq);
            }
        }
        assert_eq!(square_name(16, 255), "p16");
        assert_eq!(square_name(10, 90), "a10");
        for (n, bad) in [
            (6, "g1"),
            (6, "a7"),
            (6, "a0"),
            (10, "a01"),
            (10, "a11"),
            (16, "q1"),
            (16, "a17"),
            (16, "a100"),
            (8, "a"),
            (8, ""),
            (8, "1a"),
            (8, "a1 "),
        ] {
            assert!(parse_square(n, bad).is_err(), "{n} {bad:?}");
        }
    }

    #[test]
    fn eight_by_eight_names() {
        assert_eq!(square_name(8, 2 * 8 + 3), "d3");
        assert_eq!(parse_square(8, "h8").unwrap(), 63);
        assert_eq!(parse_square(8, "H8").unwrap(), 63);
        assert_eq!(parse_square(8, "a1").unwrap(), 0);
        for bad in ["", "a", "a0", "a9", "i1", "a10", "1a", " a1", "a1 ", "é1"] {
            assert!(
                matches!(parse_square(8, bad), Err(Error::Parse(_))),
                "{bad:?}"
            );
        }
    }
}
