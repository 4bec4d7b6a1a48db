//! The results charts in the page: one `<figure>` per [`ChartKind`] with its `<canvas>`
//! (drawn by [`crate::charts`] through plotters' canvas backend once mounted), a caption and a
//! PNG download; a `<select id="sample-test">` picks the space–time test. [`LiveLoss`] redraws
//! the loss curves while a study trains. A drawn canvas gets `data-drawn="true"`; a drawing
//! error is shown in its caption.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

use crate::charts::{self, ChartKind, LossCurve};
use crate::platform::files;
use crate::platform::timer::sleep;
use crate::report::results::StudyResults;

/// Every results chart of `results`, with the space–time test picker.
#[component]
pub fn ResultsCharts(results: StudyResults) -> impl IntoView {
    let (sample, set_sample) = signal(0usize);
    let options = sample_options(&results);
    let no_samples = options.is_empty();
    let sizes: Vec<(ChartKind, (u32, u32))> = ChartKind::ALL
        .iter()
        .map(|&kind| (kind, kind.size(&results)))
        .collect();
    let preset = results.preset.clone();
    let results = StoredValue::new(results);
    let on_change = move |ev: leptos::ev::Event| {
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            set_sample.set(i);
        }
    };
    let figures = sizes
        .into_iter()
        .map(|(kind, size)| {
            let file = format!("unroll-lab-{preset}-{}.png", kind.id());
            view! { <ChartFigure kind=kind size=size results=results sample=sample file=file /> }
        })
        .collect_view();
    view! {
        <div class="charts">
            <label class="sample-picker">"Space–time test: "
                <select id="sample-test" on:change=on_change disabled=no_samples>
                    {if no_samples {
                        view! { <option value="0">"not in this file"</option> }.into_any()
                    } else {
                        options
                            .into_iter()
                            .enumerate()
                            .map(|(i, label)| view! { <option value=i.to_string()>{label}</option> })
                            .collect_view()
                            .into_any()
                    }}
                </select>
            </label>
            <div class="charts-grid">{figures}</div>
        </div>
    }
}

/// The picker's option labels, one per [`StudyResults::samples`] entry.
fn sample_options(results: &StudyResults) -> Vec<String> {
    results
        .samples
        .iter()
        .map(|s| format!("size s = {}, test {}", s.scale, s.test))
        .collect()
}

/// One chart: canvas (`size` px), caption with the drawing error if any, PNG button.
#[component]
fn ChartFigure(
    kind: ChartKind,
    size: (u32, u32),
    results: StoredValue<StudyResults>,
    sample: ReadSignal<usize>,
    file: String,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (error, set_error) = signal(String::new());
    Effect::new(move |_| {
        // Only the space–time chart depends on the chosen test.
        let index = if kind == ChartKind::SpaceTime {
            sample.get()
        } else {
            0
        };
        let Some(element) = canvas.get() else {
            return;
        };
        // Each chart draws in a task of its own, so a results view of eight charts never
        // holds the main thread for all of them at once.
        leptos::task::spawn_local(async move {
            sleep(0).await;
            let outcome = results.try_with_value(|r| {
                canvas_backend::draw_with(&element, |area| charts::draw(kind, area, r, index))
            });
            if let Some(outcome) = outcome {
                let _ = set_error.try_set(outcome.err().unwrap_or_default());
            }
        });
    });
    let download = move |_| {
        if let Err(err) = download_png(canvas, &file) {
            set_error.set(err);
        }
    };
    let class = if kind == ChartKind::SpaceTime {
        "chart tall"
    } else {
        "chart"
    };
    view! {
        <figure class=class>
            <canvas id=kind.id() node_ref=canvas width=size.0.to_string() height=size.1.to_string()></canvas>
            <figcaption>
                <strong>{kind.title()}</strong>". "{kind.description()}" "
                <button class="png" title="Download this chart as PNG" on:click=download>"PNG"</button>
                <span class="chart-error" role="alert">{move || error.get()}</span>
            </figcaption>
        </figure>
    }
}

/// Offers the canvas of `canvas` as a PNG download named `file`.
fn download_png(canvas: NodeRef<Canvas>, file: &str) -> Result<(), String> {
    let element = canvas.get().ok_or("the chart is not on the page yet")?;
    let url = element
        .to_data_url_with_type("image/png")
        .map_err(|e| format!("cannot export the chart: {e:?}"))?;
    files::download_data_url(file, &url)
}

/// The training loss of each variant and seed while the study runs (`#chart-live-loss`,
/// redrawn whenever `curves` changes; `(name, [(iteration, loss)])`, log scale).
#[component]
pub fn LiveLoss(curves: ReadSignal<Vec<LossCurve>>) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (error, set_error) = signal(String::new());
    Effect::new(move |_| {
        let Some(element) = canvas.get() else {
            return;
        };
        let outcome = curves.with(|c| {
            canvas_backend::draw_with(&element, |area| {
                area.fill(&WHITE)?;
                charts::draw_loss(area, c, "Waiting for the first loss values…")
            })
        });
        set_error.set(outcome.err().unwrap_or_default());
    });
    let download = move |_| {
        if let Err(err) = download_png(canvas, "unroll-lab-live-loss.png") {
            set_error.set(err);
        }
    };
    view! {
        <div class="charts">
            <figure class="chart live-loss">
                <canvas id="chart-live-loss" node_ref=canvas width="720" height="360"></canvas>
                <figcaption>
                    <strong>"Training loss (live)"</strong>". One line per variant and seed, log scale. "
                    <button class="png" title="Download this chart as PNG" on:click=download>"PNG"</button>
                    <span class="chart-error" role="alert">{move || error.get()}</span>
                </figcaption>
            </figure>
        </div>
    }
}

/// plotters' canvas backend with a fast bitmap path: `blit_bitmap` puts the RGB buffer as one
/// `ImageData` instead of one `fillRect` per pixel (the space–time maps).
mod canvas_backend {
    use plotters::coord::Shift;
    use plotters::prelude::*;
    use plotters_backend::{
        BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
    };
    use plotters_canvas::CanvasBackend;
    use wasm_bindgen::{Clamped, JsCast};
    use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

    use crate::charts::ChartError;

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
            let pixels = w as usize * h as usize;
            if src.len() < 3 * pixels {
                return Err(DrawingErrorKind::DrawingError(CanvasFailure(format!(
                    "bitmap of {} bytes for {w}×{h} pixels",
                    src.len()
                ))));
            }
            let mut rgba = Vec::with_capacity(4 * pixels);
            for px in src[..3 * pixels].chunks_exact(3) {
                rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
            }
            let fail = |e: wasm_bindgen::JsValue| {
                DrawingErrorKind::DrawingError(CanvasFailure(format!("{e:?}")))
            };
            let image =
                ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h).map_err(fail)?;
            self.context
                .put_image_data(&image, f64::from(pos.0), f64::from(pos.1))
                .map_err(fail)
        }
    }
}
