//! Small dense symmetric positive-definite matrices (one row and column per category): the
//! Cholesky factor, solving with it, and the inverse. Row-major `Vec<f64>` of `d * d`.

/// The lower Cholesky factor `L` of the symmetric positive-definite `a` (`a = L Lᵀ`), or
/// `None` when `a` is not positive definite.
pub(crate) fn cholesky(a: &[f64], d: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; d * d];
    for i in 0..d {
        for j in 0..=i {
            let mut sum = a[i * d + j];
            for k in 0..j {
                sum -= l[i * d + k] * l[j * d + k];
            }
            if i == j {
                if sum <= 0.0 || !sum.is_finite() {
                    return None;
                }
                l[i * d + i] = sum.sqrt();
            } else {
                l[i * d + j] = sum / l[j * d + j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b` in place, `l` a Cholesky factor.
pub(crate) fn solve(l: &[f64], d: usize, b: &mut [f64]) {
    for i in 0..d {
        let mut sum = b[i];
        for k in 0..i {
            sum -= l[i * d + k] * b[k];
        }
        b[i] = sum / l[i * d + i];
    }
    for i in (0..d).rev() {
        let mut sum = b[i];
        for k in i + 1..d {
            sum -= l[k * d + i] * b[k];
        }
        b[i] = sum / l[i * d + i];
    }
}

/// The inverse of the symmetric positive-definite `a`, or `None` when it is not.
pub(crate) fn inverse(a: &[f64], d: usize) -> Option<Vec<f64>> {
    let l = cholesky(a, d)?;
    let mut inv = vec![0.0; d * d];
    let mut column = vec![0.0; d];
    for j in 0..d {
        column.fill(0.0);
        column[j] = 1.0;
        solve(&l, d, &mut column);
        for i in 0..d {
            inv[i * d + j] = column[i];
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts_a_small_system() {
        let a = [4.0, 2.0, 0.6, 2.0, 5.0, 1.0, 0.6, 1.0, 3.0];
        let mut x = [1.0, 2.0, 3.0];
        let l = cholesky(&a, 3).unwrap();
        solve(&l, 3, &mut x);
        // a · x = (1, 2, 3)
        for (i, want) in [1.0, 2.0, 3.0].iter().enumerate() {
            let got: f64 = (0..3).map(|k| a[i * 3 + k] * x[k]).sum();
            assert!((got - want).abs() < 1e-12, "{got} {want}");
        }
        let inv = inverse(&a, 3).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let got: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                assert!((got - f64::from(u8::from(i == j))).abs() < 1e-12);
            }
        }
        assert!(cholesky(&[1.0, 2.0, 2.0, 1.0], 2).is_none(), "not positive definite");
    }
}
