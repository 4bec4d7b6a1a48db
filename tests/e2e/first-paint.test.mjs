// The page before and without its wasm (issue 27): the first screen's text, the study picker and
// the hero's poster frame come from index.html alone, and the page module names no burn, cubecl
// or wgpu (the burn stack belongs in the workers).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("the first screen renders from index.html before the wasm arrives", async () => {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  // No wasm ever arrives: what shows is index.html's own.
  await page.route(/\.wasm$/, (route) => route.abort());
  await page.goto(base);
  await page.waitForSelector("#boot .hero-question h2");
  assert.match(await page.textContent("#boot h1"), /unroll-lab/);
  assert.match(await page.textContent("#boot .hero-question h2"), /Does unrolling help/);
  const presets = await page.$$eval("#boot fieldset.presets label", (ls) => ls.map((l) => l.textContent.trim()));
  assert.ok(presets.length >= 3, `the study picker: ${presets}`);
  assert.ok(presets.some((p) => /headline/.test(p)), `the default study is offered: ${presets}`);
  const poster = await page.$eval("#boot img.hero-poster", (img) => ({ loaded: img.complete && img.naturalWidth > 0, height: img.getBoundingClientRect().height }));
  assert.ok(poster.loaded && poster.height > 50, `the hero's poster frame shows: ${JSON.stringify(poster)}`);
  assert.equal(await page.$("#run"), null, "no Run button before the app (tests wait for #run)");
  // The first screen's workload is the app's (the app's own line is checked in the next test).
  assert.match(await page.textContent("#boot #hero-estimate"), /^6 trainings, 5400 iterations in all/);
  // The wasm never arrives: within seconds the first screen says the app could not start.
  await page.waitForSelector("#fatal", { state: "visible", timeout: 5_000 });
  assert.match(await page.textContent("#fatal"), /could not start/);
  await page.close();
});

test("the app replaces the first paint, and the probe fills the badge, without a layout shift", async () => {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.addInitScript(() => {
    window.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  // `?device=cpu`: the probe's one report fills the badge (figures, choice, self-check) soon.
  await page.goto(`${base}?device=cpu`);
  await page.waitForSelector("#run");
  await page.waitForSelector('#device-badge[data-state="cpu"]');
  await page.waitForTimeout(500);
  assert.equal(await page.$("#boot"), null, "the first paint is gone");
  assert.match(await page.textContent("#hero-estimate"), /^6 trainings, 5400 iterations in all/, "as the first paint said");
  const shift = await page.evaluate(() => window.__shift);
  console.log(`cumulative layout shift on load and probe: ${shift.toFixed(3)}`);
  assert.ok(shift < 0.05, `cumulative layout shift ${shift}`);
  await page.close();
});

test("the page module names no burn, the CPU worker no WebGPU stack; the WebGPU worker has both", async () => {
  const html = await (await fetch(base)).text();
  const name = html.match(/unroll-lab-web-[0-9a-f]+_bg\.wasm/)?.[0];
  assert.ok(name, "the page's wasm is linked from index.html");
  const module = async (file) => Buffer.from(await (await fetch(`${base}${file}`)).arrayBuffer());
  // A worker's wasm, named by its wasm-bindgen glue (which its loader shim imports).
  const workerModule = async (bin) => {
    const glue = await (await fetch(`${base}${bin}.js`)).text();
    const file = glue.match(new RegExp(`${bin}[-0-9a-f]*_bg\\.wasm`))?.[0];
    assert.ok(file, `${bin}'s wasm is named by its glue`);
    return module(file);
  };
  // burn; any cubecl crate (burn's CPU backend uses two small ones); the WebGPU stack: the
  // kernel compiler's IR (cubecl-ir, pliron), the kernels (cubek) and wgpu.
  const words = ["burn_", "cubecl", "cubecl_ir", "pliron", "cubek", "wgpu"];
  const names = (bytes) => words.filter((word) => bytes.includes(word));
  assert.deepEqual(names(await module(name)), [], "the page module names none of them");
  assert.deepEqual(names(await workerModule("unroll-lab-worker")), ["burn_", "cubecl"], "the CPU worker: burn, no WebGPU stack");
  assert.deepEqual(names(await workerModule("unroll-lab-gpu-worker")), words, "the WebGPU worker: all");
});
