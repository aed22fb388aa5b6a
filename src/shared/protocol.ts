// The one message protocol between the extension host and the option-picker webview. Zod-free and DOM-free, so
// both sides compile it and the webview bundles it; the zod schemas that validate each direction are in
// protocolSchemas.ts.
//
// Handshake: the webview posts `ready` once its script has run (and again whenever VS Code recreates the frame,
// e.g. after the tab was hidden); the host answers with `render`.
//
// Requests: each is a typed [params, result] pair in `PickerRequests`. The webview sends `{type: "request", id,
// method, params}`; the host answers with exactly one `{type: "reply", id, ok, result | error}`. The webview's
// `PendingRequests` gives every request a timeout, so a lost reply rejects with a clear one-line error instead of
// leaving a button pending forever.
import type { Fallback, OperatorPick, OptionPicker, StageStatus } from "../core/schemas";
import { oneLine } from "../core/text";

/** Bumped on any incompatible change; the webview sends it in `ready`. */
export const PROTOCOL_VERSION = 2;
export type ProtocolVersion = typeof PROTOCOL_VERSION;

/** How long the webview waits for a reply before it gives up on a request. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A line the webview shows once a request succeeded. */
export interface Notice {
  message: string;
}

/** No parameters. */
export type NoParams = Record<string, never>;

/** Every request the picker makes of the host, as [params, result]. */
export interface PickerRequests {
  openCitation: [params: { citationId: string }, result: null];
  pick: [params: { optionId: string; /** Present for "Override with reason". */ reason?: string }, result: Notice];
  copyMarkdown: [params: NoParams, result: Notice];
  openReceiptFile: [params: NoParams, result: null];
  /** Starts "Export as ADR…" (its preview and questions run in the editor); answers once it has started. */
  exportAdr: [params: NoParams, result: Notice];
}

export type RequestMethod = keyof PickerRequests;
export type RequestParams<M extends RequestMethod> = PickerRequests[M][0];
export type RequestResult<M extends RequestMethod> = PickerRequests[M][1];

export const REQUEST_METHODS = ["openCitation", "pick", "copyMarkdown", "openReceiptFile", "exportAdr"] as const satisfies readonly RequestMethod[];

/** What each request is called in an error line. */
const REQUEST_LABELS: Record<RequestMethod, string> = {
  openCitation: "opening the citation",
  pick: "recording the pick",
  copyMarkdown: "copying as Markdown",
  openReceiptFile: "opening the receipt file",
  exportAdr: "exporting as an ADR",
};

// ---------------------------------------------------------------------------------------------------------
// Messages

export interface ReadyMessage {
  type: "ready";
  protocol: ProtocolVersion;
}

export type RequestMessage = { [M in RequestMethod]: { type: "request"; id: string; method: M; params: RequestParams<M> } }[RequestMethod];

export type WebviewToHost = ReadyMessage | RequestMessage;

export type SignatureState = "valid" | "invalid";

/** Everything the picker renders; derived from a receipt by the host. */
export interface PickerModel {
  receiptId: string;
  /** Workspace-relative path of the receipt file, for display. */
  receiptPath: string;
  folderName: string;
  /** The workspace folder's URI (kept in the webview state so VS Code can restore the panel after a reload). */
  folderUri: string;
  createdAt: string;
  payload: OptionPicker;
  stages: Record<string, StageStatus>;
  operatorPick: OperatorPick | null;
  signature: { state: SignatureState; keyId: string; reason?: string };
  synthesis: { mode: "rules" | "model"; model?: string };
  /** Why a model step fell back to the rules path (read with core's fallbackOf, old receipts included). */
  fallbacks: { plan?: Fallback; synthesis?: Fallback };
  /** The question came from the editor here. */
  context?: { file?: string; line?: number };
  /** True when this turn was answered from the turn cache. */
  cached?: boolean;
  /** Set when the classifier did not call it an open question and the operator deliberated anyway. */
  classMismatch?: boolean;
}

export interface RenderMessage {
  type: "render";
  model: PickerModel;
}

export type ReplyMessage = { type: "reply"; id: string; ok: true; result: unknown } | { type: "reply"; id: string; ok: false; error: string };

/** A citation that came or went between two deliberations of one question. */
export interface ChangedCitation {
  location: string;
  title?: string;
  /** The stage whose evidence it was ("ADRs and docs", "Git history", …). */
  source: string;
}

/** The picker's "What changed since <date>" panel: this receipt against the latest earlier one of the same question. */
export interface ChangesModel {
  /** The receipt the panel belongs to (a panel for another receipt is ignored). */
  receiptId: string;
  earlierReceiptId: string;
  /** When the earlier receipt was made. */
  since: string;
  recommendation: { before: string; after: string; changed: boolean; confidenceBefore: string; confidenceAfter: string };
  citationsAdded: ChangedCitation[];
  citationsRemoved: ChangedCitation[];
  optionsAdded: string[];
  optionsRemoved: string[];
  optionsRenamed: { before: string; after: string }[];
  /** One line per stage whose evidence moved the recommendation, or why nothing in the evidence did. */
  movedBy: string[];
}

export interface ChangesMessage {
  type: "changes";
  changes: ChangesModel;
}

export type HostToWebview = RenderMessage | ReplyMessage | ChangesMessage;

// ---------------------------------------------------------------------------------------------------------
// The host: one handler per request, and the reply for a request.

export type RequestHandlers = { [M in RequestMethod]: (params: RequestParams<M>) => Promise<RequestResult<M>> };

/** Runs the request's handler; a handler that throws becomes an `ok: false` reply with the error's first line. */
export async function answer(handlers: RequestHandlers, message: RequestMessage, onError?: (err: unknown) => void): Promise<ReplyMessage> {
  const handler = handlers[message.method] as (params: unknown) => Promise<unknown>;
  try {
    return { type: "reply", id: message.id, ok: true, result: await handler(message.params) };
  } catch (err) {
    onError?.(err);
    return { type: "reply", id: message.id, ok: false, error: oneLine(err) || "failed" };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The webview: requests in flight, each settled by its reply, its timeout, or a post that failed.

export type RequestFailure = "timeout" | "host-error" | "invalid-reply" | "unsent";

/** Why a request did not succeed; `message` is one line for the user. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly failure: RequestFailure,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

export interface RequestTransport {
  post(message: RequestMessage): void;
  /** Checks a successful reply's result against its method; an error line when it does not fit. */
  checkResult?(method: RequestMethod, result: unknown): string | undefined;
  /** Timers (the test passes fakes). */
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(handle: unknown): void;
}

interface Pending {
  method: RequestMethod;
  resolve(result: unknown): void;
  reject(err: RequestError): void;
  timer: unknown;
}

export class PendingRequests {
  private next = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(
    private readonly transport: RequestTransport,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {
    this.setTimer = transport.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = transport.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** How many requests await their reply. */
  get size(): number {
    return this.pending.size;
  }

  /** Sends a request; resolves with its result, or rejects with a RequestError (never hangs past the timeout). */
  send<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const id = `r${++this.next}`;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      const timer = this.setTimer(() => {
        this.pending.delete(id);
        reject(new RequestError(`No answer from the editor after ${Math.round(this.timeoutMs / 1000)} s while ${REQUEST_LABELS[method]}. Try again.`, "timeout"));
      }, this.timeoutMs);
      this.pending.set(id, { method, resolve: resolve as (r: unknown) => void, reject, timer });
      try {
        this.transport.post({ type: "request", id, method, params } as RequestMessage);
      } catch (err) {
        this.finish(id);
        reject(new RequestError(`Could not reach the editor while ${REQUEST_LABELS[method]}: ${err instanceof Error ? err.message : String(err)}`, "unsent"));
      }
    });
  }

  /** Settles the request a reply answers. False for an id that is not pending (e.g. a reply after its timeout). */
  settle(reply: ReplyMessage): boolean {
    const p = this.finish(reply.id);
    if (!p) return false;
    if (!reply.ok) {
      p.reject(new RequestError(reply.error, "host-error"));
      return true;
    }
    const problem = this.transport.checkResult?.(p.method, reply.result);
    if (problem) p.reject(new RequestError(`The editor's answer to ${REQUEST_LABELS[p.method]} was malformed (${problem}).`, "invalid-reply"));
    else p.resolve(reply.result);
    return true;
  }

  private finish(id: string): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    this.clearTimer(p.timer);
    return p;
  }
}
