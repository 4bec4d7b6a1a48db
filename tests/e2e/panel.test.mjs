// The experiment panel on the built page: a shared URL restores the panel, a malformed URL says
// what it ignored, a CLI-made results file imports and renders, and a tiny study runs to the end
// (CPU backend in wasm) with every selected variant in the results table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
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
  const { page, errors } = await open(
    "?preset=horizons&seeds=2&iterations=50&rollout=100"
      + "&modes=correct,transition&arch=gcn&channels=8&warmup=1&alpha=0.25&lr=0.002&scales=1,1.2",
  );
  assert.equal(await page.inputValue("#preset"), "horizons");
  assert.equal(await page.inputValue("#seeds"), "2");
  assert.equal(await page.inputValue("#iterations"), "50");
  assert.equal(await page.inputValue("#arch"), "gcn");
  assert.equal(await page.inputValue("#channels"), "8");
  assert.equal(await page.inputValue("#warmup"), "1");
  assert.equal(await page.inputValue("#alpha"), "0.25");
  assert.equal(await page.inputValue("#lr"), "0.002");
  assert.equal(await page.inputValue("#scales"), "1, 1.2");
  assert.ok(await page.isChecked("#modes-correct"));
  assert.ok(await page.isChecked("#modes-transition"));
  assert.ok(!(await page.isChecked("#modes-predict")));
  assert.ok(!(await page.isDisabled("#alpha")), "α applies with transition");
  // The horizons preset replaces the m field by its horizon list.
  assert.ok(!(await page.isVisible("#m")));
  assert.match(await page.textContent("#preset-horizons"), /1, 2, 4, 8/);
  assert.equal(
    await page.textContent("#cli-command"),
    "unroll-lab study --preset horizons --seeds 2 --iterations 50 --rollout 100"
      + " --modes correct,transition --architecture gcn --channels 8 --warmup 1 --alpha 0.25"
      + " --learning-rate 0.002 --scales 1,1.2",
  );
  assert.match(await page.textContent("#params"), /parameters/);
  assert.match(await page.textContent("#estimate"), /32 trainings, 1600 iterations in all; .*FLOP counted/);
  assert.ok(!(await page.isVisible("#url-notice")), "no notice for a clean URL");
  // Inline validation names the problem and blocks Run.
  await page.fill("#seeds", "0");
  assert.match(await page.textContent("#seeds-error"), /between 1 and 5 seeds/);
  assert.ok(await page.isDisabled("#run"));
  await page.fill("#seeds", "2");
  await page.fill("#channels", "65");
  assert.match(await page.textContent("#channels-error"), /between 1 and 64 channels/);
  assert.ok(await page.isDisabled("#run"));
  await page.fill("#channels", "8");
  // Dropping transition disables α and takes it out of the command.
  await page.uncheck("#modes-transition");
  assert.ok(await page.isDisabled("#alpha"));
  assert.doesNotMatch(await page.textContent("#cli-command"), /--alpha/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("architectures: live parameter count, the U-Net's depth limit, the size study's grid", async () => {
  const { page, errors } = await open("?arch=fno&channels=8&depth=2");
  assert.equal(await page.inputValue("#arch"), "fno");
  // FNO (25D + 1)C² + (D + 5)C + 1 at C = 8, D = 2.
  assert.equal(await page.textContent("#params"), "3,321 parameters");
  assert.match(await page.textContent("#size-knobs"), /Fourier layers/);
  await page.selectOption("#arch", "unet");
  // U-Net (11·4^D − 8)C² + (7·2^D + 4)C + 1 at C = 8, D = 2.
  assert.equal(await page.textContent("#params"), "11,009 parameters");
  await page.fill("#depth", "5");
  assert.match(await page.textContent("#depth-error"), /between 0 and 4 levels for the U-Net/);
  assert.ok(await page.isDisabled("#run"));
  await page.fill("#depth", "4");
  assert.equal(await page.textContent("#depth-error"), "");
  // C = 8 is the U-Net's default size's, so the command leaves it out.
  assert.match(await page.textContent("#cli-command"), /--architecture unet --depth 4$/);
  await page.close();
  // The size study: one checkbox per architecture, each with its size grid.
  const sizes = await open("?preset=sizes&archs=resnet,fno");
  assert.ok(await sizes.page.isChecked("#archs-resnet"));
  assert.ok(await sizes.page.isChecked("#archs-fno"));
  assert.ok(!(await sizes.page.isChecked("#archs-unet")));
  assert.ok(!(await sizes.page.isVisible("#arch")));
  assert.match(await sizes.page.textContent("#preset-sizes"), /fno C = 24, D = 4 \(58,393 parameters\)/);
  await sizes.page.check("#archs-unet");
  assert.match(await sizes.page.textContent("#cli-command"), /--architectures resnet,unet,fno/);
  assert.match(await sizes.page.textContent("#estimate"), /24 trainings/);
  assert.deepEqual([...errors, ...sizes.errors], []);
  await sizes.page.close();
});

test("the gradient-flow diagram follows the unroll settings", async () => {
  const { page, errors } = await open("?m=4&warmup=1");
  const flow = "#gradient-flow";
  await page.waitForSelector(flow);
  assert.equal(await page.getAttribute(flow, "data-m"), "4");
  assert.equal(await page.getAttribute(flow, "data-warmup"), "1");
  const edges = async (modality) =>
    Number(await page.getAttribute(`${flow} g.row[data-modality='${modality}']`, "data-gradient-edges"));
  const [nog, wig] = [await edges("nog"), await edges("wig")];
  assert.ok(wig > nog, `WIG carries more gradient edges than NOG (${wig} vs ${nog})`);
  await page.fill("#m", "2");
  await page.waitForFunction(() => document.querySelector("#gradient-flow")?.dataset.m === "2");
  assert.ok((await edges("wig")) < wig, "a shorter unroll has fewer gradient edges");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a malformed URL says what was ignored and uses defaults", async () => {
  const { page, errors } = await open(
    "?preset=%3Cscript%3E&seeds=abc&bogus=1&channels=999&modes=predict,fast&scales=",
  );
  const notice = await page.textContent("#url-notice");
  assert.match(notice, /preset '<script>' is unknown/);
  assert.match(notice, /seeds 'abc' is not a number/);
  assert.match(notice, /unknown parameter 'bogus'/);
  assert.match(notice, /channels '999' is not a number in 1..=64: using the default/);
  assert.match(notice, /modes 'predict,fast' names an unknown mode 'fast'/);
  assert.match(notice, /scales '' is an empty list/);
  assert.equal(await page.inputValue("#preset"), "quick");
  assert.equal(await page.inputValue("#seeds"), "1");
  assert.equal(await page.inputValue("#channels"), "16");
  assert.ok(await page.isChecked("#modes-predict"));
  assert.equal(await page.textContent("#cli-command"), "unroll-lab study --preset quick --seeds 1 --iterations 900");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a CLI-made results file imports and renders; a malformed one is refused", async () => {
  const { page, errors } = await open("");
  await page.setInputFiles("#import", fixture);
  await page.waitForSelector("#results-table");
  assert.equal((await page.$$("#results-table tr.variant")).length, 6);
  assert.match(await page.textContent("#ratio"), /C-NOG is .* P-WIG/);
  // Every results view is drawn from the imported file, the space–time maps included (eight
  // charts: this older file keeps no per-test curves, so no per-test or horizon chart).
  await page.waitForFunction(() => document.querySelectorAll("#results canvas[data-drawn='true']").length === 8);
  assert.equal((await page.$$("#sample-test option")).length, 4, "one space–time test per test size");
  await page.selectOption("#sample-test", "2");
  await page.waitForSelector("#chart-space-time[data-drawn='true']");
  assert.equal(await page.$$eval("#results .chart-error", (els) => els.map((e) => e.textContent).join("")), "", "no drawing error");
  const download = page.waitForEvent("download");
  await page.click("#results figure:has(#chart-error-bars) button.png");
  assert.match((await download).suggestedFilename(), /chart-error-bars\.png$/);
  await page.screenshot({ path: "../../target/e2e-import.png", fullPage: true });
  // A partial merge of a cluster run says which trainings are missing.
  const partial = JSON.parse(readFileSync(fixture, "utf8"));
  partial.missing_cells = [{ cell: 4, label: "P-NOG 16×10 m=3 seed 1", reason: "failed: out of memory" }];
  await page.setInputFiles("#import", { name: "partial.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(partial)) });
  await page.waitForSelector("#partial-results");
  assert.match(await page.textContent("#partial-results"), /1 training\(s\) of the cluster run are missing.*cell 4 \(P-NOG 16×10 m=3 seed 1\): failed: out of memory/);
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
  // Stored in an idle period after the results render.
  await page.waitForSelector("#stored-runs li", { timeout: 30_000 });
  console.log(`tiny study (6 variants × 3 iterations, rollout 20) in the browser: ${seconds.toFixed(1)} s`);
  // Charts of the finished run, the live loss chart, the trained weights of every variant.
  // Eight charts, and the two of a run that keeps every test.
  await page.waitForFunction(() => document.querySelectorAll("#results canvas[data-drawn='true']").length === 10);
  assert.ok(await page.$("#chart-live-loss[data-drawn='true']"), "live loss chart drawn");
  assert.equal((await page.$$("#results button.weights")).length, 6);
  const download = page.waitForEvent("download");
  await page.click("#results button.weights >> nth=0");
  assert.match((await download).suggestedFilename(), /^weights-P-ONE-16x10-m3\.bpk$/);
  await page.screenshot({ path: "../../target/e2e-results.png", fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
