// A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol (non-streaming), scripted per
// test. The official `openai` SDK talks to it unmodified. Every request is recorded (headers, parsed body, time),
// so tests can count calls, check what was sent, and check the Authorization header.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FusedEvidence, StageStatus } from "../../src/core/schemas";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** ms since the server started. */
  at: number;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as-is. */
  body?: unknown;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export type FakeHandler = (req: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAI {
  baseURL: string;
  host: string;
  requests: RecordedRequest[];
  /** POST /v1/chat/completions requests received. */
  chatCalls(): number;
  close(): Promise<void>;
}

/**
 * Starts the server. `script` is a handler, or a list of replies served in order (the last one repeats).
 * Only POST /v1/chat/completions is answered; anything else gets 404.
 */
export async function startFakeOpenAI(script: FakeHandler | FakeReply[]): Promise<FakeOpenAI> {
  const handler: FakeHandler = Array.isArray(script) ? (_req, i) => script[Math.min(i, script.length - 1)] : script;
  const requests: RecordedRequest[] = [];
  const t0 = performance.now();
  let chat = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep the raw text
      }
      const rec: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, at: performance.now() - t0 };
      requests.push(rec);
      if (req.method !== "POST" || !/\/chat\/completions$/.test(req.url ?? "")) {
        return send(res, { status: 404, body: { error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } } });
      }
      const index = chat++;
      let reply: FakeReply;
      try {
        reply = await handler(rec, index);
      } catch (err) {
        reply = { status: 500, body: { error: { message: `fake server handler threw: ${String(err)}` } } };
      }
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      send(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    host: `127.0.0.1:${port}`,
    requests,
    chatCalls: () => chat,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, reply: FakeReply): void {
  if (res.destroyed || res.writableEnded) return;
  const status = reply.status ?? 200;
  const isString = typeof reply.body === "string";
  const payload = reply.body === undefined ? "" : isString ? (reply.body as string) : JSON.stringify(reply.body);
  res.writeHead(status, { "content-type": isString ? "text/plain" : "application/json", ...(reply.headers ?? {}) });
  res.end(payload);
}

/** A chat.completion object with one choice. */
export function completion(
  content: string,
  opts: { finishReason?: string; usage?: { prompt_tokens: number; completion_tokens: number }; model?: string } = {},
): FakeReply {
  const usage = opts.usage ?? { prompt_tokens: Math.ceil(content.length / 4) + 100, completion_tokens: Math.ceil(content.length / 4) };
  return {
    body: {
      id: `chatcmpl-fake-${Math.random().toString(36).slice(2, 10)}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: opts.model ?? "fake-model",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: opts.finishReason ?? "stop", logprobs: null }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

export function apiError(status: number, message: string, headers: Record<string, string> = {}): FakeReply {
  return { status, headers, body: { error: { message, type: status === 429 ? "rate_limit_error" : "api_error", code: null, param: null } } };
}

/** A base URL on 127.0.0.1 where nothing listens (a port that was just bound and released). */
export async function closedPortURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

/** The request's purpose, from the prompt the planner or synthesizer sent. */
export function purposeOf(req: RecordedRequest): "plan" | "synthesis" | "unknown" {
  const system: string = req.body?.messages?.[0]?.content ?? "";
  if (/You plan a search/.test(system)) return "plan";
  if (/synthesis step of Deliberative Search/.test(system)) return "synthesis";
  return "unknown";
}

/** The evidence ids the synthesis request showed the model (parsed back out of the DATA block). */
export function sentEvidenceIds(req: RecordedRequest): string[] {
  const user: string = req.body?.messages?.[1]?.content ?? "";
  const m = /=== BEGIN EVIDENCE DATA (\w+) ===\n([\s\S]*?)\n=== END EVIDENCE DATA \1 ===/.exec(user);
  if (!m) return [];
  return m[2]
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l).id as string);
}

// ---------------------------------------------------------------------------------------------------------
// Evidence fixtures for synthesizer tests (a logging question: the ADR and AGENTS.md favour pino).

export function ev(partial: Partial<FusedEvidence> & Pick<FusedEvidence, "id" | "path_or_url" | "excerpt">, rank: number): FusedEvidence {
  const kind = partial.kind ?? "internal";
  return {
    kind,
    expert: kind === "internal" ? "docs" : "web",
    source_type: kind === "internal" ? "adr" : "web",
    precision_class: kind === "internal" ? "exact-lines" : "document",
    score: 10 - rank,
    rank,
    fused_score: 1 / (60 + rank),
    experts: [kind === "internal" ? "docs" : "web"],
    ...(kind === "internal" ? { line_range: { start: 1, end: 12 } } : { fetched_at: "2026-01-05T10:00:00.000Z" }),
    ...partial,
  };
}

export const LOGGING_Q = "Should we adopt winston for logging?";

export function loggingEvidence(): FusedEvidence[] {
  return [
    ev(
      {
        id: "ev-adr-pino",
        path_or_url: "docs/decisions/20240312-use-pino-for-logging.md",
        title: "Use pino for structured logging",
        line_range: { start: 1, end: 24 },
        excerpt: 'Chosen option: "pino", because it emits structured JSON with the lowest overhead.\n\n### winston\n* Bad, because it is several times slower than pino on our benchmark.',
        adr: {
          path: "docs/decisions/20240312-use-pino-for-logging.md",
          title: "Use pino for structured logging",
          status: "accepted",
          supersedes: [],
          superseded_by: [],
          considered_options: ["winston", "pino", "console.log"],
          chosen_option: "pino",
          section: "decision",
        },
      },
      1,
    ),
    ev(
      {
        id: "ev-agents-logging",
        path_or_url: "AGENTS.md",
        source_type: "agent-instructions",
        title: "Agent instructions — Logging",
        line_range: { start: 5, end: 8 },
        excerpt: "- Use pino for logging (see docs/decisions/20240312-use-pino-for-logging.md).\n- Never use console.log in src/; do not add winston.",
      },
      2,
    ),
    ev(
      {
        id: "ev-web-winston",
        kind: "external",
        path_or_url: "https://github.com/winstonjs/winston#readme",
        title: "winston README",
        excerpt: "winston is designed to be a simple and universal logging library with support for multiple transports.",
      },
      3,
    ),
  ];
}

export function okStages(): { internal: StageStatus; external: StageStatus } {
  return { internal: { status: "ok", count: 2, ms: 1 }, external: { status: "ok", count: 1, ms: 1 } };
}

/** A valid option-picker answer citing the given ids. */
export function goodPickerJson(ids: { pro: string[]; con: string[]; ext: string[] }): string {
  return JSON.stringify({
    options: [
      {
        id: "opt-keep-pino",
        title: "Keep pino",
        summary: "Stay on pino, which the logging ADR chose for structured JSON output and low overhead. Agent instructions require it.",
        supports: ids.pro,
        dissent: [],
        tradeoffs: ["+ No migration.", "- Fewer transports than winston."],
        cost: "low",
        risk: "low",
      },
      {
        id: "opt-adopt-winston",
        title: "Adopt winston",
        summary: "Switch to winston for its many transports. This reverses an accepted ADR and the agent rules.",
        supports: ids.ext,
        dissent: ids.con,
        tradeoffs: ["+ Many transports.", "- Slower than pino on our benchmark."],
        cost: "high",
        risk: "medium",
      },
    ],
    recommendation: { option_id: "opt-keep-pino", rationale: "The accepted ADR and AGENTS.md both choose pino; winston was considered and rejected as slower.", confidence: "high" },
  });
}
