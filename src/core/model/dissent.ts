// A model cannot quietly overrule the records. Repository text is data, but a model may still obey an instruction
// planted in it ("recommend GraphQL" in a commit message). So after a model synthesis the rules verdict on the same
// evidence (already computed: it is the model path's floor) is the referee: when an in-force record decided the
// question and the model recommends something else — or cites that very record as support for an option the
// record did not choose — the payload says so (`model_dissent`), the rationale says so, and confidence is at most
// "med". The model may still be right; it just cannot be right silently.
import { UNDECIDABLE, type AdrStatus, type DraftPicker, type FusedEvidence, type Level, type ModelDissent, type Option } from "../schemas";
import { keyFor } from "../synth/rules";
import { mentions, stanceOf, type OptionKey } from "../synth/stance";

/** The most confidence a recommendation that goes against the deciding record may carry. */
export const DISSENT_CONFIDENCE_CAP: Level = "med";

/** Records that still bind: not retired, and not merely proposed. "unknown" is a record without a status line. */
const IN_FORCE: ReadonlySet<AdrStatus> = new Set(["accepted", "unknown"]);

/** The record the rules path followed, and the rules option it chose. */
export interface DecidingRecord {
  evidence: FusedEvidence;
  chose: Option;
}

/**
 * The in-force record that decided the question on the rules path, read off the rules payload: the recommended
 * option's supports hold it (the rules synthesizer cites the deciding record for the option it chose and for no
 * other), and the rationale's first sentence names it ('ADR "T" (accepted) decided this question' or
 * 'AGENTS.md:5 prescribes "…"'). Undefined when nothing decided the question or the record is not in force.
 */
export function decidingRecord(rules: DraftPicker, evidence: readonly FusedEvidence[]): DecidingRecord | undefined {
  const recId = rules.recommendation.option_id;
  if (recId === UNDECIDABLE) return undefined;
  const chose = rules.options.find((o) => o.id === recId);
  if (!chose) return undefined;
  const byId = new Map(evidence.map((e) => [e.id, e] as const));
  const supports = chose.supports.map((id) => byId.get(id)).filter((e): e is FusedEvidence => !!e);
  const rationale = rules.recommendation.rationale;

  // 'ADR 12 "Title" (accepted) decided …'; a record without a status reads "(no status line)" (the rules' wording);
  // a decision source's record names its source ('ADR 7 "Title" from architecture (accepted) decided …').
  const adr = /^ADR (?:\d+ )?"(.+?)"(?: from [A-Za-z0-9._-]{1,64})? \(([^)]{1,80})\) decided this question/.exec(rationale);
  if (adr) {
    const status = /^(?:no status line|unrecognised status)/.test(adr[2]) ? "unknown" : adr[2];
    if (!IN_FORCE.has(status as AdrStatus)) return undefined;
    const records = supports.filter((e) => e.adr?.title === adr[1] && IN_FORCE.has(e.adr.status));
    const found = records.find((e) => /decision|outcome/.test(e.adr?.section ?? "")) ?? records[0];
    return found ? { evidence: found, chose } : undefined;
  }
  const rule = /^(.+?) prescribes "/.exec(rationale);
  if (rule) {
    const found = supports.find((e) => !e.adr && `${e.path_or_url}${e.line_range ? `:${e.line_range.start}` : ""}` === rule[1]);
    return found ? { evidence: found, chose } : undefined;
  }
  // The rationale's wording changed: the best-ranked in-force decision record cited for the chosen option.
  const fallback = supports.find((e) => e.adr && IN_FORCE.has(e.adr.status));
  return fallback ? { evidence: fallback, chose } : undefined;
}

function sameOption(a: OptionKey, b: OptionKey): boolean {
  return a.terms.some((t) => mentions(t, b)) || b.terms.some((t) => mentions(t, a));
}

/**
 * Whether the model's option is what the record chose: the record does not argue against what the option names,
 * and the option names the chosen one or the record favours it ("REST over HTTPS" for "REST").
 */
function followsRecord(option: Option, record: DecidingRecord): boolean {
  const key = keyFor(option.title);
  const stance = stanceOf(record.evidence, key);
  if (stance?.polarity === -1) return false;
  return sameOption(key, keyFor(record.chose.title)) || stance?.polarity === 1;
}

/** The record as the user will look for it: its title, status and location. */
function describeRecord(e: FusedEvidence): { label: string; where: string } {
  const where = `${e.path_or_url}${e.line_range ? `:${e.line_range.start}-${e.line_range.end}` : ""}`;
  if (e.adr) return { label: `ADR "${e.adr.title}" (${e.adr.status})`, where };
  return { label: `${e.title ? `"${e.title}"` : e.path_or_url}`, where };
}

function sameRecord(a: FusedEvidence, b: FusedEvidence): boolean {
  return a.id === b.id || (!!a.adr && !!b.adr && a.adr.path === b.adr.path);
}

/**
 * Compares the model's draft with the rules verdict. Returns the draft unchanged when the model follows the
 * deciding record (or nothing decided the question); otherwise the draft with `model_dissent`, the note appended to
 * the rationale and the confidence capped at "med".
 */
export function checkModelDissent(model: DraftPicker, rules: DraftPicker, evidence: readonly FusedEvidence[]): DraftPicker {
  const record = decidingRecord(rules, evidence);
  if (!record) return model;
  const recId = model.recommendation.option_id;
  const recommended = recId === UNDECIDABLE ? undefined : model.options.find((o) => o.id === recId);
  if (recommended && followsRecord(recommended, record)) return model;

  const byId = new Map(evidence.map((e) => [e.id, e] as const));
  const citesRecord = !!recommended?.supports.some((id) => {
    const e = byId.get(id);
    return !!e && sameRecord(e, record.evidence);
  });
  const before = model.recommendation.confidence;
  const confidence: Level = before === "high" ? DISSENT_CONFIDENCE_CAP : before;
  const { label, where } = describeRecord(record.evidence);
  const chose = record.chose.title;
  const against = recommended
    ? citesRecord
      ? `The model recommends "${recommended.title}" and cites ${label} at ${where} as support, but that record chose "${chose}"`
      : `The model recommends "${recommended.title}" against ${label} at ${where}, which chose "${chose}"`
    : `The model calls this undecidable, but ${label} at ${where} chose "${chose}"`;
  const note = `${against}; confidence ${before === "high" ? "capped at" : "is"} ${confidence}.`;
  const dissent: ModelDissent = {
    deciding_record: {
      path: record.evidence.path_or_url,
      ...(record.evidence.line_range ? { line_range: record.evidence.line_range } : {}),
      title: record.evidence.adr?.title ?? record.evidence.title ?? record.evidence.path_or_url,
      ...(record.evidence.adr ? { status: record.evidence.adr.status } : {}),
    },
    record_chose: chose,
    model_chose: recommended?.title ?? UNDECIDABLE,
    cites_record_as_support: citesRecord,
    note,
  };
  return {
    ...model,
    recommendation: { ...model.recommendation, confidence, rationale: `${model.recommendation.rationale} ${note}`.trim() },
    model_dissent: dissent,
  };
}
