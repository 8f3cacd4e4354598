//! Fitting the pattern weights to self-play games (`othello-train`).
//!
//! Each stage is a ridge regression: minimise, over the stage's samples,
//! the squared error between the sum of the sample's feature weights and its
//! label (in discs), plus `lambda` times the sum of squared weights. Every
//! feature is 0/1 (a pattern configuration is present or not), so the
//! normal equations are solved by conjugate gradients preconditioned with
//! the diagonal (each feature's count + `lambda`), which converges in a
//! hundred or so passes over the data with no learning rate to tune.
//! Configurations never seen keep weight 0.

use crate::datagen::{GameRecord, PlyKind};
use othello::board::{Bits, S8};
use othello::eval::pattern::{Layout, PatternWeights};
use othello::Position;
use std::sync::Arc;

/// One labelled position, as features.
#[derive(Clone)]
pub struct Row {
    pub pos: Position<S8>,
    /// Its weight indices in the layout being trained
    /// ([`Layout::feature_indices`]).
    pub features: Box<[u32]>,
    /// The label, in discs.
    pub target: f32,
    pub empties: u8,
    /// The label is the exact score (perfect play from here).
    pub exact: bool,
}

/// How labels are made and the fit is run.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    /// Stages and empties per stage of the weights written.
    pub stages: u32,
    pub width: u32,
    /// Samples up to this many empties beyond a stage's range on either side
    /// train it too (smoother weights across stages).
    pub overlap: u32,
    /// Ridge penalty per weight.
    pub lambda: f32,
    /// Conjugate-gradient iterations per stage.
    pub iterations: u32,
    /// The label of a midgame position: `(1 - mix) * game result + mix *
    /// search value`. Exact positions are always labelled exactly.
    pub mix: f32,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            stages: 12,
            width: 5,
            overlap: 2,
            lambda: 4.0,
            iterations: 120,
            mix: 0.0,
        }
    }
}

/// The rows of `games`, as features of `layout`.
pub fn rows_of(layout: &Layout, games: &[GameRecord], mix: f32) -> Vec<Row> {
    let mut out = Vec::new();
    for g in games {
        for s in g.samples() {
            let exact = s.kind == PlyKind::Exact;
            let result = s.result as f32;
            let target = if exact || s.kind == PlyKind::Opening {
                result
            } else {
                (1.0 - mix) * result + mix * s.score as f32 / 100.0
            };
            out.push(row(layout, s.pos, target, exact));
        }
    }
    out
}

/// The rows of text-collection games: every position where a move was
/// played, labelled by the game's result for the side to move.
pub fn text_rows(layout: &Layout, games: &[crate::games::TextGame]) -> Vec<Row> {
    let mut out = Vec::new();
    for g in games {
        for (pos, side, _) in g.positions() {
            out.push(row(layout, pos, g.result_for(side) as f32, false));
        }
    }
    out
}

/// A row for `pos` with label `target` (discs).
pub fn row(layout: &Layout, pos: Position<S8>, target: f32, exact: bool) -> Row {
    Row {
        pos,
        features: layout.feature_indices(pos).into_boxed_slice(),
        target,
        empties: pos.empties().count() as u8,
        exact,
    }
}

/// Fits one stage's weights (in discs, one per index of `layout`) to
/// `rows` (features of `layout`) by preconditioned conjugate gradients on
/// the ridge normal equations. Features are mapped to their canonical
/// (shared) index.
pub fn fit(layout: &Layout, rows: &[&Row], lambda: f32, iterations: u32) -> Vec<f32> {
    let n = layout.len;
    let canon = |j: &u32| layout.canonical[*j as usize];
    // Canonical feature lists, once, `active` to a row (all of a layout's,
    // or the new patterns' alone in a fit on top of other weights).
    let active = rows.first().map_or(1, |r| r.features.len());
    assert!(rows.iter().all(|r| r.features.len() == active));
    let flat: Vec<u32> = rows
        .iter()
        .flat_map(|r| r.features.iter().map(canon))
        .collect();
    let xs: Vec<&[u32]> = flat.chunks_exact(active).collect();
    let mut count = vec![0f64; n];
    let mut b = vec![0f64; n];
    for (x, r) in xs.iter().zip(rows) {
        for &j in x.iter() {
            count[j as usize] += 1.0;
            b[j as usize] += r.target as f64;
        }
    }
    let lambda = lambda as f64;
    let used: Vec<bool> = count.iter().map(|&c| c > 0.0).collect();
    let precond: Vec<f64> = count.iter().map(|&c| 1.0 / (c + lambda)).collect();
    // A v = X^T X v + lambda v, over the used features.
    let apply = |v: &[f64], out: &mut Vec<f64>| {
        out.iter_mut().for_each(|o| *o = 0.0);
        for x in &xs {
            let s: f64 = x.iter().map(|&j| v[j as usize]).sum();
            for &j in x.iter() {
                out[j as usize] += s;
            }
        }
        for j in 0..n {
            out[j] = if used[j] { out[j] + lambda * v[j] } else { 0.0 };
        }
    };
    let mut w = vec![0f64; n];
    let mut r = b.clone();
    let mut z: Vec<f64> = r.iter().zip(&precond).map(|(a, p)| a * p).collect();
    let mut p = z.clone();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut ap = vec![0f64; n];
    for _ in 0..iterations {
        if rz <= 1e-12 {
            break;
        }
        apply(&p, &mut ap);
        let pap: f64 = p.iter().zip(&ap).map(|(a, b)| a * b).sum();
        if pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for j in 0..n {
            w[j] += alpha * p[j];
            r[j] -= alpha * ap[j];
        }
        for j in 0..n {
            z[j] = r[j] * precond[j];
        }
        let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for j in 0..n {
            p[j] = z[j] + beta * p[j];
        }
    }
    w.into_iter().map(|v| v as f32).collect()
}

/// Prepares `rows` (features of `layout`) for a fit on top of `base`, whose
/// patterns are the first of `layout`'s: each label becomes what `base`'s
/// evaluation leaves over, and each row keeps only the features of the
/// patterns `base` lacks. Fitted on these and added to `base` by
/// [`on_top_of`], the new patterns learn what the old ones miss, while
/// every old weight (and so the evaluation of positions whose new-pattern
/// configurations never occur in `rows`) stays as it was.
pub fn residual_rows(base: &PatternWeights, layout: &Layout, rows: &mut [Row]) {
    assert!(layout.masks().starts_with(base.layout().masks()));
    let (from, to) = (base.layout().instances(), layout.instances());
    for r in rows {
        r.target -= base.evaluate(r.pos) as f32 / 100.0;
        r.features = r.features[from..to].into();
    }
}

/// Rows for tuning `base` (weights of the rows' own layout): each target
/// becomes what `base`'s evaluation leaves over, every feature kept. A fit
/// of them added to `base` by [`on_top_of`] moves each weight only as far
/// as the rows and the ridge penalty let it.
pub fn tuning_rows(base: &PatternWeights, rows: &mut [Row]) {
    for r in rows {
        r.target -= base.evaluate(r.pos) as f32 / 100.0;
    }
}

/// `delta` (weights of a fit of [`residual_rows`] or [`tuning_rows`]) plus
/// `base`, as weights of `delta`'s patterns: `base`'s tables added into the
/// same patterns' tables, the new patterns' from `delta` alone.
pub fn on_top_of(base: &PatternWeights, delta: &PatternWeights) -> PatternWeights {
    let (old, new) = (base.layout(), delta.layout());
    assert!(new.masks().starts_with(old.masks()));
    assert_eq!(
        (base.stages(), base.width()),
        (delta.stages(), delta.width())
    );
    let mut out = delta.clone();
    for s in 0..base.stages() as usize {
        let b = base.stage(s);
        let mut values: Vec<f32> = delta.stage(s).iter().map(|&v| v as f32 / 100.0).collect();
        let mut copy = |from: usize, to: usize, n: usize| {
            for i in 0..n {
                values[to + i] += b[from + i] as f32 / 100.0;
            }
        };
        for k in 0..old.masks().len() {
            copy(old.offsets[k], new.offsets[k], old.sizes[k]);
        }
        // The mobility and bias tables follow the patterns' in every
        // layout, in the same order and sizes.
        copy(
            old.mobility_offset,
            new.mobility_offset,
            old.len - old.mobility_offset,
        );
        out.set_stage(s, &values);
    }
    out
}

/// The rows that train stage `s` of `opts`.
pub fn stage_rows<'a>(rows: &'a [Row], opts: &TrainOptions, s: u32) -> Vec<&'a Row> {
    let lo = (s * opts.width).saturating_sub(opts.overlap);
    let hi = if s + 1 == opts.stages {
        64
    } else {
        s * opts.width + opts.width - 1 + opts.overlap
    };
    rows.iter()
        .filter(|r| (lo..=hi).contains(&(r.empties as u32)))
        .collect()
}

/// Fits every stage (on `threads` threads) and returns the weights of the
/// patterns of `layout` (the rows' features are of `layout`).
pub fn train(
    layout: &Arc<Layout>,
    rows: &[Row],
    opts: &TrainOptions,
    threads: usize,
) -> PatternWeights {
    let mut weights = PatternWeights::zero_with(layout.clone(), opts.stages, opts.width)
        .expect("valid stage layout");
    let next = std::sync::atomic::AtomicU32::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let s = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if s >= opts.stages {
                    break;
                }
                let stage = stage_rows(rows, opts, s);
                let w = fit(layout, &stage, opts.lambda, opts.iterations);
                results.lock().expect("no poisoned lock").push((s, w));
            });
        }
    });
    for (s, w) in results.into_inner().expect("no poisoned lock") {
        weights.set_stage(s as usize, &w);
    }
    weights
}

/// Mean absolute error in discs of `eval` (centi-discs) over `rows`.
pub fn mae(rows: &[&Row], eval: impl Fn(&Row) -> i32) -> f64 {
    if rows.is_empty() {
        return f64::NAN;
    }
    rows.iter()
        .map(|r| (eval(r) as f64 / 100.0 - r.target as f64).abs())
        .sum::<f64>()
        / rows.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{play_game, GenParams};
    use othello::engine::Engine;

    #[test]
    fn a_small_fit_beats_predicting_zero_and_matches_its_weights() {
        let params = GenParams {
            seed: 9,
            depth: 1,
            exact_empties: 6,
            random_min: 6,
            random_max: 30,
            noise_permille: 300,
        };
        let mut engine = Engine::new(1);
        let games: Vec<GameRecord> = (0..30)
            .map(|i| play_game(&mut engine, &params, i))
            .collect();
        for layout in [Layout::standard(), Layout::extended()] {
            check_fit(&layout, &games);
        }
        let base = half_fit(&games);
        check_fit_on_top(&base, &games);
        check_tuning(&base, &games);
    }

    /// The options of the small fits: 3 stages of 20 empties, few iterations.
    fn small_options() -> TrainOptions {
        TrainOptions {
            stages: 3,
            width: 20,
            iterations: 30,
            ..TrainOptions::default()
        }
    }

    /// Weights of the standard set fitted to the first half of `games` (30):
    /// the base of the fit on top and of the tuning.
    fn half_fit(games: &[GameRecord]) -> PatternWeights {
        let standard = Layout::standard();
        train(
            &standard,
            &rows_of(&standard, &games[..15], 0.0),
            &small_options(),
            2,
        )
    }

    /// Tuning weights on rows of some stages only: the other stages keep
    /// every weight, and the tuned weights fit the rows better.
    fn check_tuning(base: &PatternWeights, games: &[GameRecord]) {
        let opts = small_options();
        let standard = Layout::standard();
        // The other half, beyond stage 0 (0-19 empties) and its overlap.
        let mut rows = rows_of(&standard, &games[15..], 0.0);
        rows.retain(|r| r.empties >= 20 + opts.overlap as u8);
        let mut residual = rows.clone();
        tuning_rows(base, &mut residual);
        let tuned = on_top_of(base, &train(&standard, &residual, &opts, 2));
        assert_eq!(tuned.stage(0), base.stage(0));
        assert!((1..3).any(|s| tuned.stage(s) != base.stage(s)));
        let all: Vec<&Row> = rows.iter().collect();
        let before = mae(&all, |r| base.evaluate(r.pos));
        let after = mae(&all, |r| tuned.evaluate(r.pos));
        assert!(after < before, "tuned {after} vs base {before}");
    }

    /// A fit of the extra patterns on top of weights of the standard set:
    /// every old weight is kept, and the sum fits its training data better
    /// than the old weights alone.
    fn check_fit_on_top(base: &PatternWeights, games: &[GameRecord]) {
        let opts = small_options();
        let standard = Layout::standard();
        let extended = Layout::extended();
        let rows = rows_of(&extended, games, 0.0);
        let mut residual = rows.clone();
        residual_rows(base, &extended, &mut residual);
        assert!(residual.iter().all(|r| r.features.len() == 12));
        let delta = train(&extended, &residual, &opts, 2);
        let sum = on_top_of(base, &delta);
        assert_eq!(sum.layout().masks(), extended.masks());
        for s in 0..3 {
            let (b, w) = (base.stage(s), sum.stage(s));
            for k in 0..standard.masks().len() {
                let (from, to, n) = (standard.offsets[k], extended.offsets[k], standard.sizes[k]);
                assert_eq!(b[from..from + n], w[to..to + n], "stage {s} pattern {k}");
            }
            assert_eq!(b[standard.mobility_offset..], w[extended.mobility_offset..]);
        }
        let all: Vec<&Row> = rows.iter().collect();
        let before = mae(&all, |r| base.evaluate(r.pos));
        let after = mae(&all, |r| sum.evaluate(r.pos));
        assert!(after < before, "on top {after} vs base {before}");
    }

    /// Fits `games` with the patterns of `layout` and checks the fit.
    fn check_fit(layout: &Arc<Layout>, games: &[GameRecord]) {
        let rows = rows_of(layout, games, 0.0);
        let opts = small_options();
        let w = train(layout, &rows, &opts, 2);
        assert_eq!(w.layout().masks(), layout.masks());
        let all: Vec<&Row> = rows.iter().collect();
        // On its own training data the fit is far better than guessing 0.
        let fitted = mae(&all, |r| {
            let s = w.stage(w.stage_of(r.empties as u32));
            r.features.iter().map(|&j| s[j as usize] as i32).sum()
        });
        let zero = mae(&all, |_| 0);
        assert!(fitted < zero * 0.5, "fit {fitted} vs zero {zero}");
        // The file form keeps the fit.
        let back = PatternWeights::from_bytes(&w.to_bytes()).unwrap();
        assert!(back == w);
        for g in games.iter().take(3) {
            for s in g.samples() {
                assert_eq!(back.evaluate(s.pos), w.evaluate_reference(s.pos));
            }
        }
    }
}
