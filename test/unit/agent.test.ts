// The agent entry points' pure logic: which workspace folder a question reads, the confirmation's egress sentence,
// the MCP server the provider offers, the tool's input check, and what @deliberate renders for a real receipt
// (references and anchors to the cited lines, escaped text, follow-ups).
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import type { Receipt } from "../../src/core/schemas";
import { chooseFolder, contextFileIn, describeEgressForConfirmation, mcpServerSpec, relativeInside } from "../../src/vscode/agentContext";
import { parseAgentToolInput } from "../../src/vscode/agentInput";
import { asDeliberatedTurn, citationTarget, escapeMarkdown, followupsFor, optionFromPrompt, receiptChatParts, turnOf } from "../../src/vscode/chatRender";

const folders = [
  { name: "shop", fsPath: "/work/shop" },
  { name: "shop-api", fsPath: "/work/shop/packages/api" },
  { name: "docs", fsPath: "/srv/docs" },
];

describe("choosing the workspace folder", () => {
  test("an absolute context path picks the deepest folder that contains it", () => {
    assert.equal(chooseFolder(folders, "/work/shop/packages/api/src/x.ts", undefined)?.name, "shop-api");
    assert.equal(chooseFolder(folders, "/work/shop/src/cart.ts", undefined)?.name, "shop");
    assert.equal(chooseFolder(folders, "/srv/docs/adr/1.md", "/work/shop/a.ts")?.name, "docs");
  });

  test("a relative path names its folder first in a multi-root workspace; otherwise the active editor, then the first folder", () => {
    assert.equal(chooseFolder(folders, "docs/adr/1.md", undefined)?.name, "docs");
    assert.equal(chooseFolder(folders, "src/cart.ts", "/srv/docs/readme.md")?.name, "docs");
    assert.equal(chooseFolder(folders, "/elsewhere/x.ts", undefined)?.name, "shop");
    assert.equal(chooseFolder(folders, undefined, "/work/shop-other/x.ts")?.name, "shop", "a sibling with a common prefix is not inside");
    assert.equal(chooseFolder([], "src/x.ts", undefined), undefined);
  });

  test("the context file is recorded relative to the folder, never outside it", () => {
    assert.equal(contextFileIn(folders[0]!, "/work/shop/src/cart.ts", 3), "src/cart.ts");
    assert.equal(contextFileIn(folders[0]!, "shop/src/cart.ts", 3), "src/cart.ts");
    assert.equal(contextFileIn(folders[0]!, "src/cart.ts", 1), "src/cart.ts");
    assert.equal(contextFileIn(folders[0]!, "../etc/passwd", 1), undefined);
    assert.equal(contextFileIn(folders[0]!, "/etc/passwd", 1), undefined);
    assert.equal(relativeInside("/work/shop", "/work/shop"), "");
    assert.equal(relativeInside("/work/shop", "/work/shopping/x"), undefined);
  });
});

describe("the confirmation's egress sentence", () => {
  const base = { keepInternalLocal: false, externalLines: [] as string[] };
  test("no model: nothing leaves the machine", () => {
    const text = describeEgressForConfirmation({ ...base, provider: "none" });
    assert.match(text, /No model is configured/);
    assert.match(text, /Nothing leaves the machine\./);
  });
  test("offline names the provider it turned off", () => {
    const text = describeEgressForConfirmation({ ...base, provider: "none", offlineOverride: "openai", externalLines: ["External sources: offline, so no web request is made (installed dependency docs are read locally)."] });
    assert.match(text, /Offline mode is on.*“openai”/);
    assert.match(text, /Nothing leaves the machine\./);
  });
  test("a model names its host, what it receives, and whether consent is still to come", () => {
    const first = describeEgressForConfirmation({ ...base, provider: "openai", host: "api.example.com:443" });
    assert.match(first, /A model at api\.example\.com:443 receives the question and the retrieved evidence excerpts/);
    assert.match(first, /asks for consent/);
    assert.doesNotMatch(first, /Nothing leaves/);
    const local = describeEgressForConfirmation({ ...base, provider: "vscode-lm", host: "vscode.lm (copilot)", consent: "keep-local" });
    assert.match(local, /internal snippets stay local/);
    assert.doesNotMatch(local, /asks for consent/);
  });
  test("an unavailable provider sends nothing, but the web sources still say what they fetch", () => {
    const text = describeEgressForConfirmation({ ...base, provider: "openai", unavailable: "no API key is set", externalLines: ["External sources: documentation pages are fetched from nodejs.org (plain GET requests; nothing from the repository is sent)."] });
    assert.match(text, /not available \(no API key is set\)/);
    assert.match(text, /Nothing from the repository leaves the machine\. External sources: documentation pages are fetched from nodejs\.org/);
  });
});

describe("the MCP server the provider offers", () => {
  const opts = { extensionPath: "/ext", execPath: "/usr/bin/code", folders: ["/work/a", "/work/b"], trusted: true, serverExists: true };
  test("the editor's Node runs dist/mcpServer.js with --repo for every folder", () => {
    const spec = mcpServerSpec(opts);
    assert.ok(spec);
    assert.equal(spec.command, "/usr/bin/code");
    assert.deepEqual(spec.args, [join("/ext", "dist", "mcpServer.js"), "--repo", "/work/a", "--repo", "/work/b"]);
    assert.deepEqual(spec.env, { ELECTRON_RUN_AS_NODE: "1" });
    assert.equal(spec.cwd, "/work/a");
  });
  test("nothing is offered in Restricted Mode, without folders, or without the server bundle", () => {
    assert.equal(mcpServerSpec({ ...opts, trusted: false }), undefined);
    assert.equal(mcpServerSpec({ ...opts, folders: [] }), undefined);
    assert.equal(mcpServerSpec({ ...opts, serverExists: false }), undefined);
  });
});

describe("the tool's input", () => {
  test("accepts the declared shape and refuses anything else with one line", () => {
    const ok = parseAgentToolInput({ question: "  Should we use Redux or Zustand?  ", context: { path: "src/cart.ts", text: "x" }, offline: true });
    assert.equal(ok.ok, true);
    assert.equal(ok.ok && ok.input.question, "Should we use Redux or Zustand?");
    for (const [bad, why] of [
      [{}, /question/],
      [{ question: "   " }, /empty/],
      [{ question: "q?", context: { path: 3 } }, /context\.path/],
      [{ question: "q?", shell: "rm -rf /" }, /shell|unrecognized/i],
      [{ question: "x".repeat(5000) }, /question/],
      ["a string", /root|object/i],
    ] as const) {
      const r = parseAgentToolInput(bad);
      assert.equal(r.ok, false, JSON.stringify(bad).slice(0, 60));
      assert.match(!r.ok ? r.error : "", why);
      assert.ok(!r.ok && !r.error.includes("\n"), "one line");
    }
  });
});

describe("what @deliberate renders for a receipt", () => {
  let repo: string;
  let receipt: Receipt;
  before(async () => {
    repo = createSampleRepo();
    const out = await deliberate({ repo, question: "should we use Redux or Zustand for the cart state?", signingKey: generateSigningKey(), onProgress: () => {}, useCache: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind === "deliberated") receipt = out.receipt;
  });

  test("references and anchors point at cited files inside the repository, with their line ranges", () => {
    const parts = receiptChatParts(receipt);
    const refs = parts.filter((p) => p.kind === "reference");
    const anchors = parts.filter((p) => p.kind === "anchor");
    assert.ok(refs.length >= 1, "at least one reference");
    assert.ok(anchors.length >= refs.length, "every referenced citation is also anchored in the list");
    const ranged = anchors.map((a) => (a.kind === "anchor" ? a.target : undefined)).find((t) => t?.kind === "file" && t.range);
    assert.ok(ranged && ranged.kind === "file" && ranged.range, "a citation with a line range");
    const lines = readFileSync(join(repo, ranged.path), "utf8").split("\n");
    assert.ok(ranged.range.end <= lines.length, `${ranged.path}:${ranged.range.start}-${ranged.range.end} exists`);
    for (const p of refs) if (p.kind === "reference" && p.target.kind === "file") assert.ok(existsSync(join(repo, p.target.path)), p.target.path);
  });

  test("the recommendation callout comes first, then every option with its tradeoffs, and the receipt id", () => {
    const md = receiptChatParts(receipt)
      .filter((p) => p.kind === "markdown")
      .map((p) => (p.kind === "markdown" ? p.text : ""))
      .join("");
    const rec = receipt.payload.options.find((o) => o.id === receipt.payload.recommendation.option_id);
    assert.ok(rec, "the sample repo's ADR decides this question");
    assert.ok(md.startsWith(`> **Recommended: ${escapeMarkdown(rec.title)}**`), md.slice(0, 120));
    for (const o of receipt.payload.options) assert.ok(md.includes(`### ${escapeMarkdown(o.title)}`), o.title);
    assert.ok(md.includes(receipt.receipt_id));
    assert.match(md, /### Citations/);
  });

  test("text from the repository or a model cannot become a link, an image or HTML", () => {
    const evil = structuredClone(receipt);
    evil.payload.options[0]!.title = "![x](https://evil.example/?leak=1) <img src=x>";
    evil.payload.recommendation.rationale = "[click](command:workbench.action.terminal.new)";
    const md = receiptChatParts(evil)
      .map((p) => (p.kind === "markdown" ? p.text : ""))
      .join("");
    assert.ok(!md.includes("![x]("), "no image syntax");
    assert.ok(!md.includes("](command:"), "no link syntax");
    assert.ok(!/(^|[^\\])<img/.test(md), "no unescaped HTML");
    assert.ok(md.includes("\\!\\[x\\]\\(https://evil\\.example/?leak=1\\)"));
  });

  test("citations that cannot be opened safely get no target", () => {
    const c = receipt.payload.citations[0]!;
    assert.equal(citationTarget({ ...c, kind: "internal", path_or_url: "../outside.md", commit: undefined }), undefined);
    assert.equal(citationTarget({ ...c, kind: "internal", path_or_url: "/etc/passwd", commit: undefined }), undefined);
    assert.equal(citationTarget({ ...c, kind: "external", path_or_url: "javascript:alert(1)" }), undefined);
    assert.deepEqual(citationTarget({ ...c, kind: "external", path_or_url: "https://zustand.docs.pmnd.rs/" }), { kind: "url", url: "https://zustand.docs.pmnd.rs/" });
  });

  test("follow-ups: every option as a pick (the recommended one first), Export as ADR only when it exists, a model only when offered", () => {
    const turn = turnOf(receipt, "file:///repo");
    assert.deepEqual(asDeliberatedTurn(JSON.parse(JSON.stringify(turn))), turn, "survives the chat history");
    assert.equal(asDeliberatedTurn({ kind: "receipts" }), undefined);
    const plain = followupsFor(turn, { exportAvailable: false, modelOffered: false });
    assert.equal(plain.length, receipt.payload.options.length);
    assert.ok(plain.every((f) => f.command === "pick"));
    assert.match(plain[0]!.label, /\(recommended\)$/);
    const all = followupsFor(turn, { exportAvailable: true, modelOffered: true });
    assert.deepEqual(all.slice(-2), [
      { prompt: receipt.receipt_id, label: "Export as ADR", command: "adr" },
      { prompt: receipt.payload.question, label: "Deliberate with a model", command: "model" },
    ]);
  });

  test("a /pick prompt names an option by id, title or a unique part of the title", () => {
    const turn = turnOf(receipt, "file:///repo");
    const [first] = turn.options;
    assert.deepEqual(optionFromPrompt(turn, first!.id), first);
    assert.deepEqual(optionFromPrompt(turn, `“${first!.title}”`), first);
    assert.equal(optionFromPrompt(turn, ""), undefined);
    assert.equal(optionFromPrompt(turn, "no such option at all"), undefined);
  });
});
