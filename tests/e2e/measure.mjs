// Browser benchmark (not a test): opens the served page with the given query and measures, in
// order: first contentful paint, cumulative layout shift, time to interactive; the idle page with
// the hero animating (main-thread busy share, longest task); a Run of the study (longest task
// during it and at its end, ms per training iteration in the worker per variant); the import of a
// results file (longest task). Long tasks come from a PerformanceObserver registered before the
// page's scripts run; the busy share from Chromium's `Performance.getMetrics` (TaskDuration).
// Writes the per-variant ms/iteration as JSON to $ITERATIONS_JSON when set.
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ IMPORT_FILE=results.json node measure.mjs '?device=cpu'
import { writeFileSync } from "node:fs";
import { launch } from "./browser.mjs";
import { recordWorkerLosses, firstLossAt } from "./worker-losses.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const query = process.argv[2] ?? "?device=cpu";
const browser = await launch();
const page = await browser.newPage();
await page.addInitScript(() => {
  window.__longTasks = [];
  window.__layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, ms: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
});
await page.addInitScript(recordWorkerLosses);
const cdp = await page.context().newCDPSession(page);
await cdp.send("Performance.enable");
const taskSeconds = async () =>
  (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;
const longest = (tasks) => tasks.reduce((m, t) => Math.max(m, t.ms), 0);
const describe = (tasks) =>
  `longest ${longest(tasks).toFixed(0)} ms, ${tasks.filter((t) => t.ms > 50).length} over 50 ms`;
const takeTasks = () => page.evaluate(() => { const t = window.__longTasks; window.__longTasks = []; return t; });

const navigated = Date.now();
await page.goto(`${base}${query}`);
// Interactive: the app is mounted and its Run button can take a click.
await page.waitForSelector("#run", { timeout: 300_000 });
const interactive = (Date.now() - navigated) / 1000;
await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
const deviceReady = (Date.now() - navigated) / 1000;
await page.waitForSelector("#device-badge[data-probe='done']", { timeout: 300_000 });
const probeDone = (Date.now() - navigated) / 1000;
const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN);
const badge = await page.textContent("#device-badge");
const note = (await page.$$eval("#experiment .notice", (ps) => ps.map((p) => p.textContent).join(" "))).trim();
const loadTasks = await takeTasks();
const shift = await page.evaluate(() => window.__layoutShift);
console.log(`query ${query}`);
console.log(`first contentful paint: ${(fcp / 1000).toFixed(2)} s; time to interactive (Run button mounted): ${interactive.toFixed(2)} s; device self-check and CPU timing done: ${deviceReady.toFixed(1)} s; WebGPU probe done: ${probeDone.toFixed(1)} s`);
console.log(`cumulative layout shift on load: ${shift.toFixed(3)}; long tasks while loading: ${describe(loadTasks)}`);

// The idle page with the hero animating.
const idleSeconds = 5;
const busyBefore = await taskSeconds();
await page.waitForTimeout(idleSeconds * 1000);
const busy = (await taskSeconds()) - busyBefore;
const heroSteps = await page.getAttribute("#hero-picture", "data-steps");
console.log(`idle page, hero animating (${heroSteps} steps shown): main thread busy ${((100 * busy) / idleSeconds).toFixed(1)} % over ${idleSeconds} s; ${describe(await takeTasks())}`);

console.log(`device badge: ${badge.trim()}`);
console.log(`training note: ${note || "(none)"}`);
const estimate = (await page.textContent("#hero-estimate").catch(() => "")) ?? "";
console.log(`estimate shown beside Run: ${estimate.trim() || "(none)"}`);
const clickedAt = await page.evaluate(() => performance.now());
const started = Date.now();
await page.click("#run");
await page.waitForSelector("#results-table", { timeout: 3_600_000 });
const seconds = (Date.now() - started) / 1000;
await page.waitForTimeout(2000); // what the end of the run left queued (charts, storage)
const runTasks = await takeTasks();
const finishedAt = await page.evaluate(() => window.__finishedAt ?? Infinity);
// The end: the task that took the `Finished` message and every one after it.
const atEnd = runTasks.filter((t) => t.start + t.ms >= finishedAt);
const during = runTasks.filter((t) => t.start + t.ms < finishedAt);
const status = await page.textContent("#status");
const workers = (await page.$$("#workers li")).length;
console.log(`workers used: ${workers}`);
console.log(`run: ${seconds.toFixed(1)} s (${status.trim()})`);
const firstLoss = await page.evaluate(firstLossAt);
console.log(`Run → first training losses: ${((firstLoss - clickedAt) / 1000).toFixed(1)} s; Run → results: ${seconds.toFixed(1)} s`);
console.log(`long tasks during the run: ${describe(during)}; at its end: ${describe(atEnd)}`);
const top = [...runTasks].sort((a, b) => b.ms - a.ms).slice(0, 5).map((t) => `${t.ms.toFixed(0)} ms at ${(t.start / 1000).toFixed(1)} s`);
console.log(`five longest: ${top.join(", ") || "-"}`);

// Training speed in the worker, per variant: the mean over its seeds of (time between a series'
// first and last loss message) / (iterations between them), so data, evaluation and the first
// tick's start-up are left out.
const series = await page.evaluate(() => window.__series);
const perVariant = {};
for (const [name, s] of Object.entries(series)) {
  const iterations = s.last.reached - s.first.reached;
  if (iterations < 10) continue;
  const variant = name.split(" ")[0];
  (perVariant[variant] ??= []).push((s.last.now - s.first.now) / iterations);
}
const msPerIteration = Object.fromEntries(
  Object.entries(perVariant).map(([v, ms]) => [v, ms.reduce((a, b) => a + b, 0) / ms.length]),
);
console.log(`worker ms/iteration: ${Object.entries(msPerIteration).map(([v, ms]) => `${v} ${ms.toFixed(1)}`).join(", ") || "-"}`);
if (process.env.ITERATIONS_JSON) writeFileSync(process.env.ITERATIONS_JSON, JSON.stringify(msPerIteration));
await page.screenshot({ path: process.env.SCREENSHOT ?? "/tmp/unroll-lab-measure.png", fullPage: true });

// Importing the largest committed results file.
if (process.env.IMPORT_FILE) {
  await takeTasks();
  const t0 = Date.now();
  await page.setInputFiles("#import", process.env.IMPORT_FILE);
  // Settled: 1.5 s without a long task (at most 30 s).
  let quietSince = Date.now();
  while (Date.now() - t0 < 30_000 && Date.now() - quietSince < 1500) {
    await page.waitForTimeout(250);
    const recent = await page.evaluate(() => window.__longTasks.length);
    if (recent > 0) { quietSince = Date.now(); await page.evaluate(() => { window.__importTasks = (window.__importTasks ?? []).concat(window.__longTasks); window.__longTasks = []; }); }
  }
  const importTasks = await page.evaluate(() => (window.__importTasks ?? []).concat(window.__longTasks));
  console.log(`import of ${process.env.IMPORT_FILE}: ${describe(importTasks)}`);
}
await browser.close();
