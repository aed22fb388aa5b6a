// dist/mcpServer.js: the MCP server as the extension ships it (`node dist/mcpServer.js --repo DIR`, or VS Code's own
// binary with ELECTRON_RUN_AS_NODE=1). A few lines on purpose: the server and the whole core pipeline live in
// dist/heavyBundle.js, which the extension ships anyway, so the .vsix carries them once. Nothing here (or in the
// parts of the heavy bundle it reaches) loads `vscode`.
// `deliberate` runs in worker threads started from dist/mcpWorker.js (./mcpWorkerMain.ts), another such shim.
import { join } from "node:path";
import { loadHeavyBundle } from "./loadHeavyBundle";

void loadHeavyBundle()
  .mcpMain(process.argv.slice(2), process.env, { workerEntry: join(__dirname, "mcpWorker.js") })
  .then((code) => {
    process.exitCode = code;
  });
