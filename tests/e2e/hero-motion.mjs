// Browser benchmark (not a test): does the hero's picture move steadily? Screenshots the hero's
// window as fast as the browser gives them for a few seconds and prints how far the picture
// moved between two (hero-shifts.mjs): a tile drawn or placed late would show as a shift far
// from its neighbours (a jump), a frame the compositor did not move as a shorter one.
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ node hero-motion.mjs [SECONDS]
import { launch } from "./browser.mjs";
import { heroShifts } from "./hero-shifts.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const seconds = Number(process.argv[2] ?? 4);
const browser = await launch();
const page = await browser.newPage();
await page.setViewportSize({ width: 1280, height: 720 });
await page.goto(`${base}?device=cpu`);
await page.waitForFunction(() => Number(document.querySelector("#hero-picture")?.dataset.steps) > 50, null, { timeout: 120_000 });
const { width, shifts } = await heroShifts(page, seconds);
const speed = shifts.reduce((s, x) => s + x.px, 0) / shifts.reduce((s, x) => s + x.dt, 0);
const show = (list) => list.map((s) => `${s.px.toFixed(1)}/${s.dt}`).join(" ");
console.log(`${shifts.length + 1} screenshots in ${seconds} s; mean speed ${(1000 * speed).toFixed(1)} px/s (25 columns/s × ${(width / 240).toFixed(2)} px = ${((25 * width) / 240).toFixed(1)} px/s)`);
console.log(`shifts (px, with ms between screenshots): ${show(shifts)}`);
const off = shifts.filter((s) => Math.abs(s.px - speed * s.dt) > Math.max(8, 0.5 * speed * s.dt));
console.log(`shifts off the mean speed by more than half a step (or 8 px): ${off.length} of ${shifts.length}${off.length ? ": " + show(off) : ""}`);
console.log(`shifts under half the mean speed's (the picture held for a frame): ${shifts.filter((s) => s.px < 0.5 * speed * s.dt).length}`);
await browser.close();
