// Browser benchmark (not a test): memory over many runs in one page. Runs a tiny study RUNS
// times (default 50) in one page, each to its stored results, and prints after the 5th and the
// last: the page's JS heap (Chromium's Runtime.getHeapUsage, after a forced garbage collection),
// the resident memory of every Chromium process (the page's renderer and the workers' threads
// live there; `ps`), the stored runs, and the last-to-5th ratios. The pool ends each run's
// workers, so what stays is the page's.
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/unroll-lab/ node soak.mjs [RUNS]
import { execFileSync } from "node:child_process";
import { launch, clearRunStore } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const runs = Number(process.argv[2] ?? 50);
const query = "?preset=headline&seeds=1&iterations=2&rollout=12&modes=predict&modalities=one&channels=4&depth=1&device=cpu&workers=1";
const browser = await launch();
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);
await page.goto(`${base}${query}`);
await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
await clearRunStore(page);
await page.reload();
await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });

/// Resident memory of Chromium's processes, MB.
function chromiumRss() {
  const lines = execFileSync("ps", ["-eo", "rss,comm"], { encoding: "utf8" }).split("\n");
  const kb = lines.filter((l) => /chrom/.test(l)).reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[0] || 0), 0);
  return kb / 1024;
}

async function measure(run) {
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  const stored = await page.$$eval("#stored-runs li", (items) => items.length);
  const figures = { run, heapMB: usedSize / 2 ** 20, chromiumRssMB: chromiumRss(), stored };
  console.log(`after run ${run}: page JS heap ${figures.heapMB.toFixed(1)} MB, Chromium resident ${figures.chromiumRssMB.toFixed(0)} MB, ${stored} stored run(s)`);
  return figures;
}

const started = Date.now();
let fifth;
for (let run = 1; run <= runs; run += 1) {
  await page.click("#run");
  await page.waitForFunction((n) => document.querySelectorAll("#stored-runs li").length === n, run, { timeout: 600_000 });
  if (run === 5) fifth = await measure(run);
}
const last = await measure(runs);
console.log(`${runs} runs in ${((Date.now() - started) / 1000).toFixed(0)} s; after run ${runs} vs run 5: page JS heap ×${(last.heapMB / fifth.heapMB).toFixed(2)}, Chromium resident ×${(last.chromiumRssMB / fifth.chromiumRssMB).toFixed(2)}`);
await browser.close();
