// Issue 10, finding 7 on the extension's side: its settings refuse URLs with credentials, as the CLI's flags do
// (the CLI's half, run as a real process, is in test/cli/security.test.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";

describe("finding 7: URLs with credentials are refused", () => {
  test("the extension's settings refuse the same URLs", async () => {
    const { parseSettings } = await import("../../src/vscode/settingsSchema");
    const problems: { key: string }[] = [];
    const values: Record<string, unknown> = {
      "external.docsUrls": ["http://user:secretpw@docs.example.test/guide"],
      "external.searxngUrl": "http://admin:pw@127.0.0.1:8888",
      "model.baseUrl": "http://u:p@127.0.0.1:1/v1",
      "external.allowHosts": ["http://u:p@docs.example.test:8443"],
    };
    const s = parseSettings((k) => values[k], (p) => problems.push(p));
    assert.deepEqual(s.externalDocsUrls, []);
    assert.equal(s.externalSearxngUrl, "");
    assert.doesNotMatch(s.modelBaseUrl, /u:p@/);
    assert.deepEqual(s.externalAllowHosts, []);
    assert.deepEqual(problems.map((p) => p.key).sort(), ["external.allowHosts", "external.docsUrls", "external.searxngUrl", "model.baseUrl"]);
  });
});
