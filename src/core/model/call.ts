// One model call that must come back as JSON of a known shape: the call, the truncation / JSON / schema checks,
// and the ModelCall record (latency, tokens, classified outcome) the receipt carries. No repair retries: a bad
// answer is a classified failure, not a reason for another call.
import type { z } from "zod";
import { formatZodError, type ModelCall } from "../schemas";
import type { ChatModel, ChatRequest } from "./client";
import { ModelError, asModelError, oneLineScrubbed } from "./errors";

export type JsonCallResult<T> =
  | { ok: true; value: T; call: ModelCall; notes: string[] }
  | { ok: false; error: ModelError; call: ModelCall };

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * The JSON object in a model's text: the whole text, or a fenced ```json block, or the outermost {…}. Reasoning
 * models' <think>…</think> preambles are dropped first. Throws ModelError("invalid-json").
 */
export function extractJson(text: string): unknown {
  let t = text.replace(/^\uFEFF/, "").replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  if (!t) throw new ModelError("invalid-json", "the model returned an empty answer");
  const fence = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(t);
  if (fence) t = fence[1].trim();
  try {
    return JSON.parse(t);
  } catch {
    const start = t.indexOf("{");
    const end = t.lastIndexOf("}");
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(t.slice(start, end + 1));
      } catch {
        // fall through
      }
    }
  }
  const preview = oneLineScrubbed(t, [], 60);
  throw new ModelError("invalid-json", `the model's answer is not a JSON object (it starts: ${JSON.stringify(preview)})`);
}

/** "medium" → "med" and friends, anywhere in the value: the commonest harmless deviation of real models. */
export function normaliseLevels(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseLevels);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if ((k === "cost" || k === "risk" || k === "confidence") && typeof v === "string") {
        const l = v.trim().toLowerCase();
        out[k] = l === "medium" || l === "moderate" || l === "mid" ? "med" : l;
      } else out[k] = normaliseLevels(v);
    }
    return out;
  }
  return value;
}

export async function callForJson<T>(
  model: ChatModel,
  req: ChatRequest,
  schema: z.ZodType<T>,
  purpose: ModelCall["purpose"],
): Promise<JsonCallResult<T>> {
  const started = performance.now();
  const call = (outcome: string, extra: { ms?: number; usage?: { prompt_tokens: number; completion_tokens: number } } = {}): ModelCall => ({
    purpose,
    ms: round1(extra.ms ?? performance.now() - started),
    ...(extra.usage ? { prompt_tokens: extra.usage.prompt_tokens, completion_tokens: extra.usage.completion_tokens } : {}),
    outcome,
  });
  let result;
  try {
    result = await model.complete(req);
  } catch (err) {
    const error = req.signal.aborted ? new ModelError("aborted", "cancelled") : asModelError(err);
    return { ok: false, error, call: call(error.message) };
  }
  const notes = result.notes ?? [];
  const meta = { ms: result.ms, usage: result.usage };
  const fail = (error: ModelError): JsonCallResult<T> => ({ ok: false, error, call: call(error.message, meta) });
  if (result.finishReason === "length") {
    return fail(new ModelError("truncated", `the answer hit the ${req.maxTokens}-token output limit (finish_reason "length") before the JSON was complete`));
  }
  let parsed: unknown;
  try {
    parsed = extractJson(result.text);
  } catch (err) {
    return fail(asModelError(err));
  }
  const checked = schema.safeParse(normaliseLevels(parsed));
  if (!checked.success) return fail(new ModelError("schema-invalid", oneLineScrubbed(formatZodError(checked.error), [], 300)));
  return { ok: true, value: checked.data, call: call(["ok", ...notes].join(" · "), meta), notes };
}
