// "Your equation" in the page: the reader picks it from the system menu, types an equation the
// paper did not study in the editor, a bad one is refused by name before anything trains, a
// good one becomes the experiment (in the URL), a tiny study runs on it in the workers to the
// table, the first screen's live picture shows the equation moving, and the shared URL opens
// the same equation in the editor and the picture. Prints the time from "Use
// this equation" to the first training losses (the issue's ≤ 10 s goal at N = 48).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./browser.mjs";
import { recordWorkerLosses, firstLossAt } from "./worker-losses.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/// Fills the coefficient boxes: every one not in `values` is cleared (0).
async function typeCoefficients(page, values) {
  for (const name of ["a0", "a1", "a2", "a3", "a4", "b", "c", "d", "e"]) {
    await page.fill(`#equation-${name}`, values[name] ?? "");
  }
}

test("a typed equation is checked, runs a tiny study and is shared by its URL", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.addInitScript(recordWorkerLosses);
  await page.goto(`${base}?seeds=1&iterations=3&device=cpu`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  assert.equal(await page.isVisible("#equation"), false, "the editor is hidden for KS");
  const entry = await page.$eval("#system", (s) => [...s.options].find((o) => o.textContent.includes("Your equation")).value);
  await page.selectOption("#system", entry);
  await page.waitForSelector("#equation", { state: "visible" });

  // A fourth-order term of the wrong sign grows without bound at the highest mode: refused by name.
  await typeCoefficients(page, { a2: "-1", a4: "1", b: "-1" });
  await page.click("#equation-apply");
  await page.waitForFunction(() => document.querySelector("#equation-error")?.textContent.length > 0);
  assert.match(await page.textContent("#equation-error"), /highest mode/);
  assert.doesNotMatch(page.url(), /a4%3D1|a4=1/, "a refused equation does not become the experiment");
  // A training value that is not a number is refused by name too.
  await typeCoefficients(page, { a2: "-1", a4: "-1", b: "-1" });
  await page.fill("#equation-train", "1/zz");
  await page.click("#equation-apply");
  await page.waitForFunction(() => /zz/.test(document.querySelector("#equation-error")?.textContent ?? ""));
  console.log(`refusals: ${await page.textContent("#equation-error")}`);
  await page.fill("#equation-train", "");

  // The dispersive KS equation of the committed study, written as the reader types it.
  await typeCoefficients(page, { a2: "-1", a3: "-0.5", a4: "-1", b: "-1" });
  await page.fill("#equation-rest", "dealias=off;coarse=4");
  assert.match(await page.textContent("#equation-written"), /u_t = -1·.*-0\.5·.*-1·/);
  const applied = Date.now();
  await page.click("#equation-apply");
  await page.waitForFunction(() => decodeURIComponent(location.search).includes("a3=-0.5"));
  const checkSeconds = (Date.now() - applied) / 1000;
  assert.equal(await page.textContent("#equation-error"), "");
  // The study is this equation's quick preset (its data and tests as they are) at 3 iterations.
  await page.fill("#iterations", "3");
  await page.press("#iterations", "Tab");
  await page.waitForFunction(() => location.search.includes("iterations=3"));
  assert.match(await page.textContent("#cli-command"), /--iterations 3 .*--system 'custom:a2=-1,a3=-0\.5,a4=-1,b=-1;dealias=off;coarse=4'/);
  assert.match(await page.textContent("#equation-exponax"), /GeneralNonlinearStepper/);
  // The first screen's live picture now shows the reader's equation moving.
  await page.waitForSelector("#hero-picture[data-system^='custom:']");
  assert.match(await page.textContent(".hero-figure figcaption"), /^Your equation, live — u_t = .*-0\.5·/);
  await page.waitForFunction(() => Number(document.querySelector("#hero-picture").dataset.steps) > 5, null, { timeout: 60_000 });

  const clicked = Date.now();
  const clickedAt = await page.evaluate(() => performance.now());
  await page.click("#run");
  await page.waitForFunction(firstLossAt, null, { timeout: 300_000 });
  const firstLosses = (await page.evaluate(firstLossAt) - clickedAt) / 1000;
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  console.log(
    `your equation (N = 48, e2e dev build): checks ${checkSeconds.toFixed(1)} s, `
      + `Run → first training losses ${firstLosses.toFixed(1)} s, `
      + `typed → first losses ${(checkSeconds + firstLosses).toFixed(1)} s, `
      + `Run → results ${((Date.now() - clicked) / 1000).toFixed(1)} s`,
  );
  const labels = await page.$$eval("#results-table tr.variant", (rows) => rows.map((r) => r.dataset.label));
  assert.deepEqual(labels, ["P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]);
  assert.match(await page.textContent("#results-table tr.baseline"), /ETD1/);

  // The shared URL opens the same equation in the editor.
  const shared = await browser.newPage();
  shared.on("pageerror", (err) => errors.push(String(err)));
  await shared.goto(page.url());
  await shared.waitForSelector("#equation", { state: "visible" });
  assert.equal(await shared.inputValue("#equation-a3"), "-0.5");
  assert.equal(await shared.inputValue("#equation-a4"), "-1");
  assert.match(await shared.inputValue("#equation-rest"), /coarse=4/);
  await shared.waitForSelector("#hero-picture[data-system^='custom:']");
  assert.deepEqual(errors, []);
  await shared.close();
  await page.close();
});

test("a malformed equation in the URL is named and the page stays usable", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${base}?system=custom:a4%3D1%3Bzz%3D2&device=cpu`);
  await page.waitForSelector("#run");
  assert.match(await page.textContent("#url-notice"), /is not an equation this page can study: unknown key 'zz'/);
  assert.equal(await page.inputValue("#system"), "ks", "the default system is used");
  assert.deepEqual(errors, []);
  await page.close();
});
