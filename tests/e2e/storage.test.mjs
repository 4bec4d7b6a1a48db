// What a reader makes is kept: runs live in this site's IndexedDB store, none is dropped for
// another (two runs an earlier version kept in localStorage move in, five are added), each can
// be viewed, exported and deleted (after asking), the page says how much of the browser's storage
// they use; at the site's quota the page warns before the run, keeps the finished results on the
// page with a message naming the quota, and drops no stored run (the browser's estimate and
// IndexedDB's refusal stood in for: see AT_QUOTA).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch, clearRunStore } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const TINY = "?preset=headline&seeds=1&iterations=2&rollout=12&modes=predict&modalities=one&channels=4&depth=1&device=cpu&workers=1";
const old = readFileSync(new URL("./fixtures/old-quick-results.json", import.meta.url), "utf8");

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function open(query) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${base}${query}`);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  await page.waitForSelector("#storage-use");
  return { page, errors };
}

const listed = (page) => page.$$eval("#stored-runs li", (items) => items.length);

test("no run is dropped; each is viewed, exported or deleted; the storage's use is shown", async () => {
  const { page, errors } = await open(TINY);
  await clearRunStore(page);
  const scoped = `unroll-lab/runs@${new URL(base).origin}${new URL(base).pathname}`;
  await page.evaluate(([key, runs]) => localStorage.setItem(key, runs), [scoped, JSON.stringify([old, old])]);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#stored-runs li").length === 2, null, { timeout: 30_000 });
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), scoped), null, "moved out of localStorage");
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  // Seven runs in all: the seventh dropped the first before the store.
  for (let run = 3; run <= 7; run += 1) {
    await page.click("#run");
    await page.waitForFunction((n) => document.querySelectorAll("#stored-runs li").length === n, run, { timeout: 600_000 });
  }
  assert.match(await page.textContent("#storage-use"), /^7 stored run\(s\); this site's storage: .* of .* used \((persistent|not persistent)/);
  const newest = page.locator("#stored-runs li").first();
  assert.match(await newest.textContent(), /^run \d+: preset 'quick', 1 variants/);
  // Export the newest, view the oldest.
  const download = page.waitForEvent("download");
  await newest.locator("button", { hasText: "Export" }).click();
  const file = await download;
  assert.match(file.suggestedFilename(), /^results-run-\d+\.json$/);
  assert.match(readFileSync(await file.path(), "utf8"), /"schema"/);
  await page.locator("#stored-runs li").last().locator("button", { hasText: "View" }).click();
  await page.waitForFunction(() => document.querySelector("#results-table")?.textContent.includes("C-"), null, { timeout: 30_000 });
  // Delete asks first: dismissed, nothing goes; accepted, that run goes.
  page.once("dialog", (dialog) => dialog.dismiss());
  await newest.locator("button", { hasText: "Delete" }).click();
  await page.waitForTimeout(500);
  assert.equal(await listed(page), 7);
  page.once("dialog", (dialog) => dialog.accept());
  await newest.locator("button", { hasText: "Delete" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#stored-runs li").length === 6, null, { timeout: 30_000 });
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#stored-runs li").length === 6, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// The browser at this site's quota, as the page meets it: `navigator.storage.estimate()` reports
// 200 kB left, and IndexedDB refuses a new run with a QuotaExceededError. (Chromium's DevTools
// quota override changes neither the estimate nor IndexedDB's writes in this build, and its
// real quota is a tenth of the disk: the two browser calls are stood in for.)
const AT_QUOTA = () => {
  const estimate = StorageManager.prototype.estimate;
  StorageManager.prototype.estimate = async function () {
    const real = await estimate.call(this);
    return { ...real, quota: real.usage + 200_000 };
  };
  const add = IDBObjectStore.prototype.add;
  IDBObjectStore.prototype.add = function (value, key) {
    if (this.name === "runs") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    return add.call(this, value, key);
  };
};

test("at the site's quota the page warns before the run and drops no stored run", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.addInitScript(AT_QUOTA);
  await page.goto(`${base}${TINY}`);
  await page.waitForSelector("#storage-warning:not(.hidden)", { timeout: 30_000 });
  assert.match(await page.textContent("#storage-warning"), /nearly full .* Export or delete stored runs first/);
  const before = await listed(page);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 300_000 });
  await page.click("#run");
  await page.waitForSelector("#results-table", { timeout: 600_000 });
  await page.waitForFunction(() => /Not kept in this browser: browser storage is full/.test(document.querySelector("#url-notice").textContent), null, { timeout: 30_000 });
  assert.equal(await listed(page), before, "no stored run dropped, none added");
  // The results stay on the page to export.
  const download = page.waitForEvent("download");
  await page.click("#export-json");
  assert.equal((await download).suggestedFilename(), "results.json");
  assert.deepEqual(errors, []);
  await page.close();
});
