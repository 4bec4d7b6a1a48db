//! Non-finite floats in the JSON files: serde_json writes NaN and ±∞ as `null`; these
//! deserializers read `null` back as NaN, so a file with a diverged training still loads.

use serde::{Deserialize, Deserializer};

/// An `f64` that may be `null` (→ NaN).
pub fn f64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::NAN))
}

/// `f64`s that may be `null` (→ NaN).
pub fn f64s<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<f64>, D::Error> {
    let values = Vec::<Option<f64>>::deserialize(deserializer)?;
    Ok(values.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect())
}

/// Frames of `f64`s (`[frames][values]`) that may be `null` (→ NaN).
pub fn f64_frames<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Vec<f64>>, D::Error> {
    let frames = Vec::<Vec<Option<f64>>>::deserialize(deserializer)?;
    Ok(frames
        .into_iter()
        .map(|frame| frame.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect())
        .collect())
}

/// `f32`s that may be `null` (→ NaN).
pub fn f32s<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<f32>, D::Error> {
    let values = Vec::<Option<f32>>::deserialize(deserializer)?;
    Ok(values.into_iter().map(|v| v.unwrap_or(f32::NAN)).collect())
}

/// `(index, value)` points whose value may be `null` (→ NaN).
pub fn f32_points<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<(usize, f32)>, D::Error> {
    let points = Vec::<(usize, Option<f32>)>::deserialize(deserializer)?;
    Ok(points
        .into_iter()
        .map(|(i, v)| (i, v.unwrap_or(f32::NAN)))
        .collect())
}

#[cfg(test)]
mod tests {
    use crate::study::data::results::{SeedStat, SeedTraining};

    #[test]
    fn non_finite_values_come_back_as_nan() {
        let stat = SeedStat {
            mean: f64::NAN,
            std: f64::INFINITY,
            per_seed: vec![1.0, f64::NAN],
        };
        let json = serde_json::to_string(&stat).expect("json");
        assert_eq!(json, r#"{"mean":null,"std":null,"per_seed":[1.0,null]}"#);
        let back: SeedStat = serde_json::from_str(&json).expect("parse");
        assert!(back.mean.is_nan() && back.std.is_nan() && back.per_seed[1].is_nan());
        assert_eq!(back.per_seed[0], 1.0);
        let training = SeedTraining {
            seed: 0,
            iterations_done: 3,
            iterations_per_sec: 2.0,
            diverged_at: Some(2),
            loss_curve: vec![(0, 1.5), (2, f32::NAN)],
            gradient_skips: 0,
        };
        let json = serde_json::to_string(&training).expect("json");
        let back: SeedTraining = serde_json::from_str(&json).expect("parse");
        assert_eq!(back.loss_curve[0], (0, 1.5));
        assert!(back.loss_curve[1].1.is_nan());
        // A number where one is required is still required.
        assert!(serde_json::from_str::<SeedStat>(r#"{"mean":"x","std":0,"per_seed":[]}"#).is_err());
    }
}
