//! Charts on a `<canvas>`: plotters' canvas backend with a fast bitmap path (`blit_bitmap` puts
//! the RGB buffer as one `ImageData` instead of one `fillRect` per pixel: the space–time maps),
//! and a canvas as a PNG download.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, ImageData};

use crate::files;
use unroll_report::charts::ChartError;

/// Draws with `draw` on `canvas`, then marks it `data-drawn="true"`; the error as text.
pub fn draw_with(
    canvas: &HtmlCanvasElement,
    draw: impl FnOnce(&DrawingArea<FastCanvas, Shift>) -> Result<(), ChartError>,
) -> Result<(), String> {
    let backend = FastCanvas::new(canvas.clone()).ok_or("this browser has no 2D canvas")?;
    let area = backend.into_drawing_area();
    draw(&area).map_err(|e| e.to_string())?;
    area.present().map_err(|e| e.to_string())?;
    canvas
        .set_attribute("data-drawn", "true")
        .map_err(|e| format!("{e:?}"))
}

/// A canvas drawing error.
#[derive(Debug, Clone)]
pub struct CanvasFailure(String);

impl std::fmt::Display for CanvasFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CanvasFailure {}

type Outcome<T = ()> = Result<T, DrawingErrorKind<CanvasFailure>>;

fn wrap<E: std::error::Error + Send + Sync>(
    err: DrawingErrorKind<E>,
) -> DrawingErrorKind<CanvasFailure> {
    match err {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(CanvasFailure(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// [`CanvasBackend`] plus the canvas's 2D context for `putImageData`.
pub struct FastCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl FastCanvas {
    /// `None` when the canvas has no 2D context.
    fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Self { inner, context })
    }
}

impl DrawingBackend for FastCanvas {
    type ErrorType = CanvasFailure;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Outcome {
        self.inner.ensure_prepared().map_err(wrap)
    }

    fn present(&mut self) -> Outcome {
        self.inner.present().map_err(wrap)
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Outcome {
        self.inner.draw_pixel(point, color).map_err(wrap)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Outcome {
        self.inner.draw_line(from, to, style).map_err(wrap)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Outcome {
        self.inner
            .draw_rect(upper_left, bottom_right, style, fill)
            .map_err(wrap)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Outcome {
        self.inner.draw_path(path, style).map_err(wrap)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Outcome {
        self.inner
            .draw_circle(center, radius, style, fill)
            .map_err(wrap)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Outcome {
        self.inner.fill_polygon(vert, style).map_err(wrap)
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Outcome {
        self.inner.draw_text(text, style, pos).map_err(wrap)
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Outcome<(u32, u32)> {
        self.inner.estimate_text_size(text, style).map_err(wrap)
    }

    /// `src` is RGB, row-major, `3 · w · h` bytes (shorter buffers are refused).
    fn blit_bitmap(&mut self, pos: BackendCoord, (w, h): (u32, u32), src: &[u8]) -> Outcome {
        put_rgb(&self.context, pos, (w, h), src)
            .map_err(|why| DrawingErrorKind::DrawingError(CanvasFailure(why)))
    }
}

/// Puts an RGB image (`3 · w · h` bytes, row-major; shorter buffers are refused) with its
/// top-left corner at `(x, y)`, opaque.
fn put_rgb(
    context: &CanvasRenderingContext2d,
    (x, y): BackendCoord,
    (w, h): (u32, u32),
    rgb: &[u8],
) -> Result<(), String> {
    let pixels = w as usize * h as usize;
    if rgb.len() < 3 * pixels {
        return Err(format!("bitmap of {} bytes for {w}×{h} pixels", rgb.len()));
    }
    let mut rgba = Vec::with_capacity(4 * pixels);
    for px in rgb[..3 * pixels].chunks_exact(3) {
        rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
    }
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h)
        .map_err(|e| format!("{e:?}"))?;
    context
        .put_image_data(&image, f64::from(x), f64::from(y))
        .map_err(|e| format!("{e:?}"))
}

/// Offers `canvas` as a PNG download named `file`.
pub fn download_png(canvas: &HtmlCanvasElement, file: &str) -> Result<(), String> {
    let url = canvas
        .to_data_url_with_type("image/png")
        .map_err(|e| format!("cannot export the chart: {e:?}"))?;
    files::download_data_url(file, &url)
}

/// A canvas that takes whole RGB frames (`put`), its 2D context looked up once: the first
/// screen's animation puts a frame many times a second, and every browser object handed to
/// wasm costs a crossing.
pub struct RgbCanvas {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
}

impl RgbCanvas {
    /// `None` when the canvas has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(Self { canvas, context })
    }

    /// `count` new canvases of class `class` appended to `parent`, in order (`None` if the
    /// document cannot make one or one has no 2-D context).
    pub fn append_to(parent: &Element, class: &str, count: usize) -> Option<Vec<Self>> {
        let document = parent.owner_document()?;
        (0..count)
            .map(|_| {
                let canvas: HtmlCanvasElement =
                    document.create_element("canvas").ok()?.dyn_into().ok()?;
                canvas.set_class_name(class);
                parent.append_child(&canvas).ok()?;
                Self::new(canvas)
            })
            .collect()
    }

    /// Sets the canvas's inline style (its placement, say).
    pub fn set_style(&self, style: &str) {
        let _ = self.canvas.set_attribute("style", style);
    }

    /// Puts an RGB image (`3 · width · height` bytes, row-major) at the top-left corner,
    /// resizing the canvas to `width × height` when it differs (the page scales it by CSS).
    pub fn put(&self, width: u32, height: u32, rgb: &[u8]) -> Result<(), String> {
        if self.canvas.width() != width || self.canvas.height() != height {
            self.canvas.set_width(width);
            self.canvas.set_height(height);
        }
        self.put_at(0, width, height, rgb)
    }

    /// Puts an RGB image `width × height` with its left edge at column `x`.
    fn put_at(&self, x: u32, width: u32, height: u32, rgb: &[u8]) -> Result<(), String> {
        put_rgb(&self.context, (x as i32, 0), (width, height), rgb)
    }
}
