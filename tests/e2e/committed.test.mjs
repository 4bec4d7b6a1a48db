// The "Paper-budget & committed runs" entry: results/index.json is served with the page and
// listed (or the entry says there is none yet); with runs, the first loads without training and
// its budget, seeds and commit show beside the results. A stand-in index (the CLI fixture as a
// committed run) checks loading, the side-by-side view beside an imported run of the same study,
// and that a missing or malformed file is a message, never a panic.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const fixture = readFileSync(fileURLToPath(new URL("./fixtures/cli-results.json", import.meta.url)), "utf8");
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A stand-in index with one run: the CLI fixture (KS quick, 1 seed). */
const standIn = {
  schema: "unroll-lab/committed@1",
  runs: [{
    id: "stand-in", title: "Stand-in run", results: "stand-in/results.json", plan: "stand-in/plan.json",
    commit: "0123abc", budget: "stand-in budget: 20 iterations", seeds: 1,
    claims: [{ better: "P-WIG", worse: "P-ONE", expect: "not_resolved" }],
  }],
};

async function open(routes = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  for (const [path, reply] of Object.entries(routes)) {
    await page.route(`**/results/${path}`, (route) => route.fulfill(reply));
  }
  await page.goto(base);
  await page.waitForSelector("#committed-runs summary", { timeout: 300_000 });
  return { page, errors };
}

const json = (body) => ({ status: 200, contentType: "application/json", body: typeof body === "string" ? body : JSON.stringify(body) });

async function noPanic(page) {
  const fatal = await page.$eval("#fatal", (el) => getComputedStyle(el).display).catch(() => "none");
  assert.equal(fatal, "none", "no panic box");
}

test("the committed runs are listed, and the first loads with its budget, seeds and commit", async () => {
  const index = await (await fetch(`${base}results/index.json`)).json();
  assert.equal(index.schema, "unroll-lab/committed@1", "results/index.json is served with the page");
  const { page, errors } = await open();
  await page.click("#committed-runs summary");
  if (index.runs.length === 0) {
    await page.waitForSelector("#committed-empty");
    assert.match(await page.textContent("#committed-empty"), /no committed runs yet/);
  } else {
    await page.waitForSelector("#committed-list li.committed-run");
    const items = await page.$$eval("#committed-list li.committed-run", (lis) => lis.map((li) => li.textContent));
    assert.equal(items.length, index.runs.length);
    const first = index.runs[0];
    for (const part of [first.title, first.budget, first.commit, `${first.seeds} seed`]) {
      assert.ok(items[0].includes(part), `the list shows ${part}: ${items[0]}`);
    }
    await page.click("#committed-list li.committed-run:first-child button.load-committed");
    await page.waitForSelector("#committed-label", { timeout: 120_000 });
    const label = await page.textContent("#committed-label");
    for (const part of [first.budget, first.commit, `${first.seeds} seed`]) {
      assert.ok(label.includes(part), `the label shows ${part}: ${label}`);
    }
    await page.waitForSelector("#results-table tr.variant");
  }
  await noPanic(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a committed run loads into every view, and beside an imported run of the same study", async () => {
  const { page, errors } = await open({ "index.json": json(standIn), "stand-in/results.json": json(fixture) });
  await page.click("#committed-runs summary");
  await page.waitForSelector("#committed-list li.committed-run");
  await page.click("#committed-list li.committed-run button.load-committed");
  await page.waitForSelector("#committed-label");
  assert.match(await page.textContent("#committed-label"), /stand-in budget: 20 iterations; 1 seed; commit 0123abc/);
  const labels = await page.$$eval("#results-table tr.variant", (rows) => rows.map((r) => r.dataset.label));
  assert.deepEqual(labels, ["P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]);
  assert.equal(await page.$("#committed-beside"), null, "alone, nothing beside");
  // Another run of the same study in the page: the committed run stands beside it.
  const other = JSON.parse(fixture);
  other.wall_secs += 1;
  other.variants[1].metrics.relative_error.mean = 0.5;
  await page.setInputFiles("#import", { name: "mine.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(other)) });
  await page.waitForSelector("#committed-beside");
  assert.match(await page.textContent("#committed-beside #committed-label"), /commit 0123abc/);
  const rows = await page.$$eval("#committed-beside-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 6);
  assert.equal(rows[1][0], "P-NOG 16×10 m=3");
  assert.ok(rows[1][1].startsWith("5.000e-1"), `here: ${rows[1]}`);
  assert.ok(rows[1][2].startsWith("1.810e-1"), `committed: ${rows[1]}`);
  await page.waitForSelector("#chart-relative-beside[data-drawn='true']");
  // Shown alone again on request.
  await page.click("#committed-view-alone");
  await page.waitForFunction(() => !document.querySelector("#committed-beside") && document.querySelector("#committed-label"));
  await noPanic(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the committed Kolmogorov run loads with its flow's measures and a verdict per network size", async () => {
  const index = await (await fetch(`${base}results/index.json`)).json();
  const run = index.runs.find((r) => r.id === "kolmogorov-tenth");
  assert.ok(run, "results/index.json lists the Kolmogorov tenth-budget run");
  const { page, errors } = await open();
  await page.click("#committed-runs summary");
  await page.click("#committed-list li.committed-run[data-id='kolmogorov-tenth'] button.load-committed");
  await page.waitForFunction((commit) => document.querySelector("#committed-label")?.textContent.includes(commit), run.commit, { timeout: 120_000 });
  const labels = await page.$$eval("#results-table tr.variant", (rows) => rows.map((r) => r.dataset.label));
  assert.deepEqual(labels, ["C-ONE", "C-NOG", "C-WIG", "C-ONE", "C-NOG", "C-WIG"]);
  assert.match(await page.textContent("#results-table thead"), /velocity MSE/);
  assert.match(await page.textContent("#results-table tr.baseline"), /PISO only/);
  // Judged within each size, by the paper's MSE and by vorticity correlation time, each
  // ordering with its 95 % interval and a three-way verdict (three seeds resolve none of the
  // unrolling orderings; C-ONE beats PISO alone).
  const orderings = await page.textContent("#orderings");
  assert.match(orderings, /of the paper's 4 orderings, 0 hold, 4 not resolved, 0 fail/);
  assert.match(orderings, /8×5: C-WIG ≤ C-NOG not resolved \(0\.970, 95 % 0\.88–1\.07; ≈ \d+ seeds would resolve it\)/);
  const vorticity = await page.textContent("#vorticity-orderings");
  assert.match(vorticity, /of the paper's 6 orderings, 2 hold, 4 not resolved, 0 fail/);
  assert.match(vorticity, /8×7: C-ONE > PISO only \(the coarse solver\) holds \(14\.078, 95 % /);
  await page.waitForSelector("#chart-vorticity-correlation[data-drawn='true']");
  await noPanic(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a missing or malformed file is a message in the entry", async () => {
  const { page, errors } = await open({ "index.json": { status: 404, body: "not found" } });
  await page.click("#committed-runs summary");
  await page.waitForSelector("#committed-error");
  assert.match(await page.textContent("#committed-error"), /could not be listed: .*404/);
  // Reopening asks again: now a malformed index.
  await page.unroute("**/results/index.json");
  await page.route("**/results/index.json", (route) => route.fulfill(json({ schema: "unroll-lab/results@1", runs: [] })));
  await page.click("#committed-runs summary");
  await page.click("#committed-runs summary");
  await page.waitForFunction(() => /unsupported committed-runs schema/.test(document.querySelector("#committed-error")?.textContent ?? ""));
  // A listed run whose results file is missing, then one that is not a results file.
  await page.unroute("**/results/index.json");
  await page.route("**/results/index.json", (route) => route.fulfill(json(standIn)));
  await page.route("**/results/stand-in/results.json", (route) => route.fulfill({ status: 404, body: "not found" }));
  await page.click("#committed-runs summary");
  await page.click("#committed-runs summary");
  await page.waitForSelector("#committed-list li.committed-run");
  await page.click("#committed-list li.committed-run button.load-committed");
  await page.waitForFunction(() => /could not be loaded: .*404/.test(document.querySelector("#committed-message")?.textContent ?? ""));
  await page.unroute("**/results/stand-in/results.json");
  await page.route("**/results/stand-in/results.json", (route) => route.fulfill(json("{\"schema\": 1")));
  await page.click("#committed-list li.committed-run button.load-committed");
  await page.waitForFunction(() => /not a readable results file/.test(document.querySelector("#committed-message")?.textContent ?? ""));
  assert.equal(await page.$("#results-table"), null, "nothing was loaded");
  await noPanic(page);
  assert.deepEqual(errors, []);
  await page.close();
});
