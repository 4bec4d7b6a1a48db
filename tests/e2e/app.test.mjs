// What a user sees: the app shell, the two-paragraph explanation and the compute-device badge
// after the start-up self-check. Runs against E2E_BASE_URL (set by run.sh).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openAndWaitForDevice(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(url);
  // The probe's complete report (WebGPU timed too, where the browser has it).
  await page.waitForSelector("#device-badge[data-probe='done']", { timeout: 300_000 });
  return { page, errors };
}

test("the shell, the study explanation and a self-checked device", async () => {
  const { page, errors } = await openAndWaitForDevice(base);
  assert.equal(await page.textContent("h1"), "unroll-lab");
  const intro = await page.textContent("#intro");
  for (const word of ["ONE", "NOG", "WIG", "prediction", "correction"]) {
    assert.ok(intro.includes(word), `intro mentions ${word}`);
  }
  assert.equal((await page.$$("#intro p")).length, 2);
  const state = await page.getAttribute("#device-badge", "data-state");
  const badge = await page.textContent("#device-badge .badge-label");
  const check = await page.textContent("#self-check");
  const timings = await page.textContent("#device-timings");
  const reason = await page.textContent("#device-reason");
  console.log(`device badge: [${state}] ${badge} — ${timings} — ${reason} — ${check}`);
  assert.ok(state === "webgpu" || state === "cpu", `a working device, got ${state}: ${badge}`);
  assert.match(badge, state === "webgpu" ? /^WebGPU: .+/ : /^CPU \(\d+ workers?\)$/);
  assert.match(timings, /^CPU: \d+\.\d ms\/iteration × \d+ workers? at once · WebGPU/);
  assert.match(reason, /^Chosen: /);
  assert.equal(check, "Start-up self-check: 6/6 checks passed");
  assert.equal(await page.$("#boot"), null, "boot message removed");
  assert.equal(await page.isVisible("#fatal"), false, "no fatal error shown");
  assert.deepEqual(errors, []);
  await page.screenshot({ path: "../../target/e2e-shell.png", fullPage: true });
  await page.close();
});

test("?device=cpu forces the CPU backend and says so", async () => {
  const { page, errors } = await openAndWaitForDevice(`${base}?device=cpu`);
  assert.equal(await page.getAttribute("#device-badge", "data-state"), "cpu");
  assert.match(await page.textContent("#device-badge .badge-label"), /^CPU \(\d+ workers?\)$/);
  assert.match(
    await page.textContent("#device-timings"),
    / · WebGPU not measured: disabled by \?device=cpu$/,
  );
  assert.equal(
    await page.textContent("#device-reason"),
    "Chosen: the CPU, as ?device=cpu asks (WebGPU not probed)",
  );
  assert.equal(await page.textContent("#self-check"), "Start-up self-check: 6/6 checks passed");
  assert.deepEqual(errors, []);
  await page.close();
});
