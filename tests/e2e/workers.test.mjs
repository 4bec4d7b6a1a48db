// The study in Web Workers: results do not depend on the pool's size (1 worker against 3, number
// for number) and match the native CLI's within a stated tolerance; pause and resume; cancel
// stops every worker and a new run works; a worker killed mid-study, one whose device is lost
// and one that cannot start are restarted and the study ends with the undisturbed numbers; a
// worker that panics every try ends the run with a message naming the training; a reload
// mid-study offers to continue it: continued, it ends with the undisturbed numbers, declined,
// what it did is kept as a partial stored run; a training part-trained at the reload goes on from
// its checkpoint and ends with the undisturbed numbers; a run estimated over 30 minutes asks first and
// offers the CLI command.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, clearRunStore, holdsUnfinished, savedCheckpointIteration } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const cli = process.env.UNROLL_LAB_BIN;
// The browser cannot match the CLI number for number: the f64 reference solver's round-off
// (rustfft's AVX code path and glibc's libm natively, scalar code and Rust's libm in wasm) is
// amplified by KS chaos over the data warm-up, so the test data themselves differ by ≈ 2 % per
// value, and the f32 kernels sum in other orders. Measured on this machine: prediction-mode
// errors agree within 0.4 %, correction-mode ones (dominated by the test data) within 28 %. The
// test holds them to 2 % and 50 %, and the configs to exact equality.
const PREDICTION_TOLERANCE = 2e-2;
const CORRECTION_TOLERANCE = 0.5;
const TINY = "?preset=headline&seeds=2&iterations=4&rollout=24&modes=predict,correct&modalities=one,wig&channels=4&depth=1&device=cpu";

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

async function runToResults(page) {
  await page.click("#run");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  assert.match(await page.textContent("#status"), /^Done in .* on \d+ worker/);
}

async function exported(page) {
  const download = page.waitForEvent("download");
  await page.click("#export-json");
  return JSON.parse(readFileSync(await (await download).path(), "utf8"));
}

/// A results file without what is measured where it ran (wall time, iterations/s).
function untimed(results) {
  const copy = structuredClone(results);
  copy.wall_secs = 0;
  for (const v of copy.variants) for (const t of v.training) t.iterations_per_sec = 0;
  return copy;
}

test("results do not depend on the pool and match the CLI's", async () => {
  const runs = [];
  for (const workers of [1, 3]) {
    const { page, errors } = await open(`${TINY}&workers=${workers}`);
    await runToResults(page);
    assert.equal((await page.$$("#workers li")).length, workers, `${workers} worker line(s)`);
    assert.equal((await page.$$("#results-table tr.variant")).length, 4);
    runs.push({ results: await exported(page), command: await page.textContent("#cli-command") });
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(untimed(runs[0].results), untimed(runs[1].results), "1 worker and 3 workers, number for number");
  if (!cli) {
    console.log("UNROLL_LAB_BIN unset: the CLI comparison is skipped");
    return;
  }
  const out = join(mkdtempSync(join(tmpdir(), "unroll-lab-cli-")), "results.json");
  const args = runs[0].command.trim().split(/\s+/).slice(1);
  execFileSync(cli, [...args, "--quiet", "--out", out]);
  const native = JSON.parse(readFileSync(out, "utf8"));
  assert.deepEqual(native.config, runs[0].results.config, "the CLI command runs the same study");
  let largest = { predict: 0, correct: 0 };
  for (const [i, v] of runs[0].results.variants.entries()) {
    const n = native.variants[i];
    assert.equal(`${v.mode}-${v.modality}`, `${n.mode}-${n.modality}`);
    for (const [s, value] of v.metrics.relative_error.per_seed.entries()) {
      const reference = n.metrics.relative_error.per_seed[s];
      largest[v.mode] = Math.max(largest[v.mode], Math.abs(value - reference) / Math.abs(reference));
    }
  }
  console.log(`browser (wasm) vs CLI (native), largest relative difference of a per-seed relative error: prediction ${largest.predict.toExponential(2)}, correction ${largest.correct.toExponential(2)}`);
  assert.ok(largest.predict <= PREDICTION_TOLERANCE, `prediction: ${largest.predict}`);
  assert.ok(largest.correct <= CORRECTION_TOLERANCE, `correction: ${largest.correct}`);
});

test("pause holds every worker, resume goes on; cancel stops them and a new run works", async () => {
  // Long enough (it is cancelled, never finished) that it cannot end before Pause lands: at 400
  // iterations it ran in 9 s on an idle machine and sometimes ended first ("Done in 9 s").
  const { page, errors } = await open("?preset=headline&seeds=1&iterations=4000&rollout=24&channels=4&depth=1&device=cpu&workers=2");
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#progress").value > 0.05, null, { timeout: 300_000 });
  // Should the run still end around the pause, the status says how.
  const status = () => page.textContent("#status");
  await page.click("#pause")
    .catch(async (err) => { throw new Error(`cannot pause (status: ${await status()}): ${err}`); });
  await page.waitForFunction(() => document.querySelector("#pause").textContent.trim() === "Resume", null, { timeout: 5000 });
  await page.waitForTimeout(2000); // the tick under way when the message arrived ends first
  const held = await page.$eval("#progress", (p) => p.value);
  await page.waitForTimeout(1500);
  assert.equal(await page.$eval("#progress", (p) => p.value), held, `no progress while paused (status: ${await status()})`);
  await page.click("#pause");
  await page
    .waitForFunction((v) => document.querySelector("#progress").value > v, held, { timeout: 60_000 })
    .catch(async (err) => { throw new Error(`no progress after resume (status: ${await status()}): ${err}`); });
  // Click and time until the status says every worker was stopped, inside the page.
  const millis = await page.evaluate(() => new Promise((resolve) => {
    const status = document.querySelector("#status");
    const start = performance.now();
    new MutationObserver(() => {
      if (status.textContent.startsWith("Cancelled.")) resolve(performance.now() - start);
    }).observe(status, { childList: true, characterData: true, subtree: true });
    document.querySelector("#cancel").click();
  }));
  console.log(`cancel → every worker stopped: ${millis.toFixed(0)} ms`);
  assert.ok(millis < 1000, `cancel took ${millis} ms`);
  assert.equal(await page.$eval("#run", (b) => b.disabled), false, "the page is usable");
  await page.goto(`${base}${TINY}&workers=2`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  await runToResults(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a worker that dies mid-study is restarted and the study ends with the undisturbed numbers", async () => {
  const { page: quiet, errors: quietErrors } = await open(`${TINY}&workers=2`);
  await runToResults(quiet);
  const undisturbed = untimed(await exported(quiet));
  assert.deepEqual(quietErrors, []);
  await quiet.close();
  for (const fault of ["kill", "device-lost", "start"]) {
    const { page, errors } = await open(`${TINY}&workers=2&worker-fault=${fault}`);
    // Every status line the run shows, to find the restart's.
    await page.evaluate(() => {
      window.statuses = [];
      const status = document.querySelector("#status");
      new MutationObserver(() => window.statuses.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await runToResults(page);
    const said = (await page.evaluate(() => window.statuses)).join("\n");
    assert.match(said, /Worker 1 stopped while running .*: restarted, try 2 of 3\./, `${fault}: ${said}`);
    assert.deepEqual(untimed(await exported(page)), undisturbed, `${fault}: the same numbers`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("a worker that panics every try ends the run with a message naming the training, keeping the rest", async () => {
  const { page, errors } = await open(`${TINY}&workers=2&worker-fault=panic`);
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#status").textContent.includes("failed while running"), null, { timeout: 300_000 });
  assert.match(await page.textContent("#status"), /Worker 1 failed while running P-ONE 4×1 m=3 seed 0: the worker panicked: .*injected fault.* \(3 tries\)\. The other workers were stopped/s);
  assert.equal(await page.$eval("#run", (b) => b.disabled), false, "the page is usable");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a reload mid-study offers to continue it: continued, it ends with the undisturbed numbers; else what it did is kept", async () => {
  // Long enough that the reload lands mid-study (at 150 iterations the study ended first).
  const query = "?preset=headline&seeds=1&iterations=2000&rollout=24&channels=4&depth=1&device=cpu&workers=1&modalities=one,nog,wig&modes=predict,correct";
  const { page: quiet } = await open(query);
  await runToResults(quiet);
  const undisturbed = untimed(await exported(quiet));
  await quiet.close();
  const { page, errors } = await open(query);
  await clearRunStore(page);
  const reloadMidStudy = async () => {
    await page.click("#run");
    await page.waitForFunction(() => /^[1-3] of 6 trainings done/.test(document.querySelector("#status").textContent), null, { timeout: 300_000 });
    // The page saves the unfinished study in an idle period after the training: a reload
    // before that continues from the save before (here: none).
    for (let tries = 0; !(await holdsUnfinished(page)); tries += 1) {
      assert.ok(tries < 100, "the unfinished study is saved within 10 s");
      await page.waitForTimeout(100);
    }
    await page.reload();
    await page.waitForSelector("#unfinished:not(.hidden)", { timeout: 30_000 });
    assert.match(await page.textContent("#unfinished"), /left unfinished when the page closed \([1-3] of 6 trainings done\)/);
    await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  };
  await reloadMidStudy();
  await page.click("#unfinished-continue");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  assert.match(await page.textContent("#status"), /^Done in/);
  assert.deepEqual(untimed(await exported(page)), undisturbed, "continued: the undisturbed numbers");
  await page.waitForSelector("#unfinished.hidden", { state: "attached" });
  // Declined: what it did is kept as a partial stored run.
  await reloadMidStudy();
  await page.click("#unfinished-keep");
  await page.waitForFunction(() => /partial: [3-5] training\(s\) missing/.test(document.querySelector("#stored-runs").textContent), null, { timeout: 30_000 });
  assert.match(await page.textContent("#url-notice"), /kept as a partial run under Stored runs/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a reload mid-training goes on from the training's checkpoint and ends with the undisturbed numbers", async () => {
  // One training, checkpointed every second (dev builds: ?checkpoint-every=) and reloaded mid-way.
  const query = "?preset=headline&seeds=1&iterations=12000&rollout=24&channels=4&depth=1&device=cpu&workers=1&modalities=one&modes=correct";
  const { page: quiet } = await open(query);
  await runToResults(quiet);
  const undisturbed = untimed(await exported(quiet));
  await quiet.close();
  const { page, errors } = await open(`${query}&checkpoint-every=1`);
  await clearRunStore(page);
  await page.click("#run");
  let saved = 0;
  for (let tries = 0; (saved = await savedCheckpointIteration(page)) === 0; tries += 1) {
    assert.ok(tries < 600, "a checkpoint is saved within 60 s");
    await page.waitForTimeout(100);
  }
  assert.equal(await page.$eval("#results-table", () => true).catch(() => false), false, "reloaded before the end");
  await page.reload();
  await page.waitForSelector("#unfinished:not(.hidden)", { timeout: 30_000 });
  const offer = await page.textContent("#unfinished");
  const [, kept] = offer.match(/\(0 of 1 trainings done; 1 part-trained \(up to iteration (\d+) of 12000\)\)/) ?? [];
  assert.ok(Number(kept) >= saved, `the offer names the checkpoint: ${offer}`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  await page.evaluate(() => {
    window.statuses = [];
    const status = document.querySelector("#status");
    new MutationObserver(() => window.statuses.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await page.click("#unfinished-continue");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  const said = (await page.evaluate(() => window.statuses)).join("\n");
  assert.match(said, /1 of them from its checkpoint/, said);
  assert.match(said, new RegExp(`Worker 1 goes on with C-ONE .* from iteration ${kept} \\(its checkpoint\\)\\.`), said);
  assert.match(await page.textContent("#status"), /^Done in/);
  assert.deepEqual(untimed(await exported(page)), undisturbed, "the undisturbed numbers");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a run estimated over 30 minutes asks first and offers the CLI command", async () => {
  const { page, errors } = await open("?preset=headline&seeds=5&channels=64&rollout=5000&device=cpu");
  await page.waitForFunction(() => document.querySelector("#estimate").textContent.includes("at the measured"), null, { timeout: 300_000 });
  await page.click("#run");
  await page.waitForSelector("#confirm-run:not(.hidden)");
  assert.match(await page.textContent("#confirm-run"), /estimated at .* h in this browser .*unroll-lab study .*--seeds 5/);
  assert.equal((await page.$$("#workers li")).length, 0, "nothing started");
  await page.click("#confirm-run-cancel");
  await page.waitForSelector("#confirm-run.hidden", { state: "attached" });
  assert.deepEqual(errors, []);
  await page.close();
});
