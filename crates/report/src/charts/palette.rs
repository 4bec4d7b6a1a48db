//! Series colours: every variant of a file gets one colour, the same in every chart (hue by
//! mode × modality `P-ONE` … `T-WIG`, lighter shades for repeated labels); the coarse-solver
//! baseline is [`BASELINE_COLOR`].

use plotters::style::RGBColor;

use unroll_core::study::data::results::StudyResults;
use unroll_core::train::{Modality, Mode};

/// The baseline's colour (near-black).
pub const BASELINE_COLOR: RGBColor = RGBColor(34, 34, 34);

/// Colour-blind-safe hues, one per mode × modality in the order P-ONE, P-NOG, P-WIG, C-ONE, …
/// T-WIG: the six of the study's headline are Okabe–Ito's (blue, orange, bluish green,
/// vermillion, reddish purple, sky blue; its yellow and black are left out: yellow is too light
/// on white, black is the baseline's), the transition mode's three are from Paul Tol's
/// colour-blind-safe "muted" scheme (wine, teal, olive).
const IDENTITY_HUES: [RGBColor; 9] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(136, 34, 85),
    RGBColor(68, 170, 153),
    RGBColor(153, 153, 51),
];

/// The colour identity of a series: its variant's mode and modality.
pub type Hue = (Mode, Modality);

/// The hue of a variant's mode × modality (the same in every chart).
pub fn identity_color((mode, modality): Hue) -> RGBColor {
    let row = Mode::ALL.iter().position(|m| *m == mode).unwrap_or(0);
    let col = Modality::ALL
        .iter()
        .position(|m| *m == modality)
        .unwrap_or(0);
    IDENTITY_HUES[(row * Modality::ALL.len() + col) % IDENTITY_HUES.len()]
}

/// `color` mixed toward white by `t` ∈ [0, 1].
pub fn lighten(color: RGBColor, t: f64) -> RGBColor {
    let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * t.clamp(0.0, 1.0)).round() as u8;
    RGBColor(mix(color.0), mix(color.1), mix(color.2))
}

/// Colour of the `j`-th of `k` series sharing a hue: the hue itself, then lighter shades.
fn shade(color: RGBColor, j: usize, k: usize) -> RGBColor {
    if k <= 1 {
        color
    } else {
        lighten(color, 0.6 * j as f64 / k as f64)
    }
}

/// One colour per variant of `results` (same order), stable across charts.
pub fn variant_colors(results: &StudyResults) -> Vec<RGBColor> {
    let hues: Vec<Hue> = results
        .variants
        .iter()
        .map(|v| (v.id.mode, v.id.modality))
        .collect();
    shaded(&hues)
}

/// Colours for series of identity `hues` (one each): the identity's hue, lighter for each
/// repeat of it.
pub fn shaded(hues: &[Hue]) -> Vec<RGBColor> {
    hues.iter()
        .enumerate()
        .map(|(i, hue)| {
            let k = hues.iter().filter(|h| *h == hue).count();
            let j = hues[..i].iter().filter(|h| *h == hue).count();
            shade(identity_color(*hue), j, k)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::fixture::sizes_fixture;
    use super::*;

    #[test]
    fn colors_follow_identity() {
        let c_nog = (Mode::Correct, Modality::Nog);
        assert_ne!(
            identity_color(c_nog),
            identity_color((Mode::Correct, Modality::Wig))
        );
        let hues: Vec<Hue> = Mode::ALL
            .into_iter()
            .flat_map(|m| Modality::ALL.map(|d| (m, d)))
            .collect();
        let distinct: Vec<RGBColor> = hues.iter().map(|h| identity_color(*h)).collect();
        assert!(distinct
            .iter()
            .enumerate()
            .all(|(i, c)| !distinct[..i].contains(c)));
        let colors = variant_colors(&sizes_fixture());
        assert_eq!(colors.len(), sizes_fixture().variants.len());
        assert_eq!(colors[0], identity_color(c_nog));
        assert_ne!(colors[0], colors[1], "repeated labels get shades");
    }
}
