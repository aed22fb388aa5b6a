// A ChatModel over any provider that streams text fragments — the shape of `vscode.lm`'s
// `LanguageModelChat.sendRequest(...)` (`response.text` is an AsyncIterable<string>). The extension supplies `send`
// and `classify`; this adapter adds the parts every provider needs the same way: the system prompt folded into the
// user turn when the provider has no system role, a wall-clock timeout, cancellation, timing and token counts.
// No vscode import here: core stays host-agnostic.
import type { ChatModel, ChatRequest, ChatResult, JsonSchemaSpec } from "./client";
import { ModelError, asModelError } from "./errors";

export interface StreamMessage {
  role: "system" | "user";
  content: string;
}

export interface TextStreamSource {
  /** Pinned model id, e.g. `${model.vendor}/${model.id}@${model.version}` for vscode.lm. */
  id: string;
  /** Shown in receipts and the egress preview, e.g. "vscode.lm (copilot)". */
  endpointHost?: string;
  /** True if `send` accepts a system message; otherwise the system prompt is prepended to the user message. */
  supportsSystemRole?: boolean;
  /** Starts the request and returns the text fragments. Must honour `signal` (map it to a CancellationToken). */
  send(messages: StreamMessage[], opts: { signal: AbortSignal; maxTokens: number; jsonSchema?: JsonSchemaSpec }): Promise<AsyncIterable<string>>;
  /**
   * Maps a provider error to the closed set, e.g. for vscode.lm: LanguageModelError code "NoPermissions" → auth,
   * "Blocked" → rate-limited, "NotFound" → http-error; a CancellationError → aborted. Default: asModelError.
   */
  classify?(err: unknown): ModelError;
  /** Token counter for usage (vscode.lm: `model.countTokens`). Optional. */
  countTokens?(text: string, signal: AbortSignal): Promise<number>;
  /** Wall-clock limit for one call. Default 60 000. */
  timeoutMs?: number;
}

export function createStreamingChatModel(source: TextStreamSource): ChatModel {
  const timeoutMs = source.timeoutMs ?? 60_000;
  return {
    id: source.id,
    ...(source.endpointHost ? { endpointHost: source.endpointHost } : {}),
    async complete(req: ChatRequest): Promise<ChatResult> {
      const started = performance.now();
      if (req.signal.aborted) throw new ModelError("aborted", "cancelled");
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const onAbort = () => controller.abort();
      req.signal.addEventListener("abort", onAbort, { once: true });
      const messages: StreamMessage[] = source.supportsSystemRole
        ? [
            { role: "system", content: req.system },
            { role: "user", content: req.user },
          ]
        : [{ role: "user", content: `${req.system}\n\n---\n\n${req.user}` }];
      const classify = (err: unknown): ModelError => {
        if (req.signal.aborted) return new ModelError("aborted", "cancelled");
        if (timedOut) return new ModelError("timeout", `no complete answer from ${source.endpointHost ?? source.id} within ${timeoutMs} ms`);
        return source.classify ? source.classify(err) : asModelError(err);
      };
      let text = "";
      try {
        // Every wait races the abort, so a provider that ignores the signal cannot hold the call past the timeout.
        const aborted = new Promise<never>((_, reject) => {
          const fail = () => reject(classify(undefined));
          if (controller.signal.aborted) fail();
          else controller.signal.addEventListener("abort", fail, { once: true });
        });
        aborted.catch(() => {});
        const stream = await Promise.race([source.send(messages, { signal: controller.signal, maxTokens: req.maxTokens, jsonSchema: req.jsonSchema }), aborted]);
        const it = stream[Symbol.asyncIterator]();
        for (;;) {
          const next = await Promise.race([it.next(), aborted]);
          if (next.done) break;
          text += next.value;
        }
        if (controller.signal.aborted) throw classify(undefined);
      } catch (err) {
        throw err instanceof ModelError && (err.kind === "aborted" || err.kind === "timeout") ? err : classify(err);
      } finally {
        clearTimeout(timer);
        req.signal.removeEventListener("abort", onAbort);
      }
      let usage: ChatResult["usage"];
      if (source.countTokens) {
        try {
          const [p, c] = await Promise.all([source.countTokens(messages.map((m) => m.content).join("\n"), req.signal), source.countTokens(text, req.signal)]);
          usage = { prompt_tokens: p, completion_tokens: c };
        } catch {
          usage = undefined;
        }
      }
      // Stream providers do not say why they stopped; "stop" it is (truncation then shows up as invalid JSON).
      return { text, finishReason: "stop", ...(usage ? { usage } : {}), ms: performance.now() - started, attempts: 1 };
    },
  };
}
