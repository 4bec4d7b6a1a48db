// Debian's Chromium through playwright-core (never a downloaded browser), with the flags that expose
// a software WebGPU adapter headless and keep Chromium off the (closed) network.
import { chromium } from "playwright-core";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--enable-unsafe-webgpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
];

export async function launch() {
  const userDataDir = mkdtempSync(join(tmpdir(), "unroll-lab-e2e-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    // CHROMIUM_EXTRA_ARGS (space-separated): more flags for a benchmark, e.g. V8's.
    args: [...CHROMIUM_ARGS, ...(process.env.CHROMIUM_EXTRA_ARGS ?? "").split(" ").filter(Boolean)],
  });
  return context;
}

// Empties every object store of the page's run stores (IndexedDB databases named
// `unroll-lab/…`) without closing the page's own connection: a test's start from no stored run.
export async function clearRunStore(page) {
  await page.evaluate(async () => {
    const done = (request) => new Promise((ok, fail) => { request.onsuccess = () => ok(request.result); request.onerror = () => fail(request.error); });
    for (const { name } of await indexedDB.databases()) {
      if (!name.startsWith("unroll-lab/")) continue;
      const db = await done(indexedDB.open(name));
      const stores = [...db.objectStoreNames];
      if (stores.length > 0) {
        const tx = db.transaction(stores, "readwrite");
        for (const store of stores) tx.objectStore(store).clear();
        await new Promise((ok, fail) => { tx.oncomplete = ok; tx.onerror = () => fail(tx.error); });
      }
      db.close();
    }
  });
}

// The names of the page origin's IndexedDB databases.
export async function runStoreNames(page) {
  return page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
}

// Whether the page's run store holds an unfinished study's saved state (saved in an idle period
// after each finished training).
export async function holdsUnfinished(page) {
  return page.evaluate(async () => {
    for (const { name } of await indexedDB.databases()) {
      if (!name.startsWith("unroll-lab/")) continue;
      const db = await new Promise((ok, fail) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
      const saved = db.objectStoreNames.contains("study") && await new Promise((ok) => {
        const r = db.transaction("study").objectStore("study").get("in-progress");
        r.onsuccess = () => ok(typeof r.result === "string" && r.result.includes("unroll-lab/unfinished@1"));
        r.onerror = () => ok(false);
      });
      db.close();
      if (saved) return true;
    }
    return false;
  });
}

/// The furthest iteration of a part-trained training saved with the unfinished study (0: none).
export async function savedCheckpointIteration(page) {
  return page.evaluate(async () => {
    let furthest = 0;
    for (const { name } of await indexedDB.databases()) {
      if (!name.startsWith("unroll-lab/")) continue;
      const db = await new Promise((ok, fail) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
      const text = db.objectStoreNames.contains("study") && await new Promise((ok) => {
        const r = db.transaction("study").objectStore("study").get("in-progress");
        r.onsuccess = () => ok(r.result);
        r.onerror = () => ok(null);
      });
      db.close();
      if (typeof text !== "string") continue;
      for (const checkpoint of JSON.parse(text).checkpoints ?? []) {
        furthest = Math.max(furthest, checkpoint.training.trainer.iteration);
      }
    }
    return furthest;
  });
}
