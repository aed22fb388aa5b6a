// The MCP server's stdio transport (the SDK's Transport interface), in place of the SDK's StdioServerTransport:
// - a line longer than the byte cap is skipped and answered with a JSON-RPC error (the SDK's read buffer throws and
//   the server ended), and the next line is read as usual;
// - a line that is not JSON gets -32700 (id null); a request that is not valid JSON-RPC gets -32600, or -32602 when
//   only its params are wrong (e.g. a progress token that is neither a string nor an integer); the SDK only logged;
// - every message is written as JSON whose C1 controls, bidi controls and invisible characters are \u escapes
//   (JSON.stringify escapes only C0): the same values, but no raw byte on stdout that a terminal acts on or that
//   reorders what a person reads, whatever a tool result quotes from the repository;
// - at the end of stdin it does not close at once: the owner's `onInputEnd` finishes or rolls back the work in
//   flight, every request received is answered (stdout is still open: the client closed only its end of stdin),
//   the writes drain, and only then the connection closes. So a record_pick sent just before EOF is answered and
//   leaves no lock file behind.
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { terminalSafeJson } from "../core/sanitize";

/** The SDK's own stdio cap: no MCP message to this server comes near it. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** How long the end of stdin waits for answers in flight (a pick may wait up to 30 s for its receipt's lock). */
const DRAIN_TIMEOUT_MS = 40_000;
/** How much of an oversized line is kept to find its id: the head and the tail. */
const ID_WINDOW = 256;

export interface LineTransportOptions {
  input?: Readable;
  output?: Writable;
  maxLineBytes?: number;
  drainTimeoutMs?: number;
  /** Called once at the end of input, before the connection closes: finish or roll back the work in flight. */
  onInputEnd?: () => Promise<void>;
}

type Id = RequestId | null;

function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

const ID_TOKEN = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
/** `{"id": …` or `{"jsonrpc": "2.0", "id": …` at the start of a line: the outer object's id. */
const ID_AT_HEAD = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_TOKEN}\s*[,}]`);
/** `"id": … }` closing the line: the outer object's last member (the SDK's client writes the id last). */
const ID_AT_TAIL = new RegExp(String.raw`"id"\s*:\s*${ID_TOKEN}\s*\}\s*$`);

/** The id of an oversized request, when its head or tail names it unambiguously; else null. */
export function idOfOversizedLine(head: string, tail: string): Id {
  const found = ID_AT_HEAD.exec(head) ?? ID_AT_TAIL.exec(tail);
  if (!found) return null;
  try {
    const id: unknown = JSON.parse(found[1]);
    return isId(id) ? id : null;
  } catch {
    return null;
  }
}

/** The first problem of a failed parse as `path: message` (a bad progress token named as such). */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const at = issue?.path.join(".") ?? "";
  if (at.endsWith("progressToken")) return `${at} must be a string or an integer`;
  return at ? `${at}: ${issue.message}` : (issue?.message ?? "invalid");
}

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly maxLineBytes: number;
  private readonly drainTimeoutMs: number;
  private pieces: Buffer[] = [];
  private size = 0;
  /** Set while the rest of an oversized line is being skipped: its first and (so far) last bytes. */
  private oversized: { head: Buffer; tail: Buffer } | undefined;
  /** Requests received and not yet answered (nor cancelled by the client). */
  private readonly unanswered = new Set<RequestId>();
  private readonly writes = new Set<Promise<void>>();
  private ending: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: LineTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.drainTimeoutMs = options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS;
  }

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("error", this.onInputError);
    this.input.once("end", this.onEnd);
    this.input.once("close", this.onEnd);
    // A client that closed its end of stdout: writes fail (EPIPE) and are dropped, never an uncaught error.
    this.output.on("error", this.onOutputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ("id" in message && ("result" in message || "error" in message) && isId(message.id)) this.unanswered.delete(message.id);
    if (this.closed || this.output.destroyed || !this.output.writable) return Promise.resolve();
    const write = new Promise<void>((done) => {
      const flushed = this.output.write(terminalSafeJson(JSON.stringify(message)) + "\n", () => done());
      if (!flushed) this.output.once("drain", () => done());
    }).finally(() => this.writes.delete(write));
    this.writes.add(write);
    return write;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("error", this.onInputError);
    this.input.off("end", this.onEnd);
    this.input.off("close", this.onEnd);
    this.input.pause();
    this.pieces = [];
    this.oversized = undefined;
    this.onclose?.();
  }

  private readonly onInputError = (err: Error) => this.onerror?.(err);
  private readonly onOutputError = (err: Error) => this.onerror?.(new Error(`stdout: ${err.message}`));

  private readonly onData = (chunk: Buffer) => {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl;
      this.take(chunk.subarray(from, end));
      if (nl === -1) return;
      this.endLine();
      from = nl + 1;
    }
  };

  /** Part of the current line: kept while under the cap; past it, only its head and tail are kept. */
  private take(piece: Buffer): void {
    if (!piece.length) return;
    if (this.oversized) {
      this.oversized.tail = Buffer.concat([this.oversized.tail, piece]).subarray(-ID_WINDOW);
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.pieces.push(piece);
      this.size += piece.length;
      return;
    }
    const line = Buffer.concat([...this.pieces, piece]);
    this.oversized = { head: line.subarray(0, ID_WINDOW), tail: line.subarray(-ID_WINDOW) };
    this.pieces = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.oversized) {
      const { head, tail } = this.oversized;
      this.oversized = undefined;
      const id = idOfOversizedLine(head.toString("utf8"), tail.toString("utf8"));
      this.refuse(id, ErrorCode.InvalidRequest, `message too large: a line is limited to ${this.maxLineBytes} bytes; it was skipped`);
      return;
    }
    const line = Buffer.concat(this.pieces).toString("utf8").replace(/\r$/, "");
    this.pieces = [];
    this.size = 0;
    if (line.trim()) this.handleLine(line);
  }

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.refuse(null, ErrorCode.ParseError, `Parse error: the line is not valid JSON (${(err as Error).message.slice(0, 200)})`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.dispatch(parsed.data);
      return;
    }
    const obj = (typeof value === "object" && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
    const hasMethod = typeof obj.method === "string";
    if (Array.isArray(value)) return this.refuse(null, ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported");
    if (hasMethod && isId(obj.id)) {
      const request = JSONRPCRequestSchema.safeParse(value);
      const problem = request.success ? "not a valid request" : describeIssue(request.error);
      const inParams = !request.success && request.error.issues.every((i) => i.path[0] === "params");
      return inParams
        ? this.refuse(obj.id, ErrorCode.InvalidParams, `Invalid params: ${problem}`)
        : this.refuse(obj.id, ErrorCode.InvalidRequest, `Invalid Request: ${problem}`);
    }
    if (hasMethod && obj.id === undefined) {
      // A notification is never answered, even when malformed: it is logged.
      const notification = JSONRPCNotificationSchema.safeParse(value);
      this.onerror?.(new Error(`invalid notification ${String(obj.method).slice(0, 100)}: ${notification.success ? "not valid JSON-RPC" : describeIssue(notification.error)}`));
      return;
    }
    if (!hasMethod && ("result" in obj || "error" in obj)) {
      this.onerror?.(new Error("invalid JSON-RPC response from the client: skipped"));
      return;
    }
    this.refuse(isId(obj.id) ? obj.id : null, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
  }

  private dispatch(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) this.unanswered.add(message.id);
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      // A cancelled request is never answered (the SDK drops its result): nothing to wait for.
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (isId(requestId)) this.unanswered.delete(requestId);
    }
    this.onmessage?.(message);
  }

  /** An error answer the SDK never sees (the line did not reach it), and the same line in the log. */
  private refuse(id: Id, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  /** End of stdin: let the work in flight finish (or roll back), answer it, drain, then close. */
  private readonly onEnd = () => {
    this.ending ??= (async () => {
      // A last line without its newline still counts.
      if (this.pieces.length || this.oversized) this.endLine();
      try {
        await this.options.onInputEnd?.();
      } catch (err) {
        this.onerror?.(err as Error);
      }
      const until = Date.now() + this.drainTimeoutMs;
      while (this.unanswered.size && Date.now() < until) await new Promise((done) => setTimeout(done, 20));
      if (this.unanswered.size) this.onerror?.(new Error(`closing with ${this.unanswered.size} request(s) unanswered after ${this.drainTimeoutMs} ms`));
      await Promise.allSettled([...this.writes]);
      await this.close();
    })();
  };
}
