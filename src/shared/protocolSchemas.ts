// The zod schemas of the picker protocol (protocol.ts), one per direction: the host validates every message the
// webview posts (a malformed one is logged and ignored), and the webview validates every message the host posts
// (a malformed one is ignored; a reply whose result does not fit its request rejects that request).
//
// zod/mini, with JIT compilation off in the webview (its CSP forbids eval): small enough for the webview bundle.
import * as z from "zod/mini";
import {
  PROTOCOL_VERSION,
  REQUEST_METHODS,
  type HostToWebview,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
  type WebviewToHost,
} from "./protocol";

const Id = z.string().check(z.minLength(1), z.maxLength(64));
const Text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const NoParams = z.strictObject({});
const Notice = z.strictObject({ message: z.string().check(z.maxLength(2000)) });

/** Each request's parameters. */
export const PARAMS_SCHEMAS: { [M in RequestMethod]: z.ZodMiniType<RequestParams<M>> } = {
  openCitation: z.strictObject({ citationId: Text(200) }),
  pick: z.strictObject({ optionId: Text(200), reason: z.optional(z.string().check(z.maxLength(2000))) }),
  copyMarkdown: NoParams,
  openReceiptFile: NoParams,
  exportAdr: NoParams,
};

/** Each request's result. */
export const RESULT_SCHEMAS: { [M in RequestMethod]: z.ZodMiniType<RequestResult<M>> } = {
  openCitation: z.null(),
  pick: Notice,
  copyMarkdown: Notice,
  openReceiptFile: z.null(),
  exportAdr: Notice,
};

const ReadySchema = z.strictObject({ type: z.literal("ready"), protocol: z.literal(PROTOCOL_VERSION) });
const RequestSchemas = REQUEST_METHODS.map((method) =>
  z.strictObject({ type: z.literal("request"), id: Id, method: z.literal(method), params: PARAMS_SCHEMAS[method] }),
);

/** Webview -> host. */
export const WebviewToHostSchema = z.union([ReadySchema, ...RequestSchemas]);

/**
 * Host -> webview. The render model is built by the host from a receipt that zod already validated, so only its
 * envelope is checked here (the full receipt schema does not belong in the webview bundle).
 */
export const HostToWebviewSchema = z.union([
  z.object({ type: z.literal("render"), model: z.looseObject({ receiptId: z.string(), folderUri: z.string(), payload: z.looseObject({}) }) }),
  z.strictObject({ type: z.literal("reply"), id: Id, ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ type: z.literal("reply"), id: Id, ok: z.literal(false), error: z.string() }),
  z.object({
    type: z.literal("changes"),
    changes: z.looseObject({
      receiptId: z.string(),
      since: z.string(),
      recommendation: z.looseObject({ before: z.string(), after: z.string(), changed: z.boolean() }),
      citationsAdded: z.array(z.looseObject({ location: z.string(), source: z.string() })),
      citationsRemoved: z.array(z.looseObject({ location: z.string(), source: z.string() })),
      optionsAdded: z.array(z.string()),
      optionsRemoved: z.array(z.string()),
      optionsRenamed: z.array(z.looseObject({ before: z.string(), after: z.string() })),
      movedBy: z.array(z.string()),
    }),
  }),
]);

function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid message"}`.split("\n")[0]!;
}

/** Parses a webview message; returns a one-line error for the log when it is malformed. */
export function parseWebviewMessage(raw: unknown): { ok: true; message: WebviewToHost } | { ok: false; error: string } {
  const result = WebviewToHostSchema.safeParse(raw);
  return result.success ? { ok: true, message: result.data as WebviewToHost } : { ok: false, error: firstIssue(result.error) };
}

/** Parses a host message in the webview; undefined when it is malformed. */
export function parseHostMessage(raw: unknown): HostToWebview | undefined {
  const result = HostToWebviewSchema.safeParse(raw);
  return result.success ? (result.data as HostToWebview) : undefined;
}

/** A reply's result checked against its request; an error line when it does not fit. */
export function checkResult(method: RequestMethod, result: unknown): string | undefined {
  const parsed = RESULT_SCHEMAS[method].safeParse(result);
  return parsed.success ? undefined : firstIssue(parsed.error);
}
