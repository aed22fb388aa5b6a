// The ChatModel abstraction the planner and synthesizer talk to, and its OpenAI-compatible implementation over the
// official `openai` SDK (chat.completions, unmodified). The VS Code extension wraps `vscode.lm` behind the same
// interface. Every failure leaves `complete` as a classified ModelError whose message never carries the API key.
import OpenAI from "openai";
import { AUTH_HINT, ModelError, asModelError, oneLineScrubbed } from "./errors";

export interface JsonSchemaSpec {
  /** [a-zA-Z0-9_-]{1,64}: the name OpenAI's `response_format.json_schema.name` requires. */
  name: string;
  schema: Record<string, unknown>;
}

export interface ChatRequest {
  system: string;
  user: string;
  /**
   * The JSON shape wanted back. Implementations that support structured output use it; the others ignore it
   * (the prompts always describe the shape in words too, so JSON-in-text works everywhere).
   */
  jsonSchema?: JsonSchemaSpec;
  maxTokens: number;
  signal: AbortSignal;
  /**
   * HTTP attempts this call may make in all (retries and compatibility downgrades included). The per-deliberation
   * circuit breaker (breaker.ts) sets it from what is left of its budget. Default: no limit beyond the retries.
   */
  maxAttempts?: number;
}

export interface ChatResult {
  text: string;
  /** "stop", "length", "content_filter", … ("stop" when the provider does not say). */
  finishReason: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Wall-clock time of the whole call, retries included. */
  ms: number;
  /** HTTP attempts made (1 unless retried or downgraded). */
  attempts?: number;
  /** What the client adapted on the way ("json_schema rejected (HTTP 400): JSON in text", "retried after 429"). */
  notes?: string[];
}

/**
 * A chat model. `complete` resolves with the text, or rejects with a ModelError (see errors.ts for the closed set
 * of kinds); anything else it throws is classified by `asModelError`. Implementations must never put a secret in
 * an error message.
 */
export interface ChatModel {
  /** Pinned model id as configured ("gpt-4.1-mini", "llama3.1:8b", "copilot-gpt-4o"). */
  readonly id: string;
  /** Host (and port) the requests go to, for receipts and the egress preview; never a key or a full URL. */
  readonly endpointHost?: string;
  complete(req: ChatRequest): Promise<ChatResult>;
}

export interface OpenAIChatModelOptions {
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8080/v1 (llama.cpp). */
  baseURL: string;
  model: string;
  /** Optional for local servers (a placeholder is sent); never logged, never in receipts or messages. */
  apiKey?: string;
  /** Per HTTP attempt, counted to the end of the response body. Default 60 000. */
  timeoutMs?: number;
  /** Response body cap in bytes, counted after decompression. Default MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
  /** When set, replaces the per-call token limits (plan and synthesis ask for their own defaults). */
  maxTokens?: number;
  /** Default 0. */
  temperature?: number;
  seed?: number;
  /** Retries for 429 and 5xx only (never for timeouts, refused connections or auth). Default 2, capped at 5. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the call fails as rate-limited at once. Default 10 000. */
  maxRetryDelayMs?: number;
  /** Backoff when the server gives no Retry-After: base·2^n with jitter, capped by maxRetryDelayMs. Default 500. */
  retryBaseMs?: number;
  /**
   * "auto" (default): send response_format json_schema and fall back to JSON-in-text, for the rest of this
   * model's life, when the endpoint rejects it with HTTP 400. "json_schema": never fall back. "off": never send it.
   */
  structuredOutput?: "auto" | "json_schema" | "off";
}

/** An answer is at most max_tokens (a few KB to ~100 KB); a body past this is an endpoint streaming or looping. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export const OPENAI_DEFAULTS = {
  timeoutMs: 60_000,
  temperature: 0,
  maxRetries: 2,
  maxRetryDelayMs: 10_000,
  retryBaseMs: 500,
} as const;

/** host[:port] of a base URL; throws a plain Error naming the problem (never echoing credentials in the URL). */
export function endpointHostOf(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new Error("the model base URL is not a valid URL (expected e.g. http://127.0.0.1:11434/v1)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`the model base URL must be http or https, not ${url.protocol}`);
  return url.host;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ModelError("aborted", "cancelled"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelError("aborted", "cancelled"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Retry-After-Ms, Retry-After (seconds or an HTTP date), in ms; undefined when absent or unparseable. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms && !Number.isNaN(parseFloat(ms))) return Math.max(0, parseFloat(ms));
  const ra = headers.get("retry-after");
  if (!ra) return undefined;
  const seconds = Number(ra.trim());
  if (!Number.isNaN(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 6 && cur && typeof cur === "object"; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    const errors = (cur as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const e of errors) if (e && typeof (e as { code?: unknown }).code === "string") codes.push((e as { code: string }).code);
    cur = (cur as { cause?: unknown }).cause;
  }
  return codes;
}

/** Maps whatever the SDK threw to the closed set. `secrets` are scrubbed from every detail. */
export function classifyOpenAIError(err: unknown, ctx: { host: string; timeoutMs: number; secrets: string[]; signal?: AbortSignal }): ModelError {
  const { host, secrets } = ctx;
  if (err instanceof ModelError) return err;
  if (err instanceof OpenAI.APIUserAbortError || ctx.signal?.aborted) return new ModelError("aborted", "cancelled");
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new ModelError("timeout", `no response from ${host} within ${ctx.timeoutMs} ms`);
  if (err instanceof OpenAI.APIConnectionError) {
    const codes = errorCodes(err);
    if (codes.includes("ECONNREFUSED")) return new ModelError("connection-refused", `nothing is listening at ${host} (ECONNREFUSED)`);
    const code = codes.find((c) => /^E[A-Z]+$|^UND_ERR/.test(c));
    if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "ETIMEDOUT") return new ModelError("timeout", `could not connect to ${host} within ${ctx.timeoutMs} ms (${code})`);
    return new ModelError("network-error", `could not reach ${host}${code ? ` (${code})` : `: ${oneLineScrubbed(err.message, secrets)}`}`);
  }
  if (err instanceof OpenAI.APIError && typeof err.status === "number") {
    const status = err.status;
    const said = oneLineScrubbed(err.message.replace(/^\d{3}\s*/, ""), secrets, 160);
    const suffix = said && said !== "status code (no body)" ? ` (server said: ${said})` : "";
    if (status === 401 || status === 403) return new ModelError("auth", `HTTP ${status} from ${host}: ${AUTH_HINT}${suffix}`, { status });
    if (status === 429) return new ModelError("rate-limited", `HTTP 429 from ${host}${suffix}`, { status });
    if (status >= 500) return new ModelError("server-error", `HTTP ${status} from ${host}${suffix}`, { status });
    const hint = status === 404 ? " — check the model name and base URL (OpenAI-compatible servers usually end in /v1)" : "";
    return new ModelError("http-error", `HTTP ${status} from ${host}${hint}${suffix}`, { status });
  }
  if (err instanceof SyntaxError) return new ModelError("invalid-json", `the response body from ${host} is not JSON: ${oneLineScrubbed(err.message, secrets, 120)}`);
  return asModelError(err, secrets);
}

function statusOf(err: unknown): number | undefined {
  return err instanceof OpenAI.APIError && typeof err.status === "number" ? err.status : undefined;
}

type Incompatibility = "response_format" | "max_tokens" | "temperature" | "seed";

/** Which request parameter a 400 complains about, so one compatibility downgrade can be tried. */
function incompatibility(err: unknown, body: Record<string, unknown>): Incompatibility | undefined {
  if (statusOf(err) !== 400) return undefined;
  const e = err as InstanceType<typeof OpenAI.APIError>;
  const text = `${e.param ?? ""} ${e.message}`.toLowerCase();
  // Too much input is not a compatibility problem: no downgrade would help.
  if (/context length|context_length|maximum context|too many tokens|prompt is too long/.test(text)) return undefined;
  if (body.response_format && /response_format|json_schema|structured|schema/.test(text)) return "response_format";
  if ("max_tokens" in body && /max_tokens|max_completion_tokens/.test(text)) return "max_tokens";
  if ("temperature" in body && /temperature/.test(text)) return "temperature";
  if ("seed" in body && /\bseed\b/.test(text)) return "seed";
  // An unexplained 400 while structured output was requested: the commonest cause is the response_format.
  if (body.response_format) return "response_format";
  return undefined;
}

/** What the endpoint accepts. Sticky for the model's lifetime, so later calls don't pay for the discovery again. */
interface EndpointCompat {
  structured: boolean;
  tokensParam: "max_tokens" | "max_completion_tokens";
  temperature: boolean;
  seed: boolean;
}

type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose Response may not carry a body (the Response constructor throws on one). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch whose response body fails with a `too-large` ModelError once it passes `maxBytes` (declared or counted
 * after decompression), so a huge or endless body cannot fill memory. The SDK reads every body through it.
 */
export function cappedFetch(maxBytes: number, host: string, base: FetchFn = (input, init) => fetch(input, init)): FetchFn {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.body || NULL_BODY_STATUS.has(res.status)) return res;
    const source = res.body.getReader();
    const tooLarge = () => new ModelError("too-large", `the response from ${host} is larger than ${maxBytes} bytes`);
    const declared = Number(res.headers.get("content-length") ?? NaN);
    let bytes = 0;
    const stop = (controller: ReadableStreamDefaultController<Uint8Array>) => {
      controller.error(tooLarge());
      // Stops the download too, not just our reading of it.
      source.cancel().catch(() => undefined);
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (declared > maxBytes) return stop(controller);
        let chunk: Awaited<ReturnType<typeof source.read>>;
        try {
          chunk = await source.read();
        } catch (err) {
          return controller.error(err);
        }
        if (chunk.done) return controller.close();
        bytes += chunk.value.byteLength;
        if (bytes > maxBytes) return stop(controller);
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => source.cancel(reason),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Everything one model's calls share: its settings with defaults applied, the SDK client and what it learned. */
interface OpenAIModelContext {
  options: OpenAIChatModelOptions;
  host: string;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  retryBaseMs: number;
  secrets: string[];
  client: OpenAI;
  compat: EndpointCompat;
}

/** The bookkeeping of one `complete` call across its attempts. */
interface CallProgress {
  started: number;
  notes: string[];
  attempts: number;
  retries: number;
  downgrades: number;
  attemptLimit: number;
}

function createSdkClient(options: OpenAIChatModelOptions, timeoutMs: number, host: string): OpenAI {
  return new OpenAI({
    baseURL: options.baseURL,
    // Local servers need no key, but the SDK insists on one; the placeholder is harmless.
    apiKey: options.apiKey || "no-key-configured",
    // Never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID / OPENAI_ADMIN_KEY from the environment for a third-party host.
    organization: null,
    project: null,
    adminAPIKey: null,
    timeout: timeoutMs,
    fetch: cappedFetch(options.maxResponseBytes ?? MAX_RESPONSE_BYTES, host),
    // Retries are ours (below): bounded, abortable, and with a cap on Retry-After, which the SDK does not have.
    maxRetries: 0,
    logLevel: "off",
  });
}

function requestBody(options: OpenAIChatModelOptions, req: ChatRequest, compat: EndpointCompat): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.model,
    messages: [
      { role: "system", content: req.system },
      { role: "user", content: req.user },
    ],
    [compat.tokensParam]: options.maxTokens ?? req.maxTokens,
  };
  if (compat.temperature) body.temperature = options.temperature ?? OPENAI_DEFAULTS.temperature;
  if (compat.seed) body.seed = options.seed;
  if (req.jsonSchema && compat.structured) {
    body.response_format = { type: "json_schema", json_schema: { name: req.jsonSchema.name, schema: req.jsonSchema.schema, strict: true } };
  }
  return body;
}

function toChatResult(res: OpenAI.Chat.ChatCompletion, host: string, call: CallProgress): ChatResult {
  const choice = res?.choices?.[0];
  if (!choice || !choice.message) throw new ModelError("invalid-json", `the response from ${host} has no choices[0].message`);
  const usage = res.usage
    ? { prompt_tokens: res.usage.prompt_tokens ?? 0, completion_tokens: res.usage.completion_tokens ?? 0 }
    : undefined;
  return {
    text: choice.message.content ?? "",
    finishReason: choice.finish_reason ?? "stop",
    ...(usage ? { usage } : {}),
    ms: performance.now() - call.started,
    attempts: call.attempts,
    ...(call.notes.length ? { notes: call.notes } : {}),
  };
}

/** Stops sending what the endpoint rejected; returns the note that says so. */
function adaptTo(compat: EndpointCompat, bad: Incompatibility): string {
  if (bad === "response_format") compat.structured = false;
  if (bad === "max_tokens") compat.tokensParam = compat.tokensParam === "max_tokens" ? "max_completion_tokens" : "max_tokens";
  if (bad === "temperature") compat.temperature = false;
  if (bad === "seed") compat.seed = false;
  return bad === "response_format" ? "json_schema rejected (HTTP 400): JSON in text" : `${bad} rejected (HTTP 400): adapted`;
}

/** Waits as the server asked (Retry-After) or with jittered backoff; refuses at once when it asked too much. */
async function waitBeforeRetry(ctx: OpenAIModelContext, req: ChatRequest, call: CallProgress, err: unknown, classified: ModelError): Promise<void> {
  const asked = retryAfterMs(err instanceof OpenAI.APIError ? (err.headers as Headers | undefined) : undefined);
  if (asked !== undefined && asked > ctx.maxRetryDelayMs) {
    throw new ModelError(
      classified.kind,
      `${classified.detail}; the server asked to wait ${Math.round(asked / 100) / 10} s, more than the ${ctx.maxRetryDelayMs / 1000} s cap, so it was not retried`,
      { ...classified.extra, attempts: call.attempts },
    );
  }
  const backoff = Math.min(ctx.maxRetryDelayMs, ctx.retryBaseMs * 2 ** call.retries * (1 - Math.random() * 0.25));
  const wait = asked ?? backoff;
  call.notes.push(`HTTP ${classified.extra.status} · waited ${Math.round(wait)} ms${asked !== undefined ? " (Retry-After)" : ""} · retry ${call.retries + 1}/${ctx.maxRetries}`);
  call.retries++;
  await sleep(wait, req.signal);
}

/** Returns when the call should be tried again (after a compatibility downgrade or a retry wait); throws otherwise. */
async function recoverOrThrow(ctx: OpenAIModelContext, req: ChatRequest, call: CallProgress, err: unknown, body: Record<string, unknown>): Promise<void> {
  const classified = classifyOpenAIError(err, { host: ctx.host, timeoutMs: ctx.timeoutMs, secrets: ctx.secrets, signal: req.signal });
  if (classified.kind === "aborted") throw classified;
  const bad = ctx.options.structuredOutput === "json_schema" ? undefined : incompatibility(err, body);
  if (bad && call.downgrades < 2 && call.attempts < call.attemptLimit) {
    call.downgrades++;
    call.notes.push(adaptTo(ctx.compat, bad));
    return;
  }
  const retryable = classified.kind === "rate-limited" || classified.kind === "server-error";
  if (retryable && call.retries < ctx.maxRetries && call.attempts < call.attemptLimit) {
    await waitBeforeRetry(ctx, req, call, err, classified);
    return;
  }
  const tried = call.attempts > 1 ? ` after ${call.attempts} attempts` : "";
  throw new ModelError(classified.kind, `${classified.detail}${tried}`, { ...classified.extra, attempts: call.attempts });
}

/**
 * One HTTP attempt under its own deadline, counted to the end of the body: the SDK's `timeout` stops counting once
 * the headers arrive, so a server that sends headers and then drips would otherwise hold the call forever.
 */
async function sendAttempt(ctx: OpenAIModelContext, req: ChatRequest, body: Record<string, unknown>): Promise<OpenAI.Chat.ChatCompletion> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(req.signal.reason);
  req.signal.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ctx.timeoutMs);
  try {
    return await ctx.client.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, {
      signal: controller.signal,
      timeout: ctx.timeoutMs,
      maxRetries: 0,
    });
  } catch (err) {
    // The SDK reports our own abort as a user abort; it was the deadline.
    if (timedOut && !req.signal.aborted) throw new ModelError("timeout", `no complete response from ${ctx.host} within ${ctx.timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener("abort", onAbort);
  }
}

async function completeChat(ctx: OpenAIModelContext, req: ChatRequest): Promise<ChatResult> {
  const call: CallProgress = {
    started: performance.now(),
    notes: [],
    attempts: 0,
    retries: 0,
    downgrades: 0,
    attemptLimit: req.maxAttempts !== undefined ? Math.max(1, Math.floor(req.maxAttempts)) : Infinity,
  };
  for (;;) {
    if (req.signal.aborted) throw new ModelError("aborted", "cancelled");
    const body = requestBody(ctx.options, req, ctx.compat);
    call.attempts++;
    try {
      return toChatResult(await sendAttempt(ctx, req, body), ctx.host, call);
    } catch (err) {
      await recoverOrThrow(ctx, req, call, err, body);
    }
  }
}

export function createOpenAIChatModel(options: OpenAIChatModelOptions): ChatModel {
  const host = endpointHostOf(options.baseURL);
  if (!options.model?.trim()) throw new Error("a model name is required (--model or DELIBERATIVE_MODEL)");
  const timeoutMs = options.timeoutMs ?? OPENAI_DEFAULTS.timeoutMs;
  const ctx: OpenAIModelContext = {
    options,
    host,
    timeoutMs,
    maxRetries: Math.max(0, Math.min(5, options.maxRetries ?? OPENAI_DEFAULTS.maxRetries)),
    maxRetryDelayMs: options.maxRetryDelayMs ?? OPENAI_DEFAULTS.maxRetryDelayMs,
    retryBaseMs: options.retryBaseMs ?? OPENAI_DEFAULTS.retryBaseMs,
    secrets: options.apiKey ? [options.apiKey] : [],
    client: createSdkClient(options, timeoutMs, host),
    compat: {
      structured: (options.structuredOutput ?? "auto") !== "off",
      tokensParam: "max_tokens",
      temperature: true,
      seed: options.seed !== undefined,
    },
  };
  return {
    id: options.model,
    endpointHost: host,
    complete: (req: ChatRequest) => completeChat(ctx, req),
  };
}
