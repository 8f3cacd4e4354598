//! A deliberately simple Othello: an array of cells, walking the 8 directions
//! square by square. It shares no code with the library, so the two can check
//! each other. Works for any even board size.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Black,
    White,
}

impl Cell {
    pub fn other(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::Empty => Cell::Empty,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefBoard {
    pub size: usize,
    pub cells: Vec<Cell>,
    pub to_move: Cell,
}

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl RefBoard {
    pub fn new(size: usize) -> RefBoard {
        let mut cells = vec![Cell::Empty; size * size];
        let h = size / 2;
        cells[(h - 1) * size + (h - 1)] = Cell::White;
        cells[h * size + h] = Cell::White;
        cells[(h - 1) * size + h] = Cell::Black;
        cells[h * size + (h - 1)] = Cell::Black;
        RefBoard {
            size,
            cells,
            to_move: Cell::Black,
        }
    }

    /// Squares (row * size + col) flipped if `who` plays on `sq`, ascending.
    pub fn flips_for(&self, who: Cell, sq: usize) -> Vec<usize> {
        if self.cells[sq] != Cell::Empty {
            return Vec::new();
        }
        let n = self.size as i32;
        let (r0, c0) = ((sq / self.size) as i32, (sq % self.size) as i32);
        let mut out = Vec::new();
        for (dc, dr) in DIRS {
            let mut line = Vec::new();
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            while r >= 0 && r < n && c >= 0 && c < n {
                let i = (r * n + c) as usize;
                if self.cells[i] == who.other() {
                    line.push(i);
                } else {
                    if self.cells[i] == who {
                        out.extend(line.iter().copied());
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        out.sort_unstable();
        out
    }

    pub fn moves_for(&self, who: Cell) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&s| !self.flips_for(who, s).is_empty())
            .collect()
    }

    pub fn moves(&self) -> Vec<usize> {
        self.moves_for(self.to_move)
    }

    pub fn must_pass(&self) -> bool {
        self.moves().is_empty() && !self.moves_for(self.to_move.other()).is_empty()
    }

    pub fn game_over(&self) -> bool {
        self.moves().is_empty() && self.moves_for(self.to_move.other()).is_empty()
    }

    /// Plays a legal move and returns the flips.
    pub fn play(&mut self, sq: usize) -> Vec<usize> {
        let flips = self.flips_for(self.to_move, sq);
        assert!(!flips.is_empty(), "reference: illegal move {sq}");
        for &f in &flips {
            self.cells[f] = self.to_move;
        }
        self.cells[sq] = self.to_move;
        self.to_move = self.to_move.other();
        flips
    }

    pub fn pass(&mut self) {
        self.to_move = self.to_move.other();
    }

    pub fn count(&self, c: Cell) -> usize {
        self.cells.iter().filter(|&&x| x == c).count()
    }

    /// Perft with passes as a ply and finished games as leaves.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            if self.game_over() {
                return 1;
            }
            let mut b = self.clone();
            b.pass();
            return b.perft(depth - 1);
        }
        moves
            .into_iter()
            .map(|m| {
                let mut b = self.clone();
                b.play(m);
                b.perft(depth - 1)
            })
            .sum()
    }
}
