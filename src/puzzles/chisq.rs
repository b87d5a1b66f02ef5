//! Chi-square goodness of fit for the samplers' tests (exact laws against sampled pages).

use std::collections::HashMap;

/// Upper-tail p-value of a chi-square statistic (Wilson–Hilferty normal approximation).
fn chi2_p(stat: f64, df: usize) -> f64 {
    let k = df as f64;
    let z = ((stat / k).powf(1.0 / 3.0) - (1.0 - 2.0 / (9.0 * k))) / (2.0 / (9.0 * k)).sqrt();
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// Complementary error function (Numerical Recipes erfcc, relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Chi-square goodness of fit of observed counts against exact probabilities; the p-value.
pub(crate) fn fit<K: std::hash::Hash + Eq>(observed: &HashMap<K, usize>, exact: &HashMap<K, f64>) -> f64 {
    let n: usize = observed.values().sum();
    assert!(observed.keys().all(|k| exact.contains_key(k)), "a sample fell outside the support");
    if exact.len() < 2 {
        return 1.0;
    }
    let stat: f64 = exact
        .iter()
        .map(|(k, &p)| {
            let e = p * n as f64;
            let o = *observed.get(k).unwrap_or(&0) as f64;
            (o - e).powi(2) / e
        })
        .sum();
    chi2_p(stat, exact.len() - 1)
}
