// Browser benchmark (not a test): opens the served page with the given query, presses Run and
// waits for the results, recording every main-thread long task (PerformanceObserver 'longtask',
// registered before the page's scripts run). Prints the run time, the backend, the longest task
// and how many tasks exceeded 50 / 100 ms, the time to interactive and the workers used. Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ node measure.mjs '?device=cpu'
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const query = process.argv[2] ?? "?device=cpu";
const browser = await launch();
const page = await browser.newPage();
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, ms: entry.duration });
  }).observe({ type: "longtask", buffered: true });
});
const navigated = Date.now();
await page.goto(`${base}${query}`);
// Interactive: the app is mounted and its Run button can take a click.
await page.waitForSelector("#run", { timeout: 300_000 });
const interactive = (Date.now() - navigated) / 1000;
await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
const deviceReady = (Date.now() - navigated) / 1000;
const badge = await page.textContent("#device-badge");
const note = (await page.$$eval("#experiment .notice", (ps) => ps.map((p) => p.textContent).join(" "))).trim();
// Only the run counts: forget the tasks of loading and the start-up self-check.
await page.evaluate(() => { window.__longTasks = []; });
const started = Date.now();
await page.click("#run");
await page.waitForSelector("#results-table", { timeout: 3_600_000 });
const seconds = (Date.now() - started) / 1000;
const tasks = await page.evaluate(() => window.__longTasks);
const longest = tasks.reduce((m, t) => Math.max(m, t.ms), 0);
const status = await page.textContent("#status");
const workers = (await page.$$("#workers li")).length;
console.log(`query ${query}`);
console.log(`time to interactive (Run button mounted): ${interactive.toFixed(2)} s; device self-check done: ${deviceReady.toFixed(1)} s`);
console.log(`workers used: ${workers}`);
console.log(`device badge: ${badge.trim()}`);
console.log(`training note: ${note || "(none)"}`);
console.log(`run: ${seconds.toFixed(1)} s (${status.trim()})`);
console.log(`long tasks during the run: ${tasks.length} over 50 ms, ${tasks.filter((t) => t.ms > 100).length} over 100 ms, longest ${longest.toFixed(0)} ms`);
const top = [...tasks].sort((a, b) => b.ms - a.ms).slice(0, 5).map((t) => `${t.ms.toFixed(0)} ms at ${(t.start / 1000).toFixed(1)} s`);
console.log(`five longest: ${top.join(", ") || "-"}`);
await page.screenshot({ path: process.env.SCREENSHOT ?? "/tmp/unroll-lab-measure.png", fullPage: true });
await browser.close();
