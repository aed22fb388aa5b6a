// The egress preview: exactly what a deliberation would send to the model endpoint, computed with the same
// functions that build the real prompts. Used by the CLI's `--dry-run` and the extension's once-per-workspace
// consent prompt.
import type { FusedEvidence } from "../schemas";
import { DEFAULT_EVIDENCE_TOKEN_BUDGET, approxTokens, buildPlanPrompt, buildSynthesisPrompt, locationOf } from "./prompt";
import { CRITIC_SYSTEM_PROMPT } from "../critic/model";

export interface EgressRequest {
  question: string;
  /** The fused evidence the synthesis call would read (from an offline retrieval run). */
  evidence: FusedEvidence[];
  model: { id: string; endpointHost?: string };
  keepInternalLocal?: boolean;
  /** Editor context that the plan call would send (never sent with keepInternalLocal). */
  context?: string;
  /** Where the context came from, for the summary ("src/app.ts:40"). */
  contextLabel?: string;
  /** Whether the plan call is made (default true). */
  plan?: boolean;
  evidenceTokenBudget?: number;
  /** The rule-based candidate options whose titles are shown to the model (not shown with keepInternalLocal). */
  candidates?: { id: string; title: string }[];
  /**
   * Who authorises the request: an API key in the Authorization header (default), or the editor's language-model
   * provider (vscode.lm), which makes the request itself with no key of ours.
   */
  auth?: "api-key" | "editor";
  /** The model Critic is on (deliberativeSearch.model.critic, --critic, MCP critic: true): one more call. */
  critic?: boolean;
}

const AUTH_NOTE: Record<NonNullable<EgressRequest["auth"]>, string> = {
  "api-key": "The API key travels only in the Authorization header; it is never written to receipts or logs.",
  editor: "No API key is involved: VS Code's language model provider makes the request (it may ask you to allow access).",
};

export interface EgressSummary {
  host: string;
  model: string;
  plan?: { approxTokens: number; contextSent: boolean };
  /** The model Critic's call, when it is on (and a revision call may follow on a blocking objection). */
  critic?: { approxTokens: number };
  synthesis: {
    approxTokens: number;
    internal: { id: string; where: string; truncated: boolean }[];
    external: { id: string; url: string; truncated: boolean }[];
    candidateTitles: string[];
    withheldInternal: number;
    omittedForBudget: number;
  };
  approxTokens: number;
  /** Multi-line, human-readable. */
  text: string;
}

/** The model Critic's call (and the revision it may bring), or why it would not be made. */
function criticLines(tokens: number | undefined, call: number, planned: boolean): string[] {
  if (tokens === undefined) return ["The model Critic is on but would not be called (keepInternalLocal keeps the draft local, or no evidence would be sent); the rules Critic runs."];
  return [
    `Call ${call}, critic (the model Critic is on): the question, the drafted options and recommendation, and the same evidence record(s); ≈${tokens} tokens.`,
    `  On a blocking objection, one revision call (the synthesis again, with the objections) when the 3-call budget allows it${planned ? " — not with the plan call on" : ""}.`,
  ];
}

export function describeEgress(req: EgressRequest): EgressSummary {
  const host = req.model.endpointHost ?? "(the editor's language model provider)";
  const doPlan = req.plan !== false;
  const planPrompt = doPlan ? buildPlanPrompt({ question: req.question, context: req.context, keepInternalLocal: req.keepInternalLocal }) : undefined;
  const synth = buildSynthesisPrompt({
    question: req.question,
    evidence: req.evidence,
    candidates: req.candidates ?? [],
    tokenBudget: req.evidenceTokenBudget ?? DEFAULT_EVIDENCE_TOKEN_BUDGET,
    keepInternalLocal: req.keepInternalLocal,
  });
  const truncated = new Set(synth.selection.truncated);
  const internal = synth.selection.sent
    .filter((e) => e.kind === "internal")
    .map((e) => ({ id: e.id, where: locationOf(e), truncated: truncated.has(e.id) }));
  const external = synth.selection.sent
    .filter((e) => e.kind === "external")
    .map((e) => ({ id: e.id, url: e.path_or_url, truncated: truncated.has(e.id) }));
  const planTokens = planPrompt ? approxTokens(planPrompt.system + planPrompt.user) : 0;
  const noModelCall = synth.selection.sent.length === 0;
  const synthTokens = noModelCall ? 0 : approxTokens(synth.system + synth.user);
  // The critic is shown the drafted options and the same records (internal ones never with keepInternalLocal).
  const criticCall = req.critic && !req.keepInternalLocal && !noModelCall;
  const criticTokens = criticCall ? approxTokens(CRITIC_SYSTEM_PROMPT) + approxTokens(synth.selection.block) + 300 : 0;
  const total = planTokens + synthTokens + criticTokens;

  const lines: string[] = [];
  lines.push(`Model egress preview (nothing has been sent): endpoint ${host}, model ${req.model.id}.`);
  if (planPrompt) {
    const ctx = planPrompt.contextSent
      ? ` and the editor context${req.contextLabel ? ` around ${req.contextLabel}` : ""} (${req.context!.split("\n").length} lines)`
      : req.context?.trim() && req.keepInternalLocal
        ? " (the editor context is kept local)"
        : "";
    lines.push(`Call 1, plan: the question${ctx}; ≈${planTokens} tokens.`);
  }
  const n = planPrompt ? 2 : 1;
  if (noModelCall) {
    lines.push(`Call ${n}, synthesis: not made — no evidence would be sent${synth.selection.withheldInternal.length ? ` (${synth.selection.withheldInternal.length} internal record(s) kept local, no external evidence)` : ""}; the rules synthesizer answers.`);
  } else {
    lines.push(`Call ${n}, synthesis: the question and ${synth.selection.sent.length} evidence record(s) (id, kind, location, excerpt); ≈${synthTokens} tokens.`);
    if (internal.length) {
      lines.push(`  Internal snippets (${internal.length}):`);
      for (const i of internal) lines.push(`    ${i.where}${i.truncated ? " (excerpt cut)" : ""}`);
    } else {
      lines.push("  Internal snippets: none.");
    }
    if (external.length) {
      lines.push(`  External sources (${external.length}):`);
      for (const e of external) lines.push(`    ${e.url}`);
    }
    if (synth.candidates.length) lines.push(`  Candidate option titles: ${synth.candidates.map((c) => JSON.stringify(c.title)).join(", ")}.`);
    else if (!req.keepInternalLocal && !req.candidates) lines.push("  Plus the titles of the rule-based candidate options (up to 5, derived from the evidence above).");
  }
  if (req.keepInternalLocal && synth.selection.withheldInternal.length) {
    lines.push(`  Kept local (keepInternalLocal): ${synth.selection.withheldInternal.length} internal record(s) and the candidate options derived from them.`);
  }
  if (synth.selection.omittedForBudget.length) {
    lines.push(`  Not sent (over the ${req.evidenceTokenBudget ?? DEFAULT_EVIDENCE_TOKEN_BUDGET}-token evidence budget): ${synth.selection.omittedForBudget.length} lower-ranked record(s).`);
  }
  if (req.critic) lines.push(...criticLines(criticCall ? criticTokens : undefined, n + 1, !!planPrompt));
  lines.push(`Total ≈${total} tokens to ${host}. ${AUTH_NOTE[req.auth ?? "api-key"]}`);
  if (planPrompt) lines.push("Note: the plan's keywords can change which evidence is retrieved, so the synthesis records of a real run may differ from this preview.");

  return {
    host,
    model: req.model.id,
    ...(planPrompt ? { plan: { approxTokens: planTokens, contextSent: planPrompt.contextSent } } : {}),
    ...(criticCall ? { critic: { approxTokens: criticTokens } } : {}),
    synthesis: {
      approxTokens: synthTokens,
      internal,
      external,
      candidateTitles: synth.candidates.map((c) => c.title),
      withheldInternal: synth.selection.withheldInternal.length,
      omittedForBudget: synth.selection.omittedForBudget.length,
    },
    approxTokens: total,
    text: lines.join("\n"),
  };
}
