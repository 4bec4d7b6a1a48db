// How far the hero's picture moves between screenshots (for hero-motion.mjs and the first-screen
// test): screenshots one pixel row through the middle of the hero's window for `seconds`, and
// finds the shift of each row against the one before (the whole-pixel shift whose squared
// difference is least, refined by the parabola through its neighbours; positive = to the left,
// as the picture scrolls).

/// `{ width, shifts: [{ dt, px }] }`: the window's width in screen pixels, and each shift with
/// the milliseconds between its two screenshots.
export async function heroShifts(page, seconds) {
  const box = await page.locator(".hero-window").evaluate((w) => {
    const r = w.getBoundingClientRect();
    return { x: r.x + 2, y: r.y + r.height / 2, width: r.width - 4, height: 1 };
  });
  // The first screenshot after a quiet spell can be a frame the browser had kept: not counted.
  await page.screenshot({ clip: box, animations: "allow" });
  const shots = [];
  const start = Date.now();
  while (Date.now() - start < seconds * 1000) {
    const png = await page.screenshot({ clip: box, animations: "allow" });
    shots.push({ t: Date.now() - start, png: png.toString("base64") });
  }
  // Each row decoded in the page, as red minus blue (the colour scale's sign).
  const rows = await page.evaluate(async (pngs) => {
    const out = [];
    for (const png of pngs) {
      const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
      const context = new OffscreenCanvas(image.width, 1).getContext("2d");
      context.drawImage(image, 0, 0);
      const data = context.getImageData(0, 0, image.width, 1).data;
      const row = [];
      for (let i = 0; i < data.length; i += 4) row.push(data[i] - data[i + 2]);
      out.push(row);
    }
    return out;
  }, shots.map((s) => s.png));
  const margin = 130;
  const error = (a, b, s) => {
    let sum = 0;
    for (let x = margin; x < a.length - margin; x++) sum += (a[x] - b[x - s]) ** 2;
    return sum / (a.length - 2 * margin);
  };
  const shift = (a, b) => {
    let best = 0;
    for (let s = -margin + 10; s <= margin - 10; s++) if (error(a, b, s) < error(a, b, best)) best = s;
    const [left, mid, right] = [error(a, b, best - 1), error(a, b, best), error(a, b, best + 1)];
    const curvature = left - 2 * mid + right;
    return best + (curvature > 0 ? (left - right) / (2 * curvature) : 0);
  };
  const shifts = [];
  for (let i = 1; i < rows.length; i++) shifts.push({ dt: shots[i].t - shots[i - 1].t, px: shift(rows[i - 1], rows[i]) });
  return { width: box.width, shifts };
}
