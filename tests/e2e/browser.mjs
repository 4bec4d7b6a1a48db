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
