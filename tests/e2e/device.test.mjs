// The device chosen by measurement: the start-up probe (in a worker) times the planned study's
// training on the CPU backend and on WebGPU; the badge shows both figures, the choice and why;
// `?device=cpu|webgpu` overrides it; the testing knob `?device-slowdown=DEVICE:F` multiplies one
// device's measured time, and the choice follows. Where the browser has no WebGPU (or its timing
// runs past the probe's timeout), the tests check the fallback instead and say so.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
// A tiny planned study, so the WebGPU warm-up on a software adapter stays short.
const TINY = "?preset=headline&seeds=1&iterations=4&modes=correct&modalities=wig&channels=4&depth=1";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/// Opens the page and waits for the probe's complete report; the badge's parts.
async function badge(query) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${base}${query}`);
  await page.waitForSelector("#device-badge[data-probe='done']", { timeout: 300_000 });
  const parts = {
    state: await page.getAttribute("#device-badge", "data-state"),
    label: await page.textContent("#device-badge .badge-label"),
    timings: await page.textContent("#device-timings"),
    reason: await page.textContent("#device-reason"),
    check: await page.textContent("#self-check"),
    note: await page.textContent("#training-note"),
  };
  console.log(`${query}: [${parts.state}] ${parts.label} — ${parts.timings} — ${parts.reason}`);
  await page.close();
  assert.deepEqual(errors, []);
  return parts;
}

const WEBGPU_FIGURE = /WebGPU: \d+\.\d ms\/iteration, one training at a time/;
const CPU_FIGURE = /^CPU: \d+\.\d ms\/iteration × \d+ workers? at once/;

test("the badge shows both figures, the choice and why", async () => {
  const b = await badge(TINY);
  assert.ok(b.state === "cpu" || b.state === "webgpu", b.state);
  assert.match(b.timings, CPU_FIGURE);
  assert.match(b.timings, /WebGPU(: \d+\.\d ms\/iteration| not measured: | ?: not timed \()/);
  assert.match(b.reason, /^Chosen: (the CPU|WebGPU)/);
  assert.equal(b.check, "Start-up self-check: 6/6 checks passed");
  assert.ok(b.note.startsWith("Training runs on "), b.note);
  if (WEBGPU_FIGURE.test(b.timings)) {
    // Both measured: the faster for the study is chosen.
    assert.match(b.reason, b.state === "cpu" ? /sooner than WebGPU one at a time/ : /sooner than the CPU/);
  } else {
    assert.equal(b.state, "cpu", "without a WebGPU figure the CPU trains");
  }
});

test("a forced slow device flips the choice", async (t) => {
  const slowGpu = await badge(`${TINY}&device-slowdown=webgpu:1000`);
  assert.equal(slowGpu.state, "cpu");
  if (!WEBGPU_FIGURE.test(slowGpu.timings)) {
    t.skip(`WebGPU was not timed here (${slowGpu.timings}): only the CPU side is checked`);
    return;
  }
  assert.match(slowGpu.timings, /\(×1000 by \?device-slowdown\)$/);
  assert.match(slowGpu.reason, /^Chosen: the CPU: on \d+ workers? at once it finishes .* sooner than WebGPU/);
  const slowCpu = await badge(`${TINY}&device-slowdown=cpu:1000`);
  assert.equal(slowCpu.state, "webgpu");
  assert.match(slowCpu.label, /^WebGPU: .+/);
  assert.match(slowCpu.timings, /at once \(×1000 by \?device-slowdown\) · WebGPU: /);
  assert.match(slowCpu.reason, /^Chosen: WebGPU: it finishes .* sooner than the CPU/);
});

test("?device=cpu and ?device=webgpu override the measurement", async () => {
  const cpu = await badge(`${TINY}&device=cpu`);
  assert.equal(cpu.state, "cpu");
  assert.match(cpu.timings, / · WebGPU not measured: disabled by \?device=cpu$/);
  assert.equal(cpu.reason, "Chosen: the CPU, as ?device=cpu asks (WebGPU not probed)");
  const gpu = await badge(`${TINY}&device=webgpu&device-slowdown=webgpu:1000`);
  if (gpu.state === "webgpu") {
    // Trained on WebGPU although it measured (forced) slower, and the badge says so.
    assert.match(gpu.reason, /^Chosen: WebGPU, as \?device=webgpu asks \((WebGPU measured [\d.]+× slower|its timing )/);
  } else {
    assert.equal(gpu.state, "cpu");
    assert.match(gpu.reason, /^Chosen: the CPU: \?device=webgpu asks for WebGPU, but it is unavailable \(.+\)$/);
  }
});

test("an unknown ?device= value is a notice, and the device is chosen by measurement", async () => {
  const b = await badge(`${TINY}&device=gpu`);
  assert.ok(b.state === "cpu" || b.state === "webgpu", b.state);
  assert.ok(b.note.includes("?device=gpu is not a device (cpu or webgpu)"), b.note);
});

test("the workers: CPU training in the CPU worker, WebGPU training in the WebGPU worker", async () => {
  // Records every worker the page starts (its script) and the device each one reports.
  const started = async (query) => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      window.__workers = [];
      const Native = window.Worker;
      window.Worker = class extends Native {
        constructor(url, options) {
          super(url, options);
          const entry = { script: String(url).split("/").pop(), device: null };
          window.__workers.push(entry);
          this.addEventListener("message", (event) => {
            const data = event.data;
            if (typeof data === "string" && data.startsWith('{"Device"')) entry.device = JSON.parse(data).Device;
          });
        }
      };
    });
    await page.goto(`${base}${query}`);
    await page.waitForSelector("#device-badge[data-probe='done']", { timeout: 300_000 });
    const state = await page.getAttribute("#device-badge", "data-state");
    await page.click("#run");
    await page.waitForFunction(() => window.__workers.some((w) => w.device), null, { timeout: 300_000 });
    const workers = await page.evaluate(() => window.__workers);
    console.log(`${query}: [${state}] ${JSON.stringify(workers)}`);
    await page.close();
    return { state, workers };
  };
  const cpu = await started(`${TINY}&device=cpu`);
  assert.deepEqual(cpu.workers.map((w) => w.script), ["unroll-lab-worker_loader.js", "unroll-lab-worker_loader.js"], "the probe and the training: the CPU worker only");
  assert.equal(cpu.workers[1].device, "CPU backend");
  const gpu = await started(`${TINY}&device=webgpu`);
  const training = gpu.workers.find((w) => w.device);
  if (gpu.state === "webgpu") {
    assert.equal(training.script, "unroll-lab-gpu-worker_loader.js");
    assert.match(training.device, /^WebGPU: /);
  } else {
    // No WebGPU here: the CPU worker trains, and nothing loaded the WebGPU stack to train.
    assert.equal(training.script, "unroll-lab-worker_loader.js");
  }
});
