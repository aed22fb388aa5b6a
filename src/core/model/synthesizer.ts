// Model-mediated synthesis behind the Synthesizer interface, faithful by construction:
//  - the model sees the evidence as numbered, quoted, token-budgeted DATA records and may cite only their ids;
//  - an id it was not given is taken off the option, the option drops to low confidence, and the bad reference
//    stays visible as a `resolution_failed` citation — never silently dropped or replaced;
//  - citations are rebuilt from the real evidence records and coverage from the real evidence, never the model's text;
//  - the candidate options are shown in rotated order (position-bias control) and the rotation is recorded;
//  - a recommendation against the in-force record the rules path follows is flagged, capped at med (dissent.ts);
//  - anything unusable (transport failure, truncated / invalid / schema-invalid JSON, no option with a valid
//    citation) gives the rules synthesizer's payload with a classified fallback. One model call at most.
import { OptionPickerSchema, UNDECIDABLE, formatZodError, type Citation, type DraftPicker, type Fallback, type Level, type ModelCall, type Objection, type Option } from "../schemas";
import { createRulesSynthesizer, deviationIn, toCitation } from "../synth/rules";
import type { SynthesisInput, SynthesisOutput, Synthesizer } from "../types";
import { callForJson } from "./call";
import { checkModelDissent } from "./dissent";
import type { ChatModel } from "./client";
import { ModelError, abortError } from "./errors";
import { DEFAULT_EVIDENCE_TOKEN_BUDGET, MODEL_PICKER_JSON_SCHEMA, ModelPickerSchema, buildSynthesisPrompt, type ModelPicker, type SynthesisPrompt } from "./prompt";

export interface ModelSynthesizerOptions {
  /** Approximate tokens of evidence sent (≈4 chars/token). Default 6000. */
  evidenceTokenBudget?: number;
  /** Rotation offset for the candidate options; default derived from the question hash (deterministic). */
  rotate?: number;
  /**
   * Internal evidence never leaves the machine: internal records (paths, lines, excerpts) and the rule-based
   * candidate options (derived from them) are not sent — only the question and external evidence. The model can
   * then cite only external records; with no external evidence the model is not called at all and the rules
   * payload is used (fallback "no-evidence: …").
   */
  keepInternalLocal?: boolean;
  /** Output token limit for the synthesis call. Default 2500. */
  maxTokens?: number;
  /** The floor and fallback. Default: the rules synthesizer. */
  fallback?: Synthesizer;
}

const LIMITS = { title: 120, summary: 1200, tradeoff: 300, tradeoffs: 8, rationale: 1500, unknownId: 120 };

function cap(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

interface UnknownRef {
  id: string;
  uses: { option: string; field: "supports" | "dissent" }[];
  /** The id exists in the fused evidence but was not among the records sent (withheld or over budget). */
  notSent: boolean;
}

export type BuildResult = { ok: true; draft: DraftPicker; unknown: number; symmetric: boolean } | { ok: false; error: ModelError };

/** The option ids must be unique, non-empty and not the reserved one; the recommendation must name one of them. */
function checkOptionIds(answer: ModelPicker): ModelError | undefined {
  const optionIds = new Set<string>();
  for (const o of answer.options) {
    const id = o.id.trim();
    if (!id) return new ModelError("schema-invalid", "an option has an empty id");
    if (id === UNDECIDABLE) return new ModelError("schema-invalid", `an option uses the reserved id "${UNDECIDABLE}"`);
    if (optionIds.has(id)) return new ModelError("schema-invalid", `duplicate option id "${cap(id, 60)}"`);
    optionIds.add(id);
  }
  const recId = answer.recommendation.option_id.trim();
  if (recId !== UNDECIDABLE && !optionIds.has(recId)) {
    return new ModelError("schema-invalid", `the recommendation names "${cap(recId, 60)}", which is neither an option id nor "${UNDECIDABLE}"`);
  }
  return undefined;
}

/** Sorts the model's references into those it was given (kept) and the rest (remembered, to be flagged). */
class CitationSorter {
  readonly unknown = new Map<string, UnknownRef>();
  readonly cited = new Set<string>();

  constructor(
    private readonly sent: ReadonlyMap<string, unknown>,
    private readonly allIds: ReadonlySet<string>,
  ) {}

  /** The references of one option's field that resolve; `hadUnknown` says whether any did not. */
  keep(option: string, field: "supports" | "dissent", refs: string[]): { kept: string[]; hadUnknown: boolean } {
    const kept: string[] = [];
    let hadUnknown = false;
    for (const raw of refs) {
      const ref = raw.trim();
      if (this.sent.has(ref)) {
        if (!kept.includes(ref)) kept.push(ref);
        this.cited.add(ref);
        continue;
      }
      hadUnknown = true;
      const key = cap(ref || "(empty id)", LIMITS.unknownId);
      const entry = this.unknown.get(key) ?? { id: key, uses: [], notSent: this.allIds.has(ref) };
      if (!entry.uses.some((u) => u.option === option && u.field === field)) entry.uses.push({ option, field });
      this.unknown.set(key, entry);
    }
    return { kept, hadUnknown };
  }
}

function toOption(o: ModelPicker["options"][number], sorter: CitationSorter): Option {
  const id = o.id.trim();
  const supports = sorter.keep(id, "supports", o.supports);
  const dissent = sorter.keep(id, "dissent", o.dissent);
  const tradeoffs = o.tradeoffs.map((t) => cap(t, LIMITS.tradeoff)).filter(Boolean).slice(0, LIMITS.tradeoffs);
  const unsupported = supports.kept.length === 0 && dissent.kept.length === 0;
  return {
    id,
    title: cap(o.title, LIMITS.title),
    summary: cap(o.summary, LIMITS.summary),
    supports: supports.kept,
    dissent: dissent.kept,
    tradeoffs,
    cost: o.cost,
    risk: o.risk,
    ...(supports.hadUnknown || dissent.hadUnknown || unsupported ? { confidence: "low" as const } : {}),
  };
}

/** Why no option is usable: every reference was unknown, or there were none at all. */
function noValidCitationError(unknown: Map<string, UnknownRef>, sentCount: number): ModelError {
  if (unknown.size) {
    const ids = [...unknown.keys()].slice(0, 4).map((k) => JSON.stringify(cap(k, 40))).join(", ");
    return new ModelError("unknown-citations", `every citation named an id that was not among the ${sentCount} evidence record(s) given (${ids}${unknown.size > 4 ? ", …" : ""}); no option kept a valid citation`);
  }
  return new ModelError("uncited", `no option cites any of the ${sentCount} evidence record(s) given`);
}

/** A reference that did not resolve stays visible as a flagged citation, never silently dropped. */
function unresolvedCitation(u: UnknownRef): Citation {
  const where = u.uses.map((x) => `option "${cap(x.option, 60)}" (${x.field})`).join(", ");
  return {
    id: u.id,
    kind: "internal",
    path_or_url: "(unknown evidence id)",
    precision_class: "document",
    excerpt: u.notSent
      ? `The model cited "${u.id}" for ${where}, but that record was not among the evidence it was given (withheld or over the token budget); the reference was taken off the option.`
      : `The model cited "${u.id}" for ${where}, but no evidence record has that id; the reference was taken off the option.`,
    resolution_failed: true,
  };
}

/** The model's recommendation, its confidence capped where the evidence does not carry it, and notes saying why. */
function recommendationFor(
  answer: ModelPicker,
  options: Option[],
  stages: SynthesisInput["stages"],
): DraftPicker["recommendation"] {
  const recId = answer.recommendation.option_id.trim();
  let confidence: Level = answer.recommendation.confidence;
  const notes: string[] = [];
  const recommended = options.find((o) => o.id === recId);
  if (recommended?.confidence === "low" && confidence !== "low") {
    confidence = "low";
    notes.push("Confidence is capped at low: the recommended option lost a citation that did not resolve, or cites no evidence.");
  }
  if (stages.internal.status !== "ok") {
    if (confidence !== "low") notes.push(`No internal convention was found (${stages.internal.reason ?? "internal stage empty"}), so confidence is capped at low.`);
    confidence = "low";
  }
  if (stages.external.status !== "ok") notes.push("No external best practice was found; this is stack-native reasoning from the repository's own evidence.");
  const rationale = [cap(answer.recommendation.rationale, LIMITS.rationale), ...notes].filter(Boolean).join(" ");
  return { option_id: recId, rationale, confidence };
}

/** Turns the model's validated answer into a DraftPicker that only cites what the model was given. */
export function buildModelDraft(
  answer: ModelPicker,
  input: Pick<SynthesisInput, "question" | "evidence" | "stages">,
  prompt: Pick<SynthesisPrompt, "selection">,
  coverage: DraftPicker["coverage"],
): BuildResult {
  const badIds = checkOptionIds(answer);
  if (badIds) return { ok: false, error: badIds };

  const sent = new Map(prompt.selection.sent.map((e) => [e.id, e] as const));
  const sorter = new CitationSorter(sent, new Set(input.evidence.map((e) => e.id)));
  const options = answer.options.map((o) => toOption(o, sorter));
  if (!options.some((o) => o.supports.length + o.dissent.length > 0)) {
    return { ok: false, error: noValidCitationError(sorter.unknown, sent.size) };
  }

  // Citations come from the evidence records themselves, in rank order; the failed references follow, flagged.
  const citations: Citation[] = input.evidence.filter((e) => sorter.cited.has(e.id)).map(toCitation);
  for (const u of sorter.unknown.values()) citations.push(unresolvedCitation(u));

  const recommendation = recommendationFor(answer, options, input.stages);
  const draft: DraftPicker = { question: input.question, class: "open-question", options, recommendation, citations, coverage };
  // The full contract (cross-field rules included) is checked here, so a draft that leaves is one the pipeline binds.
  const checked = OptionPickerSchema.safeParse({ ...draft, evidence_ref: "pending", receipt_ref: "pending" });
  if (!checked.success) return { ok: false, error: new ModelError("schema-invalid", formatZodError(checked.error)) };
  return { ok: true, draft, unknown: sorter.unknown.size, symmetric: recommendation.option_id === UNDECIDABLE };
}

export function createModelSynthesizer(model: ChatModel, opts: ModelSynthesizerOptions = {}): Synthesizer {
  const fallback = opts.fallback ?? createRulesSynthesizer();
  const base = { model: model.id, ...(model.endpointHost ? { endpoint_host: model.endpointHost } : {}) };
  return {
    name: `model:${model.id}${model.endpointHost ? `@${model.endpointHost}` : ""}${opts.keepInternalLocal ? "+keep-internal-local" : ""}`,
    id: model.id,
    synthesize: (input: SynthesisInput) => run(input),
    revise: (input: SynthesisInput, objections: Objection[]) => run(input, objections),
  };

  /** One synthesis call; with objections, the revision round (the objections follow the evidence in the prompt). */
  async function run(input: SynthesisInput, objections?: Objection[]): Promise<SynthesisOutput> {
    // The rules payload is computed first: it is the floor, and its options are the model's candidates.
    const rules = await fallback.synthesize(input);
    const fallbackTo = (fallback: Fallback, calls: ModelCall[]): SynthesisOutput => ({
      draft: rules.draft,
      info: { ...rules.info, mode: "rules", ...base, fallback, ...(calls.length ? { calls } : {}) },
    });
    if (input.signal.aborted) throw abortError(input.signal);

    const prompt = buildSynthesisPrompt({
      question: input.question,
      evidence: input.evidence,
      stages: input.stages,
      candidates: rules.draft.options,
      tokenBudget: opts.evidenceTokenBudget ?? DEFAULT_EVIDENCE_TOKEN_BUDGET,
      keepInternalLocal: opts.keepInternalLocal,
      rotate: opts.rotate,
    });
    if (prompt.selection.sent.length === 0) {
      const why = input.evidence.length === 0
        ? "there is no evidence to cite"
        : prompt.selection.withheldInternal.length
          ? `keepInternalLocal withholds all ${prompt.selection.withheldInternal.length} internal record(s) and there is no external evidence`
          : "no evidence record fits the token budget";
      return fallbackTo({ kind: "no-evidence", detail: `${why}, so the model was not called` }, []);
    }

    const user = objections?.length ? `${prompt.user}\n\n${revisionNote(objections)}` : prompt.user;
    const res = await callForJson(
      model,
      { system: prompt.system, user, jsonSchema: MODEL_PICKER_JSON_SCHEMA, maxTokens: opts.maxTokens ?? 2500, signal: input.signal },
      ModelPickerSchema,
      objections?.length ? "revision" : "synthesis",
    );
    if (!res.ok) {
      if (res.error.kind === "aborted") throw abortError(input.signal);
      return fallbackTo({ kind: res.error.kind, detail: res.error.detail }, res.error.extra.notCalled ? [] : [res.call]);
    }
    const built = buildModelDraft(res.value, input, prompt, rules.draft.coverage);
    if (!built.ok) {
      res.call.outcome = built.error.message;
      return fallbackTo({ kind: built.error.kind, detail: built.error.detail }, [res.call]);
    }
    const rotation = prompt.rotation.of ? `candidates rotated by ${prompt.rotation.offset} of ${prompt.rotation.of}` : "no candidates shown";
    const sentNote = `${prompt.selection.sent.length} record(s) sent${prompt.selection.omittedForBudget.length ? `, ${prompt.selection.omittedForBudget.length} over budget` : ""}${prompt.selection.withheldInternal.length ? `, ${prompt.selection.withheldInternal.length} internal withheld` : ""}`;
    res.call.outcome = [res.call.outcome, rotation, sentNote, ...(built.unknown ? [`${built.unknown} unknown citation id(s) flagged resolution_failed`] : [])].join(" · ");
    // The rules verdict referees: a recommendation against the record that decided the question is flagged.
    const checked = checkModelDissent(built.draft, rules.draft, input.evidence);
    // A local record that deviates from a decision source's record: the answer says so on the model path too.
    const deviation = deviationIn(rules.draft.recommendation.rationale);
    const draft = deviation && !checked.recommendation.rationale.includes(deviation)
      ? { ...checked, recommendation: { ...checked.recommendation, rationale: `${checked.recommendation.rationale} ${deviation}`.trim() } }
      : checked;
    if (draft.model_dissent) res.call.outcome += " · recommends against the deciding record";
    return {
      draft,
      info: { mode: "model", ...base, ...(built.symmetric ? { symmetric: true } : {}), calls: [res.call] },
    };
  }
}

/** The Critic's objections to the first draft, for the revision round (quoted; ids are the records above). */
function revisionNote(objections: Objection[]): string {
  return [
    "A reviewer raised these objections to a first draft of this answer. Where the evidence supports an objection, revise the options and the recommendation (or answer \"" + UNDECIDABLE + "\"); where it does not, keep your answer. Cite only record ids from the DATA block.",
    ...objections.slice(0, 8).map((o) => JSON.stringify({ severity: o.severity, objection: o.text.slice(0, 600), citations: o.citations })),
    "",
    "Reply with the JSON object only.",
  ].join("\n");
}
