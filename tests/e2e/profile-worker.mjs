// Browser benchmark (not a test): where a training worker's time goes. Opens the served page,
// attaches Chromium's sampling profiler to every Web Worker it starts (CDP auto-attach), presses
// Run and profiles SECONDS s of the study, then prints, per worker, the functions with the most
// self time and the share of gemm's (functions naming `gemm`). wasm functions are named when the
// served worker keeps its name section (a build with wasm-opt's `-g`).
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ SECONDS=15 node profile-worker.mjs ['?device=cpu'] [TOP]
import { launch } from "./browser.mjs";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080/";
const query = process.argv[2] ?? "?device=cpu";
const top = Number(process.argv[3] ?? 25);
const seconds = Number(process.env.SECONDS ?? 15);
const browser = await launch();
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);

// Commands to a worker's session go through Target.sendMessageToTarget (the page's CDP session
// cannot address another session directly); replies come back as events.
const workers = new Map(); // sessionId → { url, pending: Map(id → resolve) }
let nextId = 1;
const send = (sessionId, method, params = {}) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    const worker = workers.get(sessionId);
    if (!worker) return reject(new Error("the worker has ended"));
    worker.pending.set(id, { resolve, reject });
    cdp
      .send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) })
      .catch((err) => {
        worker.pending.delete(id);
        reject(err);
      });
  });
cdp.on("Target.detachedFromTarget", ({ sessionId }) => workers.delete(sessionId));
cdp.on("Target.receivedMessageFromTarget", ({ sessionId, message }) => {
  const reply = JSON.parse(message);
  const waiter = workers.get(sessionId)?.pending.get(reply.id);
  if (!waiter) return;
  workers.get(sessionId).pending.delete(reply.id);
  reply.error ? waiter.reject(new Error(reply.error.message)) : waiter.resolve(reply.result);
});
cdp.on("Target.attachedToTarget", async ({ sessionId, targetInfo }) => {
  if (targetInfo.type !== "worker") return;
  workers.set(sessionId, { url: targetInfo.url, pending: new Map(), started: false });
  try {
    await send(sessionId, "Profiler.enable");
    await send(sessionId, "Profiler.setSamplingInterval", { interval: 200 });
  } catch (err) {
    console.log(`worker ${targetInfo.url}: profiler unavailable (${err.message})`);
  }
});
await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });

await page.goto(`${base}${query}`);
await page.waitForSelector("#run:not([disabled])", { timeout: 300_000 });
// The start-up probe's worker ends by itself; give it time, then profile the study's workers.
await page.waitForTimeout(3000);
await page.click("#run");
await page.waitForTimeout(3000);
const running = [...workers.keys()];
for (const sessionId of running) {
  try {
    await send(sessionId, "Profiler.start");
    workers.get(sessionId).started = true;
  } catch (err) {
    console.log(`worker ${workers.get(sessionId).url}: not profiled (${err.message})`);
  }
}
await page.waitForTimeout(seconds * 1000);

for (const [sessionId, worker] of workers) {
  if (!worker.started) continue;
  let profile;
  try {
    ({ profile } = await send(sessionId, "Profiler.stop"));
  } catch (err) {
    console.log(`worker ${worker.url}: no profile (${err.message})`);
    continue;
  }
  // Self time per function: samples × their intervals, attributed to the sampled node's function.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const name = node.callFrame.functionName || `(${node.callFrame.url || "anonymous"})`;
    if (name === "(idle)" || name === "(program)") continue;
    const us = profile.timeDeltas[i] ?? 0;
    self.set(name, (self.get(name) ?? 0) + us);
    total += us;
  }
  if (total === 0) continue;
  const share = (pattern) =>
    [...self].filter(([name]) => pattern.test(name)).reduce((sum, [, us]) => sum + us, 0) / total;
  console.log(`worker ${worker.url}: ${(total / 1000).toFixed(0)} ms busy in ${seconds} s profiled`);
  console.log(`  gemm (functions naming gemm): ${(100 * share(/gemm/)).toFixed(1)} %`);
  console.log(`  functions naming memcpy, memset or memmove (wasm mostly copies inline, memory.copy): ${(100 * share(/mem(cpy|set|move)/)).toFixed(1)} %`);
  console.log(`  allocator (dlmalloc, alloc, free): ${(100 * share(/dlmalloc|__rust_alloc|__rust_dealloc|__rdl_|free\b|malloc/)).toFixed(1)} %`);
  const ranked = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, us] of ranked) {
    console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name.slice(0, 140)}`);
  }
}
await browser.close();
