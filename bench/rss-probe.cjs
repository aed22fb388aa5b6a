// Preloaded with `node --require bench/rss-probe.cjs dist/cli.js …`: writes the process's peak RSS (bytes) and
// its lifetime to $DELIB_BENCH_RSS_OUT at exit, so the bench can measure the shipped CLI without changing it.
"use strict";
const { writeFileSync } = require("node:fs");
const started = performance.timeOrigin;
process.on("exit", (code) => {
  const out = process.env.DELIB_BENCH_RSS_OUT;
  if (!out) return;
  try {
    writeFileSync(out, JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024, uptimeMs: performance.now(), code, startedAt: started }));
  } catch {
    /* best effort */
  }
});
