//! A perceptual diverging colormap (ColorBrewer RdBu, blue for negative, red for positive,
//! near-white at zero) and the colour-mapped image of a `[frames][N]` field.

/// ColorBrewer RdBu (11 classes), reversed: index 0 is −a (dark blue), 5 is 0 (near-white),
/// 10 is +a (dark red). Published sRGB anchors, interpolated linearly between neighbours.
const ANCHORS: [[u8; 3]; 11] = [
    [5, 48, 97],
    [33, 102, 172],
    [67, 147, 195],
    [146, 197, 222],
    [209, 229, 240],
    [247, 247, 247],
    [253, 219, 199],
    [244, 165, 130],
    [214, 96, 77],
    [178, 24, 43],
    [103, 0, 31],
];

/// Colour of a missing (non-finite) value: a mid grey, unlike any colour of the map.
pub const MISSING: [u8; 3] = [128, 128, 128];

/// The RGB colour of `value` on the symmetric scale `[-a, a]` (values outside are clamped;
/// a non-positive or non-finite `a` maps every finite value to the centre). A non-finite
/// `value` is [`MISSING`].
pub fn diverging(value: f64, a: f64) -> [u8; 3] {
    if !value.is_finite() {
        return MISSING;
    }
    let t = if a.is_finite() && a > 0.0 {
        (value / a).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let x = (t + 1.0) * 0.5 * (ANCHORS.len() - 1) as f64;
    let i = (x.floor() as usize).min(ANCHORS.len() - 2);
    let f = x - i as f64;
    let mix = |c: usize| {
        let (lo, hi) = (f64::from(ANCHORS[i][c]), f64::from(ANCHORS[i + 1][c]));
        (lo + (hi - lo) * f).round() as u8
    };
    [mix(0), mix(1), mix(2)]
}

/// [`diverging`] of a stored sample (`None` = not finite → [`MISSING`]).
pub fn color_of(value: Option<f32>, a: f64) -> [u8; 3] {
    value.map_or(MISSING, |v| diverging(f64::from(v), a))
}

/// The colour-mapped image of `field` (`[frames][N]`) on `[-a, a]`, resampled (nearest
/// neighbour) to `width × height` pixels: RGB bytes, row-major, `3 · width · height` long.
/// Grid point runs left to right; time runs upwards (the top row is the last frame). Frames
/// shorter than the longest are padded with [`MISSING`]; an empty field is all [`MISSING`].
pub fn field_rgb(field: &[Vec<Option<f32>>], a: f64, width: u32, height: u32) -> Vec<u8> {
    let frames = field.len();
    let n = field.iter().map(Vec::len).max().unwrap_or(0);
    // Each pixel column's grid point, and each frame's pixel row coloured once (rows that show
    // the same frame repeat it): the colour map runs per grid value, not per pixel.
    let columns: Vec<usize> = (0..width as usize)
        .map(|col| col * n / width.max(1) as usize)
        .collect();
    let pixel_row = |frame: Option<&Vec<Option<f32>>>| -> Vec<u8> {
        let colours: Vec<[u8; 3]> = (0..n)
            .map(|j| color_of(frame.and_then(|f| f.get(j).copied()).flatten(), a))
            .collect();
        columns
            .iter()
            .flat_map(|&j| colours.get(j).copied().unwrap_or(MISSING))
            .collect()
    };
    let mut out = Vec::with_capacity(3 * width as usize * height as usize);
    let mut last: Option<(Option<usize>, Vec<u8>)> = None;
    for row in 0..height as usize {
        let k = (frames > 0).then(|| {
            ((height as usize - 1 - row) * frames / height.max(1) as usize).min(frames - 1)
        });
        if last.as_ref().is_none_or(|(shown, _)| *shown != k) {
            last = Some((k, pixel_row(k.map(|k| &field[k]))));
        }
        if let Some((_, pixels)) = &last {
            out.extend_from_slice(pixels);
        }
    }
    out
}

/// A vertical colour bar for `[-a, a]`: `width × height` RGB bytes, +a at the top.
pub fn colorbar_rgb(a: f64, width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(3 * width as usize * height as usize);
    for row in 0..height {
        let t = 1.0 - 2.0 * f64::from(row) / f64::from(height.saturating_sub(1).max(1));
        let color = diverging(t * a, a);
        for _ in 0..width {
            out.extend_from_slice(&color);
        }
    }
    out
}

/// The largest finite |u| of `field` (`0` when there is none).
pub fn max_abs(field: &[Vec<Option<f32>>]) -> f64 {
    field
        .iter()
        .flatten()
        .flatten()
        .map(|v| f64::from(v.abs()))
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CIE L* of an sRGB colour.
    fn lightness(c: [u8; 3]) -> f64 {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        let y = 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
        if y > 216.0 / 24389.0 {
            116.0 * y.cbrt() - 16.0
        } else {
            y * 24389.0 / 27.0
        }
    }

    #[test]
    fn endpoints_and_midpoint() {
        assert_eq!(diverging(-2.0, 2.0), ANCHORS[0]);
        assert_eq!(diverging(2.0, 2.0), ANCHORS[10]);
        assert_eq!(diverging(0.0, 2.0), [247, 247, 247]);
        assert_eq!(diverging(-50.0, 2.0), ANCHORS[0], "clamped below");
        assert_eq!(diverging(50.0, 2.0), ANCHORS[10], "clamped above");
        let blue = diverging(-1.0, 1.0);
        let red = diverging(1.0, 1.0);
        assert!(blue[2] > blue[0] && red[0] > red[2]);
    }

    #[test]
    fn lightness_rises_toward_the_centre() {
        let steps = 400;
        let ls: Vec<f64> = (0..=steps)
            .map(|i| lightness(diverging(-1.0 + 2.0 * i as f64 / steps as f64, 1.0)))
            .collect();
        let mid = steps / 2;
        for w in ls[..=mid].windows(2) {
            assert!(w[1] >= w[0] - 1e-9, "negative half not monotone: {w:?}");
        }
        for w in ls[mid..].windows(2) {
            assert!(w[1] <= w[0] + 1e-9, "positive half not monotone: {w:?}");
        }
        assert!(ls[mid] > 95.0 && ls[0] < 25.0 && ls[steps] < 25.0);
    }

    /// The per-pixel definition of [`field_rgb`] (nearest frame and grid point per pixel).
    fn field_rgb_per_pixel(field: &[Vec<Option<f32>>], a: f64, width: u32, height: u32) -> Vec<u8> {
        let frames = field.len();
        let n = field.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = Vec::new();
        for row in 0..height as usize {
            let frame = (frames > 0).then(|| {
                let k = (height as usize - 1 - row) * frames / height.max(1) as usize;
                &field[k.min(frames - 1)]
            });
            for col in 0..width as usize {
                let j = col * n / width.max(1) as usize;
                out.extend_from_slice(&color_of(
                    frame.and_then(|f| f.get(j).copied()).flatten(),
                    a,
                ));
            }
        }
        out
    }

    #[test]
    fn the_image_is_the_per_pixel_colour_map() {
        // Ragged frames (padded with MISSING), gaps, more and fewer pixels than values.
        let field: Vec<Vec<Option<f32>>> = (0..7)
            .map(|k| {
                (0..5 + k % 3)
                    .map(|j| (j != 2 || k != 4).then_some(((k * 5 + j) as f32 * 0.37).sin()))
                    .collect()
            })
            .collect();
        for (w, h) in [(1, 1), (3, 2), (5, 7), (30, 20), (11, 40), (4, 3)] {
            assert_eq!(
                field_rgb(&field, 0.8, w, h),
                field_rgb_per_pixel(&field, 0.8, w, h),
                "{w}×{h}"
            );
        }
        assert_eq!(
            field_rgb(&[], 1.0, 4, 4),
            field_rgb_per_pixel(&[], 1.0, 4, 4)
        );
    }

    #[test]
    fn missing_and_degenerate_values() {
        assert_eq!(diverging(f64::NAN, 1.0), MISSING);
        assert_eq!(diverging(f64::INFINITY, 1.0), MISSING);
        assert_eq!(color_of(None, 1.0), MISSING);
        assert_eq!(color_of(Some(f32::NAN), 1.0), MISSING);
        assert_eq!(diverging(3.0, 0.0), ANCHORS[5]);
        assert_eq!(diverging(3.0, f64::NAN), ANCHORS[5]);
        for i in 0..=100 {
            assert_ne!(diverging(-1.0 + 0.02 * f64::from(i), 1.0), MISSING);
        }
    }

    #[test]
    fn field_image_layout() {
        // Two frames of three points: frame 0 = [-1, 0, None], frame 1 = [1, 1, 1].
        let field = vec![vec![Some(-1.0), Some(0.0), None], vec![Some(1.0); 3]];
        let img = field_rgb(&field, 1.0, 3, 2);
        assert_eq!(img.len(), 3 * 3 * 2);
        let px = |x: usize, y: usize| {
            [
                img[3 * (y * 3 + x)],
                img[3 * (y * 3 + x) + 1],
                img[3 * (y * 3 + x) + 2],
            ]
        };
        assert_eq!(px(0, 0), ANCHORS[10], "top row is the last frame");
        assert_eq!(px(0, 1), ANCHORS[0]);
        assert_eq!(px(1, 1), ANCHORS[5]);
        assert_eq!(px(2, 1), MISSING);
        let big = field_rgb(&field, 1.0, 30, 20);
        assert_eq!(big.len(), 3 * 30 * 20);
        assert!(field_rgb(&[], 1.0, 4, 4).chunks(3).all(|c| c == MISSING));
    }

    #[test]
    fn colorbar_and_max_abs() {
        let bar = colorbar_rgb(2.0, 2, 11);
        assert_eq!(&bar[..3], &ANCHORS[10]);
        assert_eq!(&bar[bar.len() - 3..], &ANCHORS[0]);
        let field = vec![vec![Some(-3.5), None, Some(f32::INFINITY)], vec![Some(2.0)]];
        assert_eq!(max_abs(&field), 3.5);
        assert_eq!(max_abs(&[]), 0.0);
    }
}
