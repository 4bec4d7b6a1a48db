// The bytes a reader's browser fetches from the site (a benchmark, not a test: it prints its
// figures): a first visit on a cold cache until Run is ready (the page up and its compute device
// chosen), then the default Run until its results table, in a fresh profile without WebGPU
// (Chromium's default here); and the first visit again with it (--enable-unsafe-webgpu: a
// software adapter here, too slow to run the study on), to see the WebGPU worker fetched there only. Every request of the page and
// its workers is counted as it arrived (the plain static server compresses nothing, as an object
// store would not) and as gzip -9 would send it (what GitHub Pages' compression approaches).
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/unroll-lab/ SITE_DIR=path/to/site node site-bytes.mjs
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHROMIUM_ARGS } from "./browser.mjs";

const base = process.env.E2E_BASE_URL;
const site = process.env.SITE_DIR;
const path = new URL(base).pathname;

/** The file behind `url` and its size sent gzipped (already-gzipped files as they are). */
function sizes(url) {
  const file = join(site, decodeURIComponent(new URL(url).pathname.slice(path.length)) || "index.html");
  const name = file.endsWith("/") ? `${file}index.html` : file;
  try {
    const raw = statSync(name).size;
    const gzipped = /\.(gz|png)$/.test(name) ? raw : gzipSync(readFileSync(name), { level: 9 }).length;
    return { raw, gzipped };
  } catch {
    return { raw: 0, gzipped: 0 };
  }
}

async function visit(webgpu, run) {
  const args = webgpu ? CHROMIUM_ARGS : CHROMIUM_ARGS.filter((a) => a !== "--enable-unsafe-webgpu");
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "site-bytes-")), {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args,
  });
  const fetched = [];
  context.on("requestfinished", (request) => fetched.push(request.url()));
  const page = await context.newPage();
  const phase = () => {
    const urls = fetched.splice(0).filter((u) => u.startsWith("http"));
    const total = urls.map(sizes).reduce((a, s) => ({ raw: a.raw + s.raw, gzipped: a.gzipped + s.gzipped }), { raw: 0, gzipped: 0 });
    return { requests: urls.length, ...total, urls };
  };
  let started = Date.now();
  await page.goto(base);
  await page.waitForSelector("#device-badge:not([data-state='probing'])", { timeout: 600_000 });
  const first = { seconds: (Date.now() - started) / 1000, ...phase() };
  const device = await page.getAttribute("#device-badge", "data-state");
  let ran = null;
  if (run) {
    started = Date.now();
    await page.click("#run");
    await page.waitForSelector("#results-table", { timeout: 1_800_000 });
    ran = { seconds: (Date.now() - started) / 1000, ...phase() };
  }
  await context.close();
  return { device, first, run: ran };
}

const mb = (bytes) => (bytes / 1e6).toFixed(2);
for (const webgpu of [false, true]) {
  const { device, first, run } = await visit(webgpu, !webgpu);
  console.log(`${webgpu ? "with" : "without"} WebGPU (device chosen: ${device})`);
  const phases = [["first visit until Run is ready", first], ["the default Run", run]].filter(([, p]) => p);
  for (const [name, p] of phases) {
    console.log(`  ${name}: ${p.requests} requests, ${mb(p.raw)} MB as served, ${mb(p.gzipped)} MB gzipped, ${p.seconds.toFixed(1)} s`);
    const gpu = p.urls.filter((u) => u.includes("gpu-worker"));
    console.log(`    WebGPU worker files fetched: ${gpu.length}`);
  }
}
