// Browser benchmark (not a test): does the hero's picture move steadily? Screenshots the hero's
// window every ~frame for a few seconds (each slide is one second), finds how far the picture
// moved between two screenshots (the shift of one pixel row that matches best, in screen
// pixels, positive = to the left as it scrolls) and prints the shifts: a slide's end that did
// not land with its redraw shows as one shift far from its neighbours (a jump back or ahead by
// the slide's 25 columns).
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ node hero-motion.mjs [SECONDS]
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const seconds = Number(process.argv[2] ?? 4);
const browser = await launch();
const page = await browser.newPage();
await page.setViewportSize({ width: 1280, height: 720 });
await page.goto(`${base}?device=cpu`);
await page.waitForFunction(() => Number(document.querySelector("#hero-canvas")?.dataset.steps) > 50, null, { timeout: 120_000 });
const box = await page.locator("#hero-canvas").evaluate((c) => {
  const r = c.parentElement.getBoundingClientRect();
  return { x: r.x + 2, y: r.y + r.height / 2, width: r.width - 4, height: 1 };
});
const shots = [];
const start = Date.now();
while (Date.now() - start < seconds * 1000) {
  const png = await page.screenshot({ clip: box, animations: "allow" });
  shots.push({ t: Date.now() - start, png: png.toString("base64") });
}
// Decode in the page: each row as grey levels.
const rows = await page.evaluate(async (shots) => {
  const out = [];
  for (const { png } of shots) {
    const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    const canvas = new OffscreenCanvas(image.width, 1);
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, 1).data;
    const row = [];
    for (let i = 0; i < data.length; i += 4) row.push(data[i] - data[i + 2]);
    out.push(row);
  }
  return out;
}, shots);
const shift = (a, b) => {
  let best = [Infinity, 0];
  for (let s = -120; s <= 120; s++) {
    let sum = 0, n = 0;
    for (let x = 130; x < a.length - 130; x++) {
      const d = a[x] - b[x - s];
      sum += d * d;
      n++;
    }
    if (sum / n < best[0]) best = [sum / n, s];
  }
  return best[1];
};
const shifts = [];
for (let i = 1; i < rows.length; i++) shifts.push({ dt: shots[i].t - shots[i - 1].t, px: shift(rows[i - 1], rows[i]) });
const speed = shifts.reduce((s, x) => s + x.px, 0) / shifts.reduce((s, x) => s + x.dt, 0);
console.log(`${shots.length} screenshots in ${seconds} s; mean speed ${(1000 * speed).toFixed(1)} px/s (25 columns/s × ${(box.width / 240).toFixed(2)} px = ${((25 * box.width) / 240).toFixed(1)} px/s)`);
console.log(`shifts (px, with ms between screenshots): ${shifts.map((s) => `${s.px}/${s.dt}`).join(" ")}`);
const expected = (s) => (speed * s.dt);
const off = shifts.filter((s) => Math.abs(s.px - expected(s)) > Math.max(8, 0.5 * expected(s)));
console.log(`shifts off the mean speed by more than half a step (or 8 px): ${off.length} of ${shifts.length}${off.length ? ": " + off.map((s) => `${s.px}/${s.dt}`).join(" ") : ""}`);
await browser.close();
