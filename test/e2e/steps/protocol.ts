// The host's guard on webview messages, checked against the same module the packaged extension bundles.
import { assert, type Step } from "../workbench";

export const protocolSteps: Step[] = [
  {
    name: "the host's message guard rejects malformed webview messages",
    run: async () => {
      const { parseWebviewMessage } = await import("../../../src/shared/protocolSchemas");
      assert(parseWebviewMessage({ type: "request", id: "r1", method: "pick", params: { optionId: "x" } }).ok, "a valid pick is accepted");
      for (const bad of [
        { type: "request", method: "pick", params: { optionId: "x" } },
        { type: "request", id: "r1", method: "exec", params: {} },
        { type: "request", id: "r1", method: "openCitation", params: { citationId: "c", html: "<img>" } },
        "ready",
        null,
      ]) {
        assert(!parseWebviewMessage(bad).ok, `accepted a malformed message ${JSON.stringify(bad)}`);
      }
    },
  },
];
