// Kolmogorov flow in the page: the URL selects it with its own defaults, the deviations name the
// coarse-solver stand-in, the peers' export is kolm_train.py, and a tiny study runs in the
// workers to a table of velocity MSE with vorticity maps and a snapshot slider, its data read from
// the frames the site ships (static/kolmogorov/, fetched relative to the served sub-path).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("a tiny Kolmogorov study runs in the browser with its views", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  // The workers' requests too: the context sees every request of the page and its workers.
  const shipped = [];
  const listener = (response) => { if (response.url().includes("/static/kolmogorov/")) shipped.push([response.status(), response.url()]); };
  page.context().on("response", listener);
  await page.goto(`${base}?system=kolmogorov&seeds=1&iterations=6&rollout=12&scales=500&device=cpu`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  assert.equal(await page.inputValue("#system"), "kolmogorov");
  assert.equal(await page.inputValue("#arch"), "resnet2d");
  assert.match(await page.textContent("#cli-command"), /--system kolmogorov/);
  assert.match(await page.textContent("body"), /coarse solver: the paper's PISO, but its predictor is solved by 16 Jacobi sweeps/);
  assert.match(await page.textContent("body"), /python kolm_train\.py --gradient --step_counts 1 2 4/);
  assert.equal(await page.$eval("#gradient-flow-2d", (el) => el.classList.contains("hidden")), false);
  assert.equal(await page.getAttribute("#gradient-flow", "data-mode"), "transition");
  const started = Date.now();
  await page.click("#run");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  console.log(`tiny Kolmogorov study (3 variants, 6 iterations, rollout 12) in the browser: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const labels = await page.$$eval("#results-table tr.variant", (rows) => rows.map((r) => r.dataset.label));
  assert.deepEqual(labels, ["C-ONE", "C-NOG", "C-WIG"]);
  assert.match(await page.textContent("#results-table thead"), /velocity MSE/);
  assert.match(await page.textContent("#results-table tr.baseline"), /PISO only/);
  // The vorticity maps and their snapshot slider (13 frames kept for a 12-step rollout).
  await page.waitForSelector("#chart-space-time[data-drawn='true']");
  assert.equal(await page.getAttribute("#snapshot", "max"), "12");
  await page.fill("#snapshot", "3");
  await page.waitForFunction(() => document.querySelector("#snapshot-value")?.textContent === "4 of 13");
  await page.waitForSelector("#chart-space-time[data-drawn='true']");
  page.context().off("response", listener);
  assert.ok(shipped.length > 0, "the shipped Kolmogorov frames were fetched");
  assert.deepEqual(shipped.filter(([status]) => status !== 200), [], "every shipped frame is served");
  assert.ok(shipped.every(([, url]) => url.startsWith(`${base}static/kolmogorov/`)), `under the site's base: ${shipped.map(([, u]) => u)}`);
  assert.deepEqual(errors, []);
  await page.close();
});
