// Times every worker's loss messages on arrival, for a page script (`page.addInitScript`):
// `window.__series[series]` holds the first and the last `{ reached, now }` (iteration reached,
// performance.now() in ms) of each series, `window.__finishedAt` when the first `Finished` came.
export function recordWorkerLosses() {
  window.__series = {};
  window.__finishedAt = null;
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const data = event.data;
        if (typeof data !== "string") return;
        const now = performance.now();
        if (data.startsWith('{"Event":{"Losses"')) {
          const losses = JSON.parse(data).Event.Losses;
          const reached = losses.first_iteration + losses.values.length;
          const series = (window.__series[losses.series] ??= { first: null, last: null });
          if (!series.first) series.first = { reached, now };
          series.last = { reached, now };
        } else if (data.startsWith('{"Event":{"Finished"') && window.__finishedAt === null) {
          window.__finishedAt = now;
        }
      });
    }
  };
}

/// The first loss message's arrival (performance.now(), ms), or null before any.
export function firstLossAt() {
  const firsts = Object.values(window.__series ?? {}).map((s) => s.first.now);
  return firsts.length ? Math.min(...firsts) : null;
}
