// dist/mcpWorker.js: the MCP server's deliberation worker thread (src/mcp/worker.ts) as the extension ships it. The
// server (dist/mcpServer.js) starts each worker with `require("…/dist/mcpWorker.js").mcpWorkerMain()`; like that
// shim, this one only loads dist/heavyBundle.js, where the worker and the pipeline live.
import { loadHeavyBundle } from "./loadHeavyBundle";

export function mcpWorkerMain(): void {
  loadHeavyBundle().mcpWorkerMain();
}
