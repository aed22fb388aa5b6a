// The one message protocol between the extension host and the option-picker webview. Pure data: no vscode and
// no DOM imports, so both sides compile it. Webview -> host messages are validated by the host with zod (a
// malformed message is logged and ignored); host -> webview messages are typed here and built only by the host.
//
// Handshake: the webview posts `ready` once its script has run (and again whenever VS Code recreates the frame,
// e.g. after the tab was hidden); the host answers with `render`. Requests carry a `requestId` and are answered
// by exactly one `response` with the same id.
import { z } from "zod";
import type { OperatorPick, OptionPicker, StageStatus } from "../core/schemas";

/** Bumped on any incompatible change; the webview sends it in `ready`. */
export const PROTOCOL_VERSION = 1;
export type ProtocolVersion = typeof PROTOCOL_VERSION;

// ---------------------------------------------------------------------------------------------------------
// Webview -> host

const RequestId = z.string().min(1).max(64);

export const ReadyMessageSchema = z.object({ type: z.literal("ready"), protocol: z.literal(PROTOCOL_VERSION) }).strict();
export const OpenCitationMessageSchema = z
  .object({ type: z.literal("openCitation"), requestId: RequestId, citationId: z.string().min(1).max(200) })
  .strict();
export const PickMessageSchema = z
  .object({
    type: z.literal("pick"),
    requestId: RequestId,
    optionId: z.string().min(1).max(200),
    /** Present for "Override with reason". */
    reason: z.string().max(2000).optional(),
  })
  .strict();
export const CopyMarkdownMessageSchema = z.object({ type: z.literal("copyMarkdown"), requestId: RequestId }).strict();
export const OpenReceiptFileMessageSchema = z.object({ type: z.literal("openReceiptFile"), requestId: RequestId }).strict();

export const WebviewToHostSchema = z.discriminatedUnion("type", [
  ReadyMessageSchema,
  OpenCitationMessageSchema,
  PickMessageSchema,
  CopyMarkdownMessageSchema,
  OpenReceiptFileMessageSchema,
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;
export type WebviewRequest = Exclude<WebviewToHost, { type: "ready" }>;

// ---------------------------------------------------------------------------------------------------------
// Host -> webview

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
  synthesis: { mode: "rules" | "model"; model?: string; fallbackReason?: string };
  /** The question came from the editor here. */
  context?: { file?: string; line?: number };
  /** True when this turn was answered from the turn cache. */
  cached?: boolean;
  /** Set when the classifier did not call it an open question and the operator deliberated anyway. */
  classMismatch?: boolean;
}

export type HostToWebview =
  | { type: "render"; model: PickerModel }
  | { type: "response"; requestId: string; ok: true; message?: string }
  | { type: "response"; requestId: string; ok: false; error: string };

/** Parses a webview message; returns a one-line error for the log when it is malformed. */
export function parseWebviewMessage(raw: unknown): { ok: true; message: WebviewToHost } | { ok: false; error: string } {
  const result = WebviewToHostSchema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const issue = result.error.issues[0];
  return { ok: false, error: `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid message"}` };
}
