// Preloaded with `node --require bench/rss-probe.cjs dist/cli.js …`: writes the process's peak RSS (bytes), its
// lifetime and its CPU time (user and system, all of its threads) to $DELIB_BENCH_RSS_OUT at exit, so the bench can
// measure the shipped CLI without changing it.
"use strict";
const { writeFileSync } = require("node:fs");
const started = performance.timeOrigin;
process.on("exit", (code) => {
  const out = process.env.DELIB_BENCH_RSS_OUT;
  if (!out) return;
  try {
    const usage = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ maxRssBytes: usage.maxRSS * 1024, uptimeMs: performance.now(), code, startedAt: started, userCpuMs: usage.userCPUTime / 1000, systemCpuMs: usage.systemCPUTime / 1000 }));
  } catch {
    /* best effort */
  }
});
