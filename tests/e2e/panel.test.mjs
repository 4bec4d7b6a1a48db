// The experiment panel on the built page: a shared URL restores the panel, a malformed URL says
// what it ignored, a CLI-made results file imports and renders, and a tiny study runs to the end
// (CPU backend in wasm) with every selected variant in the results table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const fixture = fileURLToPath(new URL("./fixtures/cli-results.json", import.meta.url));
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function open(query) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${base}${query}`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  return { page, errors };
}

test("a shared URL restores the panel and the CLI command", async () => {
  const { page, errors } = await open("?preset=horizons&seeds=2&iterations=50&rollout=100");
  assert.equal(await page.inputValue("#preset"), "horizons");
  assert.equal(await page.inputValue("#seeds"), "2");
  assert.equal(await page.inputValue("#iterations"), "50");
  assert.equal(
    await page.textContent("#cli-command"),
    "unroll-lab study --preset horizons --seeds 2 --iterations 50 --rollout 100",
  );
  assert.ok(!(await page.isVisible("#url-notice")), "no notice for a clean URL");
  // Inline validation names the problem and blocks Run.
  await page.fill("#seeds", "0");
  assert.match(await page.textContent("#seeds-error"), /between 1 and 5 seeds/);
  assert.ok(await page.isDisabled("#run"));
  assert.deepEqual(errors, []);
  await page.close();
});

test("a malformed URL says what was ignored and uses defaults", async () => {
  const { page, errors } = await open("?preset=%3Cscript%3E&seeds=abc&bogus=1");
  const notice = await page.textContent("#url-notice");
  assert.match(notice, /preset '<script>' is unknown/);
  assert.match(notice, /seeds 'abc' is not a number/);
  assert.match(notice, /unknown parameter 'bogus'/);
  assert.equal(await page.inputValue("#preset"), "headline");
  assert.equal(await page.inputValue("#seeds"), "1");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a CLI-made results file imports and renders; a malformed one is refused", async () => {
  const { page, errors } = await open("");
  await page.setInputFiles("#import", fixture);
  await page.waitForSelector("#results-table");
  assert.equal((await page.$$("#results-table tr.variant")).length, 6);
  assert.match(await page.textContent("#ratio"), /C-NOG is .* P-WIG/);
  await page.setInputFiles("#import", { name: "bad.json", mimeType: "application/json", buffer: Buffer.from("{\"schema\":\"x@2\"}") });
  await page.waitForFunction(() => document.querySelector("#url-notice")?.textContent.includes("Import failed"));
  assert.match(await page.textContent("#url-notice"), /unsupported schema 'x@2'/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a tiny study runs to the end in the browser", async () => {
  const { page, errors } = await open("?preset=headline&seeds=1&iterations=3&rollout=20&device=cpu");
  const started = Date.now();
  await page.click("#run");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  const seconds = (Date.now() - started) / 1000;
  const labels = await page.$$eval("#results-table tr.variant", (rows) => rows.map((r) => r.dataset.label));
  assert.deepEqual(labels, ["P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]);
  assert.ok((await page.$$("#live-losses li")).length >= 6, "live losses per variant");
  assert.match(await page.textContent("#status"), /^Done in/);
  assert.ok((await page.$$("#stored-runs li")).length >= 1, "the run is kept in storage");
  console.log(`tiny study (6 variants × 3 iterations, rollout 20) in the browser: ${seconds.toFixed(1)} s`);
  await page.screenshot({ path: "../../target/e2e-results.png", fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
