// Viscous Burgers in the page (the third system, added in one folder): the URL selects it with
// its own defaults and words, the paper-script export says there is none, and a tiny study runs
// in the workers to a table of relative errors with space–time maps.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("a tiny Burgers study runs in the browser with its views", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${base}?system=burgers&seeds=1&iterations=3&rollout=12&scales=0.02&device=cpu`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  assert.equal(await page.inputValue("#system"), "burgers");
  assert.equal(await page.inputValue("#arch"), "resnet");
  // The menu offers the 1-D networks only.
  assert.equal(await page.$eval('#arch option[value="resnet2d"]', (o) => o.hidden), true);
  assert.equal(await page.$eval('#arch option[value="fno"]', (o) => o.hidden), false);
  assert.match(await page.textContent("#cli-command"), /--system burgers/);
  assert.match(await page.textContent("body"), /Training viscosities ν/);
  assert.match(await page.textContent("#ks-train-noflag"), /the paper has no Viscous Burgers study/);
  const started = Date.now();
  await page.click("#run");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  console.log(`tiny Burgers study (6 variants × 3 iterations, rollout 12) in the browser: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const labels = await page.$$eval("#results-table tr.variant", (rows) => rows.map((r) => r.dataset.label));
  assert.deepEqual(labels, ["P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]);
  assert.match(await page.textContent("#results-table tr.baseline"), /ETD1 only/);
  await page.waitForSelector("#chart-space-time[data-drawn='true']");
  assert.deepEqual(errors, []);
  await page.close();
});
