// The picker protocol's pure parts: typed requests with ids, a reply settles exactly its request, and a lost reply
// rejects with one clear line after the timeout (so no button stays pending); the host's handler map answers every
// request, turning a thrown error into an `ok: false` reply; zod checks both directions.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PendingRequests, REQUEST_TIMEOUT_MS, RequestError, answer, type RequestHandlers, type RequestMessage } from "../../src/shared/protocol";
import { checkResult, parseHostMessage, parseWebviewMessage } from "../../src/shared/protocolSchemas";

/** A transport that records what was posted, with timers the test fires by hand. */
function fakeTransport(opts: { failPost?: boolean } = {}) {
  const posted: RequestMessage[] = [];
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    posted,
    timers,
    fireAll: () => [...timers.values()].forEach((t) => t.fn()),
    transport: {
      post: (m: RequestMessage) => {
        if (opts.failPost) throw new Error("the frame is gone");
        posted.push(m);
      },
      checkResult,
      setTimer: (fn: () => void, ms: number) => {
        timers.set(++next, { fn, ms });
        return next;
      },
      clearTimer: (h: unknown) => void timers.delete(h as number),
    },
  };
}

describe("PendingRequests (the webview side)", () => {
  test("each request gets its own id and a 15 s timer; its reply resolves it with the typed result", async () => {
    const t = fakeTransport();
    const requests = new PendingRequests(t.transport);
    const pick = requests.send("pick", { optionId: "opt-a" });
    const copy = requests.send("copyMarkdown", {});
    assert.deepEqual(
      t.posted.map((m) => [m.id, m.method]),
      [
        ["r1", "pick"],
        ["r2", "copyMarkdown"],
      ],
    );
    assert.deepEqual([...t.timers.values()].map((x) => x.ms), [REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS]);
    assert.equal(REQUEST_TIMEOUT_MS, 15_000);
    assert.equal(requests.settle({ type: "reply", id: "r2", ok: true, result: { message: "Copied." } }), true);
    assert.equal(requests.settle({ type: "reply", id: "r1", ok: true, result: { message: "Picked." } }), true);
    assert.deepEqual(await pick, { message: "Picked." });
    assert.deepEqual(await copy, { message: "Copied." });
    assert.equal(requests.size, 0);
    assert.equal(t.timers.size, 0, "the timers are cleared");
  });

  test("a lost reply rejects after the timeout with one line, and a late reply is ignored", async () => {
    const t = fakeTransport();
    const requests = new PendingRequests(t.transport);
    const pending = requests.send("openCitation", { citationId: "c1" });
    t.fireAll();
    await assert.rejects(pending, (err: unknown) => {
      assert.ok(err instanceof RequestError);
      assert.equal(err.failure, "timeout");
      assert.equal(err.message, "No answer from the editor after 15 s while opening the citation. Try again.");
      return true;
    });
    assert.equal(requests.size, 0);
    assert.equal(requests.settle({ type: "reply", id: "r1", ok: true, result: null }), false, "too late");
  });

  test("a real timer rejects too (no fake clock)", async () => {
    const requests = new PendingRequests({ post: () => {} }, 20);
    await assert.rejects(requests.send("openReceiptFile", {}), /No answer from the editor/);
  });

  test("a host error rejects with the host's line", async () => {
    const t = fakeTransport();
    const requests = new PendingRequests(t.transport);
    const pending = requests.send("pick", { optionId: "opt-x", reason: "because" });
    requests.settle({ type: "reply", id: "r1", ok: false, error: "unknown option opt-x" });
    await assert.rejects(pending, (err: unknown) => err instanceof RequestError && err.failure === "host-error" && err.message === "unknown option opt-x");
  });

  test("a reply whose result does not fit its request rejects as malformed", async () => {
    const t = fakeTransport();
    const requests = new PendingRequests(t.transport);
    const pending = requests.send("pick", { optionId: "opt-a" });
    requests.settle({ type: "reply", id: "r1", ok: true, result: { note: 42 } });
    await assert.rejects(pending, (err: unknown) => err instanceof RequestError && err.failure === "invalid-reply" && /malformed/.test(err.message) && !err.message.includes("\n"));
  });

  test("a post that throws rejects at once and leaves no timer behind", async () => {
    const t = fakeTransport({ failPost: true });
    const requests = new PendingRequests(t.transport);
    await assert.rejects(requests.send("copyMarkdown", {}), (err: unknown) => err instanceof RequestError && err.failure === "unsent" && /the frame is gone/.test(err.message));
    assert.equal(t.timers.size, 0);
    assert.equal(requests.size, 0);
  });
});

describe("answer (the host side)", () => {
  const handlers: RequestHandlers = {
    openCitation: async ({ citationId }) => {
      if (citationId !== "c1") throw new Error(`unknown citation ${citationId}\nstack line`);
      return null;
    },
    pick: async ({ optionId }) => ({ message: `Picked ${optionId}` }),
    copyMarkdown: async () => ({ message: "Copied." }),
    openReceiptFile: async () => null,
    exportAdr: async () => ({ message: "Review the ADR." }),
  };

  test("dispatches by method and replies with the same id", async () => {
    assert.deepEqual(await answer(handlers, { type: "request", id: "r7", method: "pick", params: { optionId: "opt-b" } }), {
      type: "reply",
      id: "r7",
      ok: true,
      result: { message: "Picked opt-b" },
    });
  });

  test("a handler that throws becomes an ok:false reply with the first line", async () => {
    const errors: unknown[] = [];
    const reply = await answer(handlers, { type: "request", id: "r8", method: "openCitation", params: { citationId: "zz" } }, (e) => errors.push(e));
    assert.deepEqual(reply, { type: "reply", id: "r8", ok: false, error: "unknown citation zz" });
    assert.equal(errors.length, 1);
  });
});

describe("protocol schemas", () => {
  test("the host accepts well-formed requests and refuses the rest", () => {
    assert.ok(parseWebviewMessage({ type: "ready", protocol: 2 }).ok);
    assert.ok(parseWebviewMessage({ type: "request", id: "r1", method: "copyMarkdown", params: {} }).ok);
    for (const bad of [
      { type: "ready", protocol: 1 },
      { type: "request", id: "r1", method: "pick", params: {} },
      { type: "request", id: "", method: "copyMarkdown", params: {} },
      { type: "request", id: "r1", method: "copyMarkdown", params: { html: "<img>" } },
      { type: "request", id: "r1", method: "runShell", params: {} },
      { type: "pick", requestId: "r1", optionId: "x" },
    ]) {
      const r = parseWebviewMessage(bad);
      assert.equal(r.ok, false, JSON.stringify(bad));
      if (!r.ok) assert.ok(!r.error.includes("\n"));
    }
  });

  test("the webview accepts renders and replies and ignores the rest", () => {
    assert.equal(parseHostMessage({ type: "reply", id: "r1", ok: true, result: null })?.type, "reply");
    assert.equal(parseHostMessage({ type: "reply", id: "r1", ok: false, error: "x" })?.type, "reply");
    assert.equal(parseHostMessage({ type: "render", model: { receiptId: "a", folderUri: "file:///x", payload: {} } })?.type, "render");
    for (const bad of [null, "render", { type: "reply", id: "r1", ok: false }, { type: "render", model: null }, { type: "response", requestId: "r1", ok: true }]) {
      assert.equal(parseHostMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  test("each method's result is checked", () => {
    assert.equal(checkResult("openCitation", null), undefined);
    assert.equal(checkResult("pick", { message: "ok" }), undefined);
    assert.ok(checkResult("pick", null));
    assert.ok(checkResult("openReceiptFile", { message: "x" }));
  });
});
