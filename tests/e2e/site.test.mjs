// The site where it will live: built by scripts/build-site.sh for a sub-path and served from it
// by a plain static server (run.sh). The first screen loads with no failed request and no console
// error; the book's link opens the book; a second deployment on the same origin
// (E2E_SECOND_BASE_URL) keeps its own stored runs, and runs kept under the earlier, unscoped key
// are carried over once; an app that cannot start says so within seconds.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch, runStoreNames } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const second = process.env.E2E_SECOND_BASE_URL;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A page that records every failed request, error answer and console error. */
async function watched() {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err}`));
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console error: ${msg.text()}`); });
  page.on("requestfailed", (req) => problems.push(`failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on("response", (res) => { if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`); });
  return { page, problems };
}

test("the first screen loads from the sub-path with no failed request and no console error", async () => {
  const { page, problems } = await watched();
  const requests = [];
  page.on("request", (req) => requests.push(req.url()));
  await page.goto(base);
  await page.waitForSelector("#run:not([disabled])", { timeout: 300_000 });
  await page.waitForSelector("#device-badge[data-probe='done']", { timeout: 300_000 });
  const path = new URL(base).pathname;
  const outside = requests.filter((url) => url.startsWith("http") && !new URL(url).pathname.startsWith(path));
  assert.deepEqual(outside, [], `every request stays under ${path}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the book's link opens the book", async () => {
  const { page, problems } = await watched();
  await page.goto(`${base}?device=cpu`);
  await page.waitForSelector("#run");
  const link = page.locator("#intro a[href='book/index.html']");
  await Promise.all([page.waitForURL(/\/book\/index\.html$/), link.click()]);
  assert.ok(page.url().startsWith(`${base}book/`), page.url());
  assert.match(await page.title(), /unroll-lab/);
  assert.deepEqual(problems.filter((p) => !/favicon/.test(p)), []);
  await page.close();
});

test("the book's architecture chapter links the core's API docs", async () => {
  const { page, problems } = await watched();
  await page.goto(`${base}book/architecture.html`);
  const link = page.locator("a[href='../api/unroll_core/index.html']");
  await Promise.all([page.waitForURL(/\/api\/unroll_core\/index\.html$/), link.click()]);
  assert.ok(page.url().startsWith(`${base}api/`), page.url());
  assert.match(await page.textContent("h1"), /unroll_core/);
  // Its module list reaches the study's data path.
  assert.ok(await page.locator("a[href='study/index.html']").count() > 0, "a link to the study module");
  assert.deepEqual(problems.filter((p) => !/favicon/.test(p)), []);
  await page.close();
});

test("an app whose module cannot load says so within seconds", async () => {
  const page = await browser.newPage();
  await page.route(/unroll-lab-web-[0-9a-f]+\.js$/, (route) => route.fulfill({ status: 404, body: "not found" }));
  await page.goto(base);
  await page.waitForSelector("#fatal", { state: "visible", timeout: 5_000 });
  assert.match(await page.textContent("#fatal"), /could not start: .*unroll-lab-web.*could not be loaded/);
  assert.match(await page.textContent("#boot [role=status]"), /could not start/);
  await page.close();
});

test("a second deployment on the same origin keeps its own runs; runs kept in localStorage move over once", { skip: !second }, async () => {
  // A run stored by the first site, in its own database.
  const { page } = await watched();
  await page.goto(`${base}?preset=headline&seeds=1&iterations=2&rollout=12&device=cpu`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  await page.click("#run");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  await page.waitForSelector("#stored-runs li", { timeout: 30_000 });
  const scoped = `unroll-lab/runs@${new URL(base).origin}${new URL(base).pathname}`;
  assert.ok((await runStoreNames(page)).includes(scoped), `the run is kept in ${scoped}`);
  await page.close();
  // The second site sees none of them.
  const other = await browser.newPage();
  await other.goto(`${second}?device=cpu`);
  await other.waitForSelector("#run");
  await other.waitForSelector("#storage-use");
  await other.waitForTimeout(1_000);
  assert.equal((await other.$$("#stored-runs li")).length, 0, "the second site lists no run of the first");
  // Runs an earlier version kept in localStorage for the whole origin move to the first site that opens.
  const old = readFileSync(new URL("./fixtures/old-quick-results.json", import.meta.url), "utf8");
  await other.evaluate((runs) => localStorage.setItem("unroll-lab/runs", runs), JSON.stringify([old]));
  await other.reload();
  await other.waitForSelector("#stored-runs li", { timeout: 30_000 });
  assert.equal((await other.$$("#stored-runs li")).length, 1);
  assert.equal(await other.evaluate(() => localStorage.getItem("unroll-lab/runs")), null, "moved once");
  await other.close();
  // The first site still has exactly its own run.
  const again = await browser.newPage();
  await again.goto(`${base}?device=cpu`);
  await again.waitForSelector("#stored-runs li", { timeout: 30_000 });
  assert.equal((await again.$$("#stored-runs li")).length, 1);
  await again.close();
});
