// The page a first-time reader opens (issue 18): the live KS picture, the question, the presets
// and Run above the fold; the collapsible advanced settings; the peers' commands beside the CLI
// command; an initial state drawn with the mouse, rolled out and shared by URL; the paper's
// numbers beside a run's; and an accessibility check (axe-core) before and after a run that
// fails on serious or critical violations. Takes the first-screen screenshots.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { heroShifts } from "./hero-shifts.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const fixture = fileURLToPath(new URL("./fixtures/cli-results.json", import.meta.url));
// A CLI run that keeps every test (its weights removed to keep the file small): `study --preset quick
// --iterations 40 --seeds 2 --rollout 60`.
const everyTest = fileURLToPath(new URL("./fixtures/every-test-results.json", import.meta.url));
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
// The committed screenshots are refreshed with UNROLL_LAB_SCREENSHOTS=docs tests/e2e/run.sh;
// otherwise they go to target/screenshots/ (so a test run leaves the checkout clean).
const shots = fileURLToPath(new URL(
  process.env.UNROLL_LAB_SCREENSHOTS === "docs" ? "../../docs/src/screenshots/" : "../../target/screenshots/",
  import.meta.url,
));
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/// A page on `query` at `viewport`, with every page error, console error and failed request
/// collected.
async function open(query = "", viewport = { width: 1280, height: 720 }) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on("console", (msg) => { if (msg.type() === "error") errors.push(`console: ${msg.text()}`); });
  page.on("response", (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()} ${r.url()}`); });
  await page.goto(`${base}${query}`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  return { page, errors };
}

const steps = (page) => page.getAttribute("#hero-picture", "data-steps").then(Number);

/// Serious and critical axe-core violations of the page as it is now.
async function seriousViolations(page) {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ["violations"] });
    return violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical");
}

test("the first screen: the system moves beside the question, the presets and Run", async () => {
  const { page, errors } = await open();
  for (const selector of [".hero-window", "#question", "#hero-presets", "#run"]) {
    const box = await page.locator(selector).boundingBox();
    assert.ok(box && box.y + box.height <= 720, `${selector} above the fold at 1280×720: ${JSON.stringify(box)}`);
  }
  // Side by side on a laptop: the question starts right of the picture (its window: the canvas
  // is wider, and slides inside it).
  const [picture, question] = [await page.locator(".hero-window").boundingBox(), await page.locator("#question").boundingBox()];
  assert.ok(question.x >= picture.x + picture.width, "question beside the picture");
  const sentences = (await page.textContent("#question")).split(/[.?!](\s|$)/).filter((s) => s.trim().length > 1);
  assert.equal(sentences.length, 2, "the question in two sentences");
  assert.equal((await page.$$("#hero-presets input[type=radio]")).length, 3);
  assert.ok(await page.isChecked("#hero-preset-quick"));
  // The animation advances, pauses and resumes.
  const first = await steps(page);
  await page.waitForFunction((n) => Number(document.querySelector("#hero-picture").dataset.steps) > n + 5, first);
  await page.click("#hero-toggle");
  assert.equal(await page.getAttribute("#hero-toggle", "aria-pressed"), "true");
  const held = await steps(page);
  await page.waitForTimeout(400);
  assert.equal(await steps(page), held, "paused");
  await page.click("#hero-toggle");
  await page.waitForFunction((n) => Number(document.querySelector("#hero-picture").dataset.steps) > n, held);
  // The compositor slides the picture and the page draws its tiles ahead, so it moves at 25
  // columns a second and never jumps (a tile drawn or placed late would move it by a tile's 25
  // columns, ≈ 80 px, at once). Judged by where each screenshot puts it against that speed: never
  // more than 4 columns ahead of the median. Behind is allowed: after a stalled screenshot the
  // browser may hand over a frame it had kept. Shifts over a second apart may lie beyond the
  // search: they start a new stretch.
  const { width, shifts } = await heroShifts(page, 2.5);
  const column = width / 240;
  const speed = (25 * column) / 1000;
  const all = shifts.map(({ px, dt }) => `${px.toFixed(1)}/${dt}`).join(" ");
  const stretches = [[0]];
  let [position, time] = [0, 0];
  for (const { px, dt } of shifts) {
    if (dt > 1000) {
      stretches.push([0]);
      [position, time] = [0, 0];
      continue;
    }
    [position, time] = [position + px, time + dt];
    stretches.at(-1).push(position - speed * time);
  }
  const judged = stretches.filter((s) => s.length >= 5);
  assert.ok(judged.length > 0, `a stretch of screenshots under a second apart: ${all}`);
  for (const ahead of judged) {
    const median = [...ahead].sort((a, b) => a - b)[ahead.length >> 1];
    const most = Math.max(...ahead) - median;
    assert.ok(most < 4 * column, `the picture ran ${most.toFixed(1)} px ahead of 25 columns/s (px/ms of every shift: ${all})`);
  }
  // A preset picked on the first screen is the form's preset and the URL's.
  await page.check("#hero-preset-horizons");
  assert.equal(await page.inputValue("#preset"), "horizons");
  assert.match(page.url(), /preset=horizons/);
  assert.deepEqual(errors, [], "no console error or failed request on load (favicon included)");
  await page.close();
});

test("screenshots of the first screen at 1440×900 and 390×844", async () => {
  mkdirSync(shots, { recursive: true });
  const wide = await open("", { width: 1440, height: 900 });
  await wide.page.waitForFunction(() => Number(document.querySelector("#hero-picture").dataset.steps) > 30);
  await wide.page.screenshot({ path: join(shots, "first-screen-1440x900.png") });
  assert.deepEqual(wide.errors, []);
  await wide.page.close();
  const phone = await open("", { width: 390, height: 844 });
  await phone.page.waitForFunction(() => Number(document.querySelector("#hero-picture").dataset.steps) > 30);
  // Stacked: the question under the picture, nothing wider than the screen.
  const [picture, question] = [await phone.page.locator(".hero-window").boundingBox(), await phone.page.locator("#question").boundingBox()];
  assert.ok(question.y >= picture.y + picture.height, "stacked on a phone");
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling on a phone (${overflow} px too wide)`);
  const run = await phone.page.locator("#run").boundingBox();
  assert.ok(run.width >= 44 && run.height >= 30, "Run is a comfortable touch target");
  assert.ok(run.y + run.height <= 844, `Run on a phone's first screen: ${JSON.stringify(run)}`);
  await phone.page.screenshot({ path: join(shots, "first-screen-390x844.png") });
  assert.deepEqual(phone.errors, []);
  await phone.page.close();
});

test("the advanced settings are collapsed by default and open from the keyboard", async () => {
  const { page, errors } = await open();
  assert.equal(await page.getAttribute("#advanced", "open"), null);
  assert.ok(!(await page.isVisible("#seeds")));
  await page.focus("#advanced > summary");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#seeds", { state: "visible" });
  await page.fill("#seeds", "2");
  await page.waitForFunction(() => /seeds=2/.test(location.search), null, { timeout: 5_000 });
  await page.close();
  // A shared link with settings opens them.
  const shared = await open("?seeds=2");
  assert.notEqual(await shared.page.getAttribute("#advanced", "open"), null);
  assert.ok(await shared.page.isVisible("#seeds"));
  assert.deepEqual([...errors, ...shared.errors], []);
  await shared.page.close();
});

test("the paper's ks_train.py line and an APEBench snippet beside the CLI command", async () => {
  const { page, errors } = await open("?modes=correct&modalities=nog,wig&m=4&warmup=1");
  const ks = await page.textContent("#ks-train-command");
  assert.match(ks, /^python ks_train\.py --learning_task correct --network_type CNN --channels 16 --depth 10 --predhori 4 --warmup_steps 1 --detach_interval 0 --batch_size 16/);
  assert.match(ks, /--train_onestep 0 --train_nog 1 --train_wig 1/);
  assert.match(ks, /python ks_eval\.py --numtests 20 --horizon 12 --metric rellinf/);
  assert.match(await page.textContent("#ks-train-noflag"), /decay every 40 iterations/);
  const ape = await page.textContent("#apebench-snippet");
  assert.match(ape, /scenario="diff_ks"/);
  assert.match(ape, /for task in \["correct;parallel"\]/);
  assert.match(ape, /\["sup;4;true", "sup;4"\]/);
  assert.match(await page.textContent("#apebench-noflag"), /warm-up and detach interval/);
  // A graph network has no APEBench counterpart, and says so.
  await page.selectOption("#arch", "gcn");
  assert.match(await page.textContent("#apebench-snippet"), /no equivalent/);
  assert.match(await page.textContent("#ks-train-command"), /--network_type GCN/);
  assert.deepEqual(errors, []);
  await page.close();
});

/// Draws a wave across the drawing surface with mouse events.
async function drawWave(page) {
  const surface = page.locator("#draw-surface");
  await surface.scrollIntoViewIfNeeded();
  const box = await surface.boundingBox();
  const y = (t) => box.y + box.height * (0.5 - 0.3 * Math.sin(2 * Math.PI * 2 * t));
  await page.mouse.move(box.x + 2, y(0));
  await page.mouse.down();
  for (let i = 1; i <= 40; i++) {
    const t = i / 40;
    await page.mouse.move(box.x + 2 + t * (box.width - 4), y(t));
  }
  await page.mouse.up();
}

test("an initial state drawn with the mouse is rolled out and shared by its URL", async () => {
  const { page, errors } = await open();
  const before = await page.getAttribute("#ic-curve", "points");
  await page.waitForSelector("#ic-summary li[data-name='ETD1 only']");
  await drawWave(page);
  await page.waitForFunction(() => location.search.includes("ic=drawn:"));
  assert.equal(await page.inputValue("#ic-family"), "drawn");
  const drawn = await page.getAttribute("#ic-curve", "points");
  assert.notEqual(drawn, before, "the curve follows the stroke");
  await page.waitForSelector("#ic-chart[data-drawn='true']");
  assert.match(await page.textContent("#ic-status"), /truth, ETD1 alone and 0 trained variant/);
  assert.match(await page.textContent("#ic-summary"), /ETD1 only: relative error .* after 80 steps/);
  // The domain size and the length follow from the keyboard.
  await page.fill("#ic-scale", "1.2");
  await page.press("#ic-scale", "Enter");
  await page.fill("#ic-steps", "40");
  await page.press("#ic-steps", "Enter");
  await page.waitForFunction(() => /after 40 steps/.test(document.querySelector("#ic-summary")?.textContent ?? ""));
  await page.waitForFunction(() => location.search.includes("ic-s=1.2"));
  const shared = page.url();
  await page.close();
  // The link shows the same state.
  const again = await open(shared.replace(base, ""));
  assert.equal(await again.page.inputValue("#ic-family"), "drawn");
  assert.equal(await again.page.getAttribute("#ic-curve", "points"), drawn);
  assert.equal(await again.page.inputValue("#ic-scale"), "1.2");
  assert.ok(!(await again.page.isVisible("#ic-notice")));
  // A family and its coefficients from the keyboard.
  await again.page.selectOption("#ic-family", "test");
  await again.page.fill("#ic-p1", "0.08");
  await again.page.press("#ic-p1", "Tab");
  await again.page.waitForFunction(() => location.search.includes("ic=test:0.08,1"));
  assert.deepEqual([...errors, ...again.errors], []);
  await again.page.close();
  // A malformed state says so and uses the default.
  const bad = await open("?ic=wave:1,2&ic-s=9");
  const notice = await bad.page.textContent("#ic-notice");
  assert.match(notice, /initial state 'wave:1,2' names an unknown family 'wave'/);
  assert.match(notice, /domain scale '9' is not a number in 0.5..=2/);
  assert.equal(await bad.page.inputValue("#ic-family"), "train");
  // The first notice names the refused state too, and blames none of the experiment's knobs.
  const urlNotice = await bad.page.textContent("#url-notice");
  assert.match(urlNotice, /initial state 'wave:1,2'/);
  assert.deepEqual(urlNotice.split("; ").map((m) => m.split(" ")[0]), ["initial", "domain"], "the experiment's parameters are not blamed");
  assert.deepEqual(bad.errors, []);
  await bad.page.close();
});

test("the horizon lens re-scores every view exactly, in the URL, with a named refusal", async () => {
  const { page, errors } = await open("?eval_h=zz");
  assert.match(await page.textContent("#url-notice"), /eval_h 'zz' is not a horizon/);
  await page.setInputFiles("#import", everyTest);
  await page.waitForSelector("#eval-h");
  assert.match(await page.textContent("#paper-verdict"), /^At H = 12, relative to ONE as the ratio of the seeds' means, as ks_eval\.py/);
  await page.fill("#eval-h", "24");
  await page.dispatchEvent("#eval-h", "change");
  await page.waitForFunction(() => document.querySelector("#paper-verdict")?.textContent.startsWith("At H = 24"));
  assert.match(page.url(), /eval_h=24/);
  assert.match(await page.textContent("#orderings"), /^At H = 24 \(relative to ONE as the ratio/);
  await page.waitForSelector("#chart-per-test[data-drawn='true']");
  await page.waitForSelector("#chart-horizons[data-drawn='true']");
  await page.check("#aggregation-paired");
  await page.waitForFunction(() => document.querySelector("#paper-verdict")?.textContent.includes("per-seed ratios (paired"));
  // A horizon beyond the 60-step rollout is refused by name; the view keeps its horizon.
  const far = await open("?eval_h=500");
  await far.page.setInputFiles("#import", everyTest);
  await far.page.waitForSelector("#eval-h");
  await far.page.waitForFunction(() => document.querySelector("#url-notice")?.textContent.includes("eval_h=500"));
  assert.match(await far.page.textContent("#url-notice"), /outside 1\.\.=60/);
  assert.match(await far.page.textContent("#paper-verdict"), /^At H = 12,/);
  assert.deepEqual([...errors, ...far.errors], []);
  await far.page.close();
  await page.close();
});

test("the paper beside you: published values next to an imported run's", async () => {
  const { page, errors } = await open();
  await page.setInputFiles("#import", fixture);
  await page.waitForSelector("#paper-table");
  const rows = await page.$$eval("#paper-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const headline = rows.find((r) => r[0].startsWith("P-WIG error / C-NOG error"));
  assert.ok(headline, JSON.stringify(rows));
  assert.equal(headline[1], "4.5×");
  assert.match(headline[3], /it\. vs ≈ 42475 it\. \(16 epochs\)/);
  assert.ok(rows.some((r) => r[0].startsWith("WIG / ONE") && r[1] === "0.62"));
  assert.ok(rows.some((r) => r[0].startsWith("NOG / ONE") && r[1] === "0.77"));
  assert.match(await page.textContent("#paper-verdict"), /^At H = 12, relative to ONE as the ratio of the seeds' means, as ks_eval.py, this budget \(.*\): .*\.$/);
  // A run of the blog's 26×8 network gets the blog's numbers beside its own.
  const ks = JSON.parse(readFileSync(fixture, "utf8"));
  for (const v of ks.variants) { v.channels = 26; v.depth = 8; }
  await page.setInputFiles("#import", { name: "ks.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(ks)) });
  await page.waitForFunction(() => document.querySelector("#paper-table")?.textContent.includes("26×8"));
  const ksRows = await page.$$eval("#paper-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const cWig = ksRows.find((r) => r[0] === "C-WIG 26×8 relative error");
  assert.ok(cWig, JSON.stringify(ksRows));
  assert.equal(cWig[1], "0.00582");
  assert.match(cWig[3], /53094 it\. \(20 epochs\)/);
  assert.match(cWig[5], /blog/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("accessibility before and after a run; trained variants roll out from a drawn state, also from imported weights", async () => {
  const { page, errors } = await open("?preset=headline&seeds=1&iterations=3&rollout=20&device=cpu");
  const beforeRun = await seriousViolations(page);
  assert.deepEqual(beforeRun, [], `serious/critical violations before a run: ${JSON.stringify(beforeRun, null, 1)}`);
  await page.click("#run");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  // Eight charts, and the two of a run that keeps every test (its errors per test, the ratios
  // against the horizon).
  await page.waitForFunction(() => document.querySelectorAll("#results canvas[data-drawn='true']").length === 10);
  // The six trained variants roll out from a drawn state (inference only).
  await drawWave(page);
  await page.waitForFunction(() => document.querySelectorAll("#ic-summary li").length === 7, null, { timeout: 120_000 });
  const names = await page.$$eval("#ic-summary li", (lis) => lis.map((li) => li.dataset.name));
  assert.deepEqual(names, ["ETD1 only", "P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]);
  assert.match(await page.textContent("#ic-status"), /6 trained variant\(s\), inference only/);
  const afterRun = await seriousViolations(page);
  assert.deepEqual(afterRun, [], `serious/critical violations after a run: ${JSON.stringify(afterRun, null, 1)}`);
  // Exported results and weights, imported into a fresh page, roll out the same way.
  const dir = mkdtempSync(join(tmpdir(), "unroll-lab-weights-"));
  const save = async (click) => {
    const download = page.waitForEvent("download");
    await click();
    const d = await download;
    const path = join(dir, d.suggestedFilename());
    await d.saveAs(path);
    return path;
  };
  const json = await save(() => page.click("#export-json"));
  const weights = [];
  for (let i = 0; i < 6; i++) weights.push(await save(() => page.click(`#results button.weights >> nth=${i}`)));
  const query = new URL(page.url()).search;
  await page.close();
  const fresh = await open(query);
  // The exported results keep their weights: they roll out with no .bpk file.
  await fresh.page.setInputFiles("#import", json);
  await fresh.page.waitForSelector("#results-table");
  await fresh.page.waitForFunction(() => document.querySelectorAll("#ic-summary li").length === 7, null, { timeout: 120_000 });
  // Results without them (an older file) take the .bpk files.
  const stripped = JSON.parse(readFileSync(json, "utf8"));
  for (const v of stripped.variants) delete v.weights;
  await fresh.page.setInputFiles("#import", { name: "stripped.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(stripped)) });
  await fresh.page.waitForFunction(() => /no weights for/.test(document.querySelector("#ic-status")?.textContent ?? ""));
  await fresh.page.setInputFiles("#import-weights", weights);
  await fresh.page.waitForFunction(() => document.querySelectorAll("#ic-summary li").length === 7, null, { timeout: 120_000 });
  assert.deepEqual(await fresh.page.$$eval("#ic-summary li", (lis) => lis.map((li) => li.dataset.name)), names);
  assert.deepEqual([...errors, ...fresh.errors], []);
  await fresh.page.close();
});
