// Browser benchmark (not a test): what the idle page's main thread spends on the hero, against
// the browser's own floor for any picture that changes 25 times a second. Opens the served page,
// waits until the start-up probe is done and the page has settled, then measures the main
// thread's busy share (Chromium's Performance.getMetrics: TaskDuration, ScriptDuration) over
// 5 s windows:
//   1. the hero playing (a strip of canvases slid 25 steps a second by an animation the
//      compositor runs; the page draws a 25-step tile once a second and looks 4 times a second);
//   2. the hero paused;
//   3. paused, with an empty requestAnimationFrame loop (the browser's cost of a frame);
//   4. paused, with a loop that puts one 1×48 column on one of the hero's canvases every 40 ms
//      (the browser's cost of a canvas that changes 25 times a second, nothing computed).
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ node idle-floor.mjs ['?device=cpu'] [ROUNDS]
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const query = process.argv[2] ?? "?device=cpu";
const rounds = Number(process.argv[3] ?? 2);
const seconds = 5;
const browser = await launch();
for (let round = 1; round <= rounds; round++) {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () =>
    Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const window = async (label) => {
    const before = await metrics();
    await page.waitForTimeout(seconds * 1000);
    const after = await metrics();
    const share = (name) => ((100 * (after[name] - before[name])) / seconds).toFixed(1);
    console.log(`round ${round}, ${label}: main thread busy ${share("TaskDuration")} % (script ${share("ScriptDuration")} %)`);
  };
  await page.goto(`${base}${query}`);
  await page.waitForSelector("#device-badge[data-probe='done']", { timeout: 300_000 });
  await page.waitForTimeout(3000);
  await window("hero playing");
  await page.click("#hero-toggle");
  await page.waitForTimeout(500);
  await window("hero paused");
  await page.evaluate(() => {
    window.__floor = "frames";
    const frame = () => window.__floor === "frames" && requestAnimationFrame(frame);
    requestAnimationFrame(frame);
  });
  await window("hero paused, an empty requestAnimationFrame loop");
  await page.evaluate(() => {
    window.__floor = "canvas";
    const context = document.querySelector(".hero-tile").getContext("2d");
    const column = context.createImageData(1, 48);
    let last = performance.now();
    let x = 0;
    const frame = (now) => {
      if (window.__floor !== "canvas") return;
      if (now - last >= 40) {
        last = now;
        column.data.fill((x * 37) % 255);
        context.putImageData(column, x++ % 25, 0);
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await page.waitForTimeout(100);
  await window("hero paused, a loop that changes one column of the canvas every 40 ms");
  await page.close();
}
await browser.close();
