// Browser benchmark (not a test): where the main thread's time goes while the page loads. Opens
// the served page with Chromium's sampling profiler running from before navigation until the Run
// button is mounted and the page has been idle for a second, then prints the long tasks and the
// functions with the most self time (wasm functions are named when the served module keeps its
// name section, e.g. after `wasm-opt -g`).
// With IDLE_MS=N it profiles N ms of the idle page instead (the hero animating), from 2 s after
// the Run button mounts. PROFILE=0: the load's long tasks only, without the profiler's overhead.
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ node profile-load.mjs ['?device=cpu'] [TOP]
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const query = process.argv[2] ?? "?device=cpu";
const top = Number(process.argv[3] ?? 25);
const browser = await launch();
const page = await browser.newPage();
await page.addInitScript(() => {
  // A 5 ms busy wait at a known performance.now(): it lines the profile's clock up with the
  // long tasks' (its samples are the function `__clockMarker`).
  window.__clockMarker = function __clockMarker() {
    const at = performance.now();
    while (performance.now() - at < 5);
    return at;
  };
  window.__markerAt = window.__clockMarker();
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, ms: entry.duration });
  }).observe({ type: "longtask", buffered: true });
});
const cdp = await page.context().newCDPSession(page);
// PROFILE=0: the long tasks alone, without the profiler's overhead.
const profiling = process.env.PROFILE !== "0";
// IDLE_MS=N: profile the idle page instead (N ms, starting 2 s after the Run button mounts).
const idleMs = Number(process.env.IDLE_MS ?? 0);
const startProfiler = async () => {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
};
if (profiling && !idleMs) await startProfiler();
await page.goto(`${base}${query}`);
await page.waitForSelector("#run", { timeout: 300_000 });
await page.waitForTimeout(1000);
if (profiling && idleMs) {
  await page.waitForTimeout(1000);
  await startProfiler();
  await page.waitForTimeout(idleMs);
}
const tasks = await page.evaluate(() => window.__longTasks);
console.log(`long tasks: ${tasks.map((t) => `${t.ms.toFixed(0)} ms at ${t.start.toFixed(0)} ms`).join(", ") || "none"}`);
if (!profiling) {
  await browser.close();
  process.exit(0);
}
const { profile } = await cdp.send("Profiler.stop");
// Self time per function: samples × their intervals, attributed to the sampled node's function.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  const name = node.callFrame.functionName || `(${node.callFrame.url.split("/").pop() || "anonymous"})`;
  self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const seen = new Set();
  for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
    const f = byId.get(id).callFrame;
    const name = f.functionName || `(${f.url.split("/").pop() || "anonymous"})`;
    if (seen.has(name) || name === "(root)" || name === "(idle)" || name === "(program)") continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
}
console.log(`inclusive time, top ${top}:`);
for (const [name, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${name.slice(0, 150)}`);
// Each long task's share of the profile: samples are placed on the page's clock by the marker,
// and each long task lists the functions (inclusive) sampled inside it.
const nameOf = (id) => {
  const f = byId.get(id).callFrame;
  return f.functionName || `(${f.url.split("/").pop() || "anonymous"})`;
};
const sampleAt = [];
let clock = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  clock += profile.timeDeltas[i] ?? 0;
  sampleAt.push(clock / 1000);
}
const markerAt = await page.evaluate(() => window.__markerAt);
const markerSample = profile.samples.findIndex((id) => nameOf(id) === "__clockMarker");
if (markerSample < 0) {
  console.log("the clock marker was not sampled: no per-task breakdown");
} else {
  const offset = sampleAt[markerSample] - markerAt;
  for (const task of tasks) {
    const names = new Map();
    let busy = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      const at = sampleAt[i] - offset;
      if (at < task.start || at > task.start + task.ms) continue;
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      busy += ms;
      const seen = new Set();
      for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
        const name = nameOf(id);
        if (seen.has(name) || ["(root)", "(program)", "js-to-wasm", "wasm-to-js"].includes(name)) continue;
        seen.add(name);
        names.set(name, (names.get(name) ?? 0) + ms);
      }
    }
    console.log(`long task of ${task.ms.toFixed(0)} ms at ${task.start.toFixed(0)} ms (${busy.toFixed(0)} ms sampled):`);
    const keep = new RegExp(process.env.KEEP ?? "unroll_lab|main|init|\\.js\\)|\\(garbage");
    const wanted = [...names].filter(([n]) => keep.test(n)).sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.ROWS ?? 10));
    for (const [name, ms] of wanted) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${name.slice(0, 140)}`);
  }
}
const rows = [...self].filter(([n]) => n !== "(idle)" && n !== "(program)").sort((a, b) => b[1] - a[1]);
const busy = rows.reduce((s, [, ms]) => s + ms, 0);
console.log(`self time, all functions: ${busy.toFixed(0)} ms; top ${top}:`);
for (const [name, ms] of rows.slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${name.slice(0, 150)}`);
await browser.close();
