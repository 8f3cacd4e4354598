//! When a match has said enough: a sequential probability ratio test on
//! the game pairs of a match (each opening played twice, colours swapped),
//! and the Elo difference with its error bars.
//!
//! The test weighs H0, "A is `elo0` stronger than B", against H1, "A is
//! `elo1` stronger" (logistic Elo), with the generalised SPRT's normal
//! approximation on pair scores (the pentanomial model: a pair scores 0,
//! 1/4, 1/2, 3/4 or 1 a game, which keeps the opening's share of the
//! variance out of the noise, as fishtest does for Stockfish):
//!
//! LLR = n (s1 - s0) (2 x - s0 - s1) / (2 v)
//!
//! with n pairs of mean score x and variance v, s0 and s1 the scores the
//! two Elo differences expect. The match stops when the LLR leaves
//! (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)): below, H0 is
//! accepted, above, H1, each with the error rate asked for.

/// The expected score of a player `elo` stronger (logistic).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference a score `s` (0 < s < 1) stands for.
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The test's settings: H0 and H1 in Elo, the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Play on.
    Continue,
    /// A is not `elo1` stronger (H0 accepted).
    H0,
    /// A is at least `elo0` stronger (H1 accepted).
    H1,
}

impl Sprt {
    /// `ELO0,ELO1` as the command line gives it, with the error rates.
    pub fn parse(text: &str, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let bad = || format!("--sprt {text:?}: ELO0,ELO1 expected, ELO0 < ELO1 (e.g. 0,20)");
        let (a, b) = text.split_once(',').ok_or_else(bad)?;
        let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
        let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(bad());
        }
        for (name, v) in [("--sprt-alpha", alpha), ("--sprt-beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("{name} {v} is not in (0, 0.5)"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR bounds: below the first H0 is accepted, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `pairs` (0 while the scores have no
    /// variance to judge by).
    pub fn llr(&self, pairs: &Pairs) -> f64 {
        let (n, mean, var) = (pairs.n() as f64, pairs.mean(), pairs.variance());
        if n < 2.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, pairs: &Pairs) -> Verdict {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The scores of a match's game pairs, each a game's mean (0..=1).
#[derive(Clone, Debug, Default)]
pub struct Pairs {
    scores: Vec<f64>,
}

impl Pairs {
    /// Adds a pair from A's two games' scores (1 win, 1/2 draw, 0 loss).
    pub fn add(&mut self, first: f64, second: f64) {
        self.scores.push((first + second) / 2.0);
    }

    pub fn n(&self) -> usize {
        self.scores.len()
    }

    pub fn mean(&self) -> f64 {
        if self.scores.is_empty() {
            return 0.5;
        }
        self.scores.iter().sum::<f64>() / self.scores.len() as f64
    }

    /// The variance of a pair's score: of the pairs seen and two more,
    /// scoring 1/4 and 3/4, as a prior. Without it, a match that opens
    /// with a few wins in a row would have no variance, and the test
    /// infinite evidence; with it, eight won pairs are needed to accept a
    /// 35 Elo H1. It weighs nothing after a few hundred pairs.
    pub fn variance(&self) -> f64 {
        let mean = self.mean();
        let prior = [0.25, 0.75];
        let n = (self.scores.len() + prior.len()) as f64;
        self.scores
            .iter()
            .chain(&prior)
            .map(|s| (s - mean).powi(2))
            .sum::<f64>()
            / n
    }

    /// The Elo difference with its 95% interval, `(elo, low, high)`
    /// (None before both a win and a loss make it finite).
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let mean = self.mean();
        if self.n() < 2 || mean <= 0.0 || mean >= 1.0 {
            return None;
        }
        let half = 1.96 * (self.variance() / self.n() as f64).sqrt();
        let clamp = |s: f64| s.clamp(1e-6, 1.0 - 1e-6);
        Some((
            elo_of_score(mean),
            elo_of_score(clamp(mean - half)),
            elo_of_score(clamp(mean + half)),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(scores: &[(f64, f64)]) -> Pairs {
        let mut p = Pairs::default();
        for &(a, b) in scores {
            p.add(a, b);
        }
        p
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-300.0, -50.0, 0.0, 35.0, 100.0, 400.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        // 400 Elo: ten times the odds.
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
        // 0.55 is about 35 Elo.
        assert!((elo_of_score(0.55) - 34.86).abs() < 0.01);
    }

    #[test]
    fn the_test_accepts_the_hypothesis_the_games_follow() {
        let sprt = Sprt::parse("0,35", 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - (19.0f64).ln()).abs() < 1e-12 && (lower + upper).abs() < 1e-12);
        // Pairs scoring 0.6 on average (70 Elo): H1 soon.
        let strong: Vec<_> = (0..400)
            .map(|i| [(1.0, 0.5), (1.0, 0.0), (0.5, 0.5), (0.0, 0.5), (1.0, 1.0)][i % 5])
            .collect();
        let mut p = Pairs::default();
        let at = strong.iter().position(|&(a, b)| {
            p.add(a, b);
            sprt.verdict(&p) != Verdict::Continue
        });
        assert_eq!(sprt.verdict(&p), Verdict::H1, "{at:?}");
        assert!(at.unwrap() < 300, "{at:?}");
        // Even pairs: H0.
        let even: Vec<_> = (0..2000)
            .map(|i| [(1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 0.5), (0.0, 0.5)][i % 5])
            .collect();
        let mut p = Pairs::default();
        for &(a, b) in &even {
            p.add(a, b);
            if sprt.verdict(&p) != Verdict::Continue {
                break;
            }
        }
        assert_eq!(sprt.verdict(&p), Verdict::H0);
        // Halfway between the hypotheses the evidence is nil.
        let mid = (score_of_elo(0.0) + score_of_elo(35.0)) / 2.0;
        let (hi, lo) = (mid + 0.25, mid - 0.25);
        let p = pairs(&[(hi, hi), (lo, lo), (hi, hi), (lo, lo)]);
        assert!(p.variance() > 0.04);
        assert!(sprt.llr(&p).abs() < 1e-9, "{}", sprt.llr(&p));
    }

    #[test]
    fn elo_error_bars_narrow_with_games() {
        let few = pairs(&[(1.0, 0.0), (1.0, 0.5), (0.5, 0.5), (0.0, 1.0)]);
        let many = pairs(&[(1.0, 0.0), (1.0, 0.5), (0.5, 0.5), (0.0, 1.0)].repeat(25));
        let (e1, lo1, hi1) = few.elo().unwrap();
        let (e2, lo2, hi2) = many.elo().unwrap();
        assert!((e1 - e2).abs() < 1e-9 && e1 > 0.0);
        assert!(lo1 < lo2 && lo2 < e2 && e2 < hi2 && hi2 < hi1);
        assert_eq!(pairs(&[(1.0, 1.0), (1.0, 1.0)]).elo(), None);
    }

    #[test]
    fn a_run_of_wins_needs_a_few_pairs() {
        let sprt = Sprt::parse("0,35", 0.05, 0.05).unwrap();
        let mut p = Pairs::default();
        let mut decided = None;
        for n in 1..=20 {
            p.add(1.0, 1.0);
            if sprt.verdict(&p) != Verdict::Continue {
                decided = Some(n);
                break;
            }
        }
        assert_eq!(decided, Some(8));
        assert_eq!(sprt.verdict(&p), Verdict::H1);
    }

    #[test]
    fn bad_settings_are_refused() {
        for bad in ["", "10", "10,0", "5,5", "a,b", "0,inf"] {
            assert!(Sprt::parse(bad, 0.05, 0.05).is_err(), "{bad}");
        }
        assert!(Sprt::parse("0,10", 0.0, 0.05).is_err());
        assert!(Sprt::parse("0,10", 0.05, 0.5).is_err());
        assert!(Sprt::parse(" -5 , 10 ", 0.05, 0.1).is_ok());
    }
}
