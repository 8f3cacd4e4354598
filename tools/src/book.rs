//! Building the opening book (`othello-book`): which positions it holds,
//! the part files that searching them writes, and the negamax that turns
//! the parts into a book.
//!
//! The positions ("nodes") are those that real games and the XOT openings
//! reach: every position of every XOT opening, and every position of the
//! first `plies` moves of a game collection that at least `min_games` of
//! its games reach (transpositions and symmetries count as one position,
//! so this covers every line that many games share). Positions where the
//! side to move must pass are left out.
//!
//! A move of a node that leads to another node is a book move: its value
//! is minus that node's value. Each node is searched once for the best of
//! its other moves (the "leaf" move: what the book knows beyond the games);
//! a node's value is the best of all its moves. Searching is the long
//! part, and the one that runs sharded: node `i` of the sorted node list
//! belongs to shard `i % N + 1` of `N`, and each shard writes a part file.

use crate::games::Position;
use othello::board::Bits;
use othello::book::{canonical, Book, BookMove};
use othello::engine::{Engine, Limits};
use othello::notation::parse_transcript;
use othello::Error;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::atomic::AtomicBool;

/// A position in canonical form (see [`othello::book::canonical`]).
pub type Key = (u64, u64);

/// The canonical key of a position.
pub fn key(pos: Position) -> Key {
    let (p, o, _) = canonical(pos.player, pos.opponent);
    (p, o)
}

/// The position of a key.
pub fn position(k: Key) -> Position {
    Position::new(k.0, k.1)
}

/// Positions along the moves of a line, the start and the last included;
/// passes are played where the side to move has no move.
pub fn line_positions(moves: &[u32]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut out = vec![pos];
    for &sq in moves {
        if pos.legal_moves().is_zero() {
            pos = pos.pass();
        }
        match pos.play(sq) {
            Some(next) => pos = next,
            None => break,
        }
        out.push(pos);
    }
    out
}

/// The moves of a transcript line (`f5d6c3...`, anything after whitespace
/// ignored).
pub fn parse_moves(line: &str) -> Result<Vec<u32>, Error> {
    let moves = line.split_whitespace().next().unwrap_or("");
    let game = parse_transcript::<othello::board::S8>(moves)?;
    Ok(game
        .moves()
        .filter_map(|m| match m {
            othello::Move::Play(sq) => Some(sq),
            othello::Move::Pass => None,
        })
        .collect())
}

/// The nodes: every position of `openings` (whole lines), and the
/// positions within the first `plies` moves of `games` that at least
/// `min_games` of them reach. Sorted; positions to pass left out.
pub fn nodes(
    openings: &[Vec<u32>],
    games: &[Vec<u32>],
    plies: usize,
    min_games: usize,
) -> Vec<Key> {
    let mut set = BTreeSet::new();
    for line in openings {
        set.extend(line_positions(line).into_iter().map(key));
    }
    let mut counts: HashMap<Key, usize> = HashMap::new();
    for line in games {
        let prefix = &line[..line.len().min(plies)];
        let mut seen: Vec<Key> = line_positions(prefix).into_iter().map(key).collect();
        seen.sort_unstable();
        seen.dedup();
        for k in seen {
            *counts.entry(k).or_default() += 1;
        }
    }
    set.extend(
        counts
            .into_iter()
            .filter(|&(_, n)| n >= min_games)
            .map(|(k, _)| k),
    );
    set.into_iter()
        .filter(|&k| !position(k).legal_moves().is_zero())
        .collect()
}

/// Deviations of a book: the positions, not yet in it, one move away from
/// its positions that play reaches in the first `plies` moves when it
/// chooses among the book's moves within `margin` discs of the best (as a
/// search with randomness `margin` does). Searching them gives those
/// positions a value for every move, so that more moves come within the
/// margin where games actually go. Sorted; positions to pass left out.
pub fn deviations(book: &Book, plies: usize, margin: i32) -> Vec<Key> {
    fn walk(
        book: &Book,
        pos: Position,
        ply: usize,
        (plies, margin): (usize, i32),
        seen: &mut HashSet<Key>,
        new: &mut BTreeSet<Key>,
    ) {
        if ply >= plies || !seen.insert(key(pos)) {
            return;
        }
        let moves = book.moves(pos.player, pos.opponent);
        let Some(top) = moves.first().map(|m| m.value) else {
            return;
        };
        for sq in pos.legal_moves().squares() {
            let child = pos.play(sq).expect("a legal move");
            if book.moves(child.player, child.opponent).is_empty() && !child.legal_moves().is_zero()
            {
                new.insert(key(child));
            }
        }
        for m in moves.iter().filter(|m| m.value >= top - margin) {
            let child = pos.play(m.square).expect("a legal book move");
            walk(book, child, ply + 1, (plies, margin), seen, new);
        }
    }
    let mut new = BTreeSet::new();
    walk(
        book,
        Position::start(),
        0,
        (plies, margin),
        &mut HashSet::new(),
        &mut new,
    );
    new.into_iter().collect()
}

/// The moves of the node `k` (canonical squares) that lead to nodes.
pub fn book_children(k: Key, is_node: &dyn Fn(Key) -> bool) -> Vec<(u32, Key)> {
    let pos = position(k);
    pos.legal_moves()
        .squares()
        .filter_map(|sq| {
            let child = pos.play(sq)?;
            let ck = key(child);
            is_node(ck).then_some((sq, ck))
        })
        .collect()
}

/// What searching one node found: its best move outside the book and that
/// move's value (discs, side to move's view), or None when every move is a
/// book move; and the level searched (a deeper search of the same node
/// replaces a shallower one when parts merge).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Leaf {
    pub key: Key,
    pub best: Option<(u32, i32)>,
    pub level: u32,
}

impl Leaf {
    /// `PLAYER OPPONENT MOVE VALUE LEVEL`: hex bit sets, then the move
    /// (`--` for none) and its value, then the level.
    pub fn to_line(&self) -> String {
        let (mv, v) = match self.best {
            Some((sq, v)) => (othello::notation::square_name(8, sq), v),
            None => ("--".to_string(), 0),
        };
        format!(
            "{:016x} {:016x} {mv} {v:+} {}",
            self.key.0, self.key.1, self.level
        )
    }

    /// Parses [`Leaf::to_line`]'s output, checking the position and move.
    pub fn parse(line: &str) -> Result<Leaf, String> {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [p, o, mv, v, level] = f[..] else {
            return Err(format!("expected 5 fields: {line:?}"));
        };
        let hex = |s: &str| u64::from_str_radix(s, 16).map_err(|_| format!("bad bits {s:?}"));
        let key = (hex(p)?, hex(o)?);
        if key.0 & key.1 != 0 || self::key(position(key)) != key {
            return Err(format!("not a canonical position: {line:?}"));
        }
        let value: i32 = v.parse().map_err(|_| format!("bad value {v:?}"))?;
        let level: u32 = level.parse().map_err(|_| format!("bad level {level:?}"))?;
        let best = if mv == "--" {
            None
        } else {
            let sq = othello::notation::parse_square(8, mv).map_err(|e| e.to_string())?;
            if !position(key).legal_moves().has(sq) || value.abs() > 64 {
                return Err(format!("illegal move or value: {line:?}"));
            }
            Some((sq, value))
        };
        Ok(Leaf { key, best, level })
    }
}

/// Searches node `k` under `limits` (book off) among its moves that do not
/// lead to nodes, from a cleared table (so the result does not depend on
/// which shard searched the node, or after what).
pub fn search_leaf(
    engine: &mut Engine,
    k: Key,
    limits: &Limits,
    level: u32,
    is_node: &dyn Fn(Key) -> bool,
) -> Result<Leaf, Error> {
    let pos = position(k);
    let mut others = pos.legal_moves();
    for (sq, _) in book_children(k, is_node) {
        others &= !<u64 as Bits>::bit(sq);
    }
    if others.is_zero() {
        return Ok(Leaf {
            key: k,
            best: None,
            level,
        });
    }
    let mut limits = *limits;
    limits.book = false;
    engine.clear();
    let stop = AtomicBool::new(false);
    let r = engine.search_among(pos, others, &limits, &stop, &mut |_| {})?;
    let sq = r.best.expect("a move: the side to move has some");
    let value = othello::eval::discs(r.score);
    Ok(Leaf {
        key: k,
        best: Some((sq, value.clamp(-64, 64))),
        level,
    })
}

/// The book of a set of searched nodes: every node's book moves (valued by
/// negamax) and its leaf move. When a node was searched more than once,
/// the deepest search counts (the last of equal levels).
pub fn negamax(leaves: &[Leaf]) -> Book {
    let mut by_key: HashMap<Key, Leaf> = HashMap::new();
    for l in leaves {
        if by_key.get(&l.key).is_none_or(|old| old.level <= l.level) {
            by_key.insert(l.key, *l);
        }
    }
    let is_node = |k: Key| by_key.contains_key(&k);
    let mut value: HashMap<Key, i32> = HashMap::new();
    let mut book = Book::new();
    // Deepest positions first (most discs): children before parents.
    let mut keys: Vec<Key> = by_key.keys().copied().collect();
    keys.sort_by_key(|k| (std::cmp::Reverse((k.0 | k.1).count_ones()), *k));
    for k in keys {
        let mut moves: Vec<BookMove> = book_children(k, &is_node)
            .into_iter()
            .map(|(sq, ck)| BookMove {
                square: sq,
                value: -value[&ck],
            })
            .collect();
        if let Some((sq, v)) = by_key[&k].best {
            if !moves.iter().any(|m| m.square == sq) {
                moves.push(BookMove {
                    square: sq,
                    value: v,
                });
            }
        }
        let best = moves
            .iter()
            .map(|m| m.value)
            .max()
            .expect("a node has moves");
        value.insert(k, best);
        book.insert(k.0, k.1, &moves)
            .expect("the moves of a node are legal");
    }
    book
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Vec<u32> {
        parse_moves(s).unwrap()
    }

    #[test]
    fn nodes_count_positions_reached_by_enough_games() {
        let games = vec![line("f5d6c3"), line("f5d6c5"), line("e6f4e3")];
        // e6f4 is f5d6 mirrored: three games share its first two positions.
        let n = nodes(&[], &games, 2, 3);
        assert_eq!(n.len(), 3);
        assert_eq!(
            n[..],
            {
                let mut v: Vec<Key> = line_positions(&line("f5d6")).into_iter().map(key).collect();
                v.sort();
                v
            }[..]
        );
        // At three plies, e6f4e3 is f5d6c5 transposed: two games reach it,
        // one reaches f5d6c3.
        assert_eq!(nodes(&[], &games, 3, 2).len(), 4);
        assert_eq!(nodes(&[], &games, 3, 1).len(), 5);
        // Openings count whole.
        assert_eq!(nodes(&[line("f5d6c3d3")], &[], 0, 1).len(), 5);
    }

    #[test]
    fn deviations_are_the_unknown_moves_along_near_best_lines() {
        // A book of the start alone: its four moves lead to one position
        // (up to symmetry), which is the one deviation; with f5 known and
        // worth 0 to white, d6-like replies within the margin follow.
        let start = Position::start();
        let mut book = Book::new();
        book.insert(
            start.player,
            start.opponent,
            &[BookMove {
                square: 37,
                value: 0,
            }],
        )
        .unwrap();
        let f5 = start.play(37).unwrap();
        assert_eq!(deviations(&book, 12, 2), vec![key(f5)]);
        assert!(deviations(&book, 0, 2).is_empty());
        let reply = f5.legal_moves().squares().next().unwrap();
        book.insert(
            f5.player,
            f5.opponent,
            &[BookMove {
                square: reply,
                value: 0,
            }],
        )
        .unwrap();
        let d = deviations(&book, 12, 2);
        // f5's three replies (the known one too: the position it leads to
        // is not in the book yet).
        let after = f5.play(reply).unwrap();
        assert!(d.contains(&key(after)) || !book.moves(after.player, after.opponent).is_empty());
        assert!(d.len() >= 3, "{}", d.len());
        assert!(!d.contains(&key(f5)));
    }

    #[test]
    fn shards_merge_into_the_book_of_one_run() {
        // The searches of a node do not depend on what the engine searched
        // before: two shards with their own engines give one run's book.
        let openings = [line("f5d6c3d3c4"), line("f5f6e6f4"), line("f5f4e3")];
        let all = nodes(&openings, &[], 0, 1);
        let set: HashSet<Key> = all.iter().copied().collect();
        let is_node = |k: Key| set.contains(&k);
        let limits = Limits::level(3).unwrap();
        let search = |keys: &mut dyn Iterator<Item = &Key>| -> Vec<Leaf> {
            let mut engine = Engine::new(1);
            keys.map(|&k| search_leaf(&mut engine, k, &limits, 3, &is_node).unwrap())
                .collect()
        };
        let one = search(&mut all.iter());
        let mut parts = search(&mut all.iter().step_by(2));
        parts.extend(search(&mut all.iter().skip(1).step_by(2)));
        assert_eq!(negamax(&one), negamax(&parts));
        assert_eq!(negamax(&one).len(), all.len());
    }

    #[test]
    fn leaves_round_trip_and_bad_lines_are_refused() {
        let k = key(Position::start());
        let leaf = Leaf {
            key: k,
            best: Some((19, -3)),
            level: 10,
        };
        assert_eq!(Leaf::parse(&leaf.to_line()), Ok(leaf));
        let none = Leaf { best: None, ..leaf };
        assert_eq!(Leaf::parse(&none.to_line()), Ok(none));
        assert!(Leaf::parse("0 0 d3 +1 10").is_err());
        let a1 = leaf.to_line().replace("d3", "a1");
        assert!(Leaf::parse(&a1).is_err());
    }

    #[test]
    fn negamax_values_book_moves_from_their_children() {
        // Nodes: the start, after f5 (all four first moves: one position)
        // and after f5d6. Leaves searched by hand-made values.
        let start = key(Position::start());
        let f5 = key(Position::start().play(37).unwrap());
        let f5d6 = key(line_positions(&line("f5d6"))[2]);
        let leaves = [
            Leaf {
                key: start,
                best: None,
                level: 1,
            },
            Leaf {
                key: f5,
                best: Some((
                    position(f5)
                        .legal_moves()
                        .squares()
                        .find(|&s| key(position(f5).play(s).unwrap()) != f5d6)
                        .unwrap(),
                    -5,
                )),
                level: 1,
            },
            Leaf {
                key: f5d6,
                best: Some((position(f5d6).legal_moves().squares().next().unwrap(), 4)),
                level: 1,
            },
            // A shallower search of f5d6 does not count.
            Leaf {
                key: f5d6,
                best: Some((position(f5d6).legal_moves().squares().next().unwrap(), 30)),
                level: 0,
            },
        ];
        let book = negamax(&leaves);
        assert_eq!(book.len(), 3);
        // After f5 the side to move (white) gets -4 via d6-like moves,
        // -5 via its leaf: value -4; the start's four moves are worth 4.
        let s = Position::start();
        let moves = book.moves(s.player, s.opponent);
        assert_eq!(moves.len(), 4);
        assert!(moves.iter().all(|m| m.value == 4), "{moves:?}");
        let after = s.play(37).unwrap();
        let m = book.moves(after.player, after.opponent);
        assert_eq!(m[0].value, -4);
        assert!(m.iter().any(|x| x.value == -5));
    }
}
