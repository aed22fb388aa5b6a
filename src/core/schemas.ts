// The contracts of Deliberative Search. Every boundary (model output, receipts on disk, webview messages,
// CLI JSON) is parsed with these schemas; the TypeScript types are inferred from them so the two never drift.
import { z } from "zod";
import { MODEL_ERROR_KINDS } from "./model/errors";

export const LineRangeSchema = z
  .object({ start: z.number().int().min(1), end: z.number().int().min(1) })
  .refine((r) => r.end >= r.start, { message: "line_range.end must be >= line_range.start" });
export type LineRange = z.infer<typeof LineRangeSchema>;

export const PrecisionClassSchema = z.enum(["exact-lines", "section", "document", "commit"]);
export type PrecisionClass = z.infer<typeof PrecisionClassSchema>;

export const EvidenceKindSchema = z.enum(["internal", "external"]);
export type EvidenceKind = z.infer<typeof EvidenceKindSchema>;

/**
 * Evidence from a decision source (src/core/sources/): the source's name, which prefixes the path
 * (`architecture:decisions/0007-x.md`), and the source's commit when it is a git repository.
 */
export const DecisionSourceRefSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
  commit: z.string().regex(/^[0-9a-f]{7,64}$/).optional(),
});
export type DecisionSourceRef = z.infer<typeof DecisionSourceRefSchema>;

/** A decision source as a receipt records it: never with credentials. */
export const DecisionSourceRecordSchema = DecisionSourceRefSchema.extend({
  kind: z.enum(["folder", "git"]),
  /** The folder, or the URL without credentials plus `#ref:path`. */
  spec: z.string().max(2300),
  fetched_at: z.string().datetime({ offset: true }).optional(),
});
export type DecisionSourceRecord = z.infer<typeof DecisionSourceRecordSchema>;

export const CitationSchema = z.object({
  id: z.string().min(1),
  kind: EvidenceKindSchema,
  path_or_url: z.string().min(1),
  line_range: LineRangeSchema.optional(),
  commit: z.string().regex(/^[0-9a-f]{7,64}$/).optional(),
  fetched_at: z.string().datetime({ offset: true }).optional(),
  precision_class: PrecisionClassSchema,
  excerpt: z.string(),
  /** Short human label: ADR title, section heading, commit subject, page title. */
  title: z.string().optional(),
  resolution_failed: z.literal(true).optional(),
  /** sha256 of the cited lines as read when the receipt was sealed (see receipts/citedContent.ts); absent on older receipts. */
  content_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** Set when the cited record comes from a decision source rather than the repository. */
  decision_source: DecisionSourceRefSchema.optional(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const LevelSchema = z.enum(["low", "med", "high"]);
export type Level = z.infer<typeof LevelSchema>;

export const OptionSchema = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  summary: z.string().min(1),
  supports: z.array(z.string()),
  dissent: z.array(z.string()),
  tradeoffs: z.array(z.string()),
  cost: LevelSchema,
  risk: LevelSchema,
  /** Lowered to "low" when one of the option's citations failed to resolve or was unknown. */
  confidence: LevelSchema.optional(),
});
export type Option = z.infer<typeof OptionSchema>;

export { UNDECIDABLE } from "./constants";
import { UNDECIDABLE } from "./constants";

export const RecommendationSchema = z.object({
  option_id: z.string().min(1),
  rationale: z.string().min(1),
  confidence: LevelSchema,
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

export const CoverageSchema = z.object({
  internal: z.number().int().min(0),
  external: z.number().int().min(0),
  top_score: z.number().min(0),
});
export type Coverage = z.infer<typeof CoverageSchema>;

/**
 * A model's recommendation that goes against the in-force record the rules path follows (model/dissent.ts): which
 * record, what it chose, what the model chose, and the one-line note shown with the answer. Confidence is then at
 * most "med".
 */
export const ModelDissentSchema = z.object({
  deciding_record: z.object({ path: z.string().min(1), line_range: LineRangeSchema.optional(), title: z.string(), status: z.string().optional() }),
  record_chose: z.string(),
  /** The model's recommended option title, or the undecidable id. */
  model_chose: z.string(),
  /** The model cited the deciding record as support for its own, different choice. */
  cites_record_as_support: z.boolean(),
  note: z.string().min(1),
});
export type ModelDissent = z.infer<typeof ModelDissentSchema>;

/**
 * The Critic's case against the recommendation (src/core/critic/): "blocking" lowered the confidence or made the
 * answer undecidable; a "concern" is for the reader to weigh. Citations are evidence ids among the payload's.
 */
export const ObjectionSchema = z.object({
  severity: z.enum(["blocking", "concern"]),
  text: z.string().min(1).max(2000),
  citations: z.array(z.string()).max(20),
});
export type Objection = z.infer<typeof ObjectionSchema>;

/**
 * What the blocking objections did to the recommendation: the draft's option and confidence before, and whether the
 * Critic lowered the confidence or withdrew the answer (undecidable). Absent when the Critic changed nothing.
 */
export const CriticEffectSchema = z.object({
  action: z.enum(["lowered", "withdrawn"]),
  draft_option_id: z.string().min(1),
  draft_confidence: LevelSchema,
});
export type CriticEffect = z.infer<typeof CriticEffectSchema>;

const OptionPickerBase = z.object({
  question: z.string().min(1),
  class: z.literal("open-question"),
  options: z.array(OptionSchema).min(2).max(5),
  recommendation: RecommendationSchema,
  citations: z.array(CitationSchema),
  coverage: CoverageSchema,
  /** Set when a model recommends against the record that decided the question (see ModelDissentSchema). */
  model_dissent: ModelDissentSchema.optional(),
  /** The Critic's objections (absent on receipts written before the Critic existed). */
  objections: z.array(ObjectionSchema).max(20).optional(),
  critic_effect: CriticEffectSchema.optional(),
  evidence_ref: z.string().min(1),
  receipt_ref: z.string().min(1),
});

/** Cross-field rules: every cited id exists, ids are unique, the recommendation names an option or is undecidable. */
function checkPicker(p: z.infer<typeof OptionPickerBase>, ctx: z.RefinementCtx): void {
  const citationIds = new Set<string>();
  for (const c of p.citations) {
    if (citationIds.has(c.id)) ctx.addIssue({ code: "custom", message: `duplicate citation id ${c.id}`, path: ["citations"] });
    citationIds.add(c.id);
  }
  const optionIds = new Set<string>();
  p.options.forEach((o, i) => {
    if (optionIds.has(o.id)) ctx.addIssue({ code: "custom", message: `duplicate option id ${o.id}`, path: ["options", i, "id"] });
    optionIds.add(o.id);
    for (const field of ["supports", "dissent"] as const) {
      for (const id of o[field]) {
        if (!citationIds.has(id)) {
          ctx.addIssue({ code: "custom", message: `option ${o.id} ${field} names unknown citation ${id}`, path: ["options", i, field] });
        }
      }
    }
  });
  (p.objections ?? []).forEach((o, i) => {
    for (const id of o.citations) {
      if (!citationIds.has(id)) ctx.addIssue({ code: "custom", message: `objection ${i} names unknown citation ${id}`, path: ["objections", i, "citations"] });
    }
  });
  const rec = p.recommendation.option_id;
  if (rec !== UNDECIDABLE && !optionIds.has(rec)) {
    ctx.addIssue({ code: "custom", message: `recommendation names unknown option ${rec}`, path: ["recommendation", "option_id"] });
  }
}

export const OptionPickerSchema = OptionPickerBase.superRefine(checkPicker);
export type OptionPicker = z.infer<typeof OptionPickerSchema>;

/** The payload before it is bound to a receipt (synthesizers produce this; the pipeline adds the refs). */
export const DraftPickerSchema = OptionPickerBase.omit({ evidence_ref: true, receipt_ref: true });
export type DraftPicker = z.infer<typeof DraftPickerSchema>;

// ---------------------------------------------------------------------------------------------------------
// Evidence: what experts return and fusion ranks. A Citation is the evidence's public face in a payload.

export const SourceTypeSchema = z.enum([
  "adr",
  "agent-instructions",
  "architecture",
  "contributing",
  "canonical-file",
  "commit",
  "dependency-doc",
  "web",
  /** A line of code that uses an option (a manifest, an import, an infrastructure file): internal/codeUsage.ts. */
  "code",
]);
export type SourceType = z.infer<typeof SourceTypeSchema>;

export const AdrStatusSchema = z.enum(["proposed", "accepted", "rejected", "deprecated", "superseded", "unknown"]);
export type AdrStatus = z.infer<typeof AdrStatusSchema>;

export const AdrMetaSchema = z.object({
  /** Workspace-relative path of the ADR file. */
  path: z.string(),
  title: z.string(),
  status: AdrStatusSchema,
  date: z.string().optional(),
  /** Paths (workspace-relative) or raw references of the ADRs this one supersedes / is superseded by. */
  supersedes: z.array(z.string()),
  superseded_by: z.array(z.string()),
  considered_options: z.array(z.string()),
  chosen_option: z.string().optional(),
  /** Which section of the ADR this evidence item is ("decision", "context", "consequences", "considered-options", "pros-and-cons", …). */
  section: z.string().optional(),
  /** Set when a supersession link of this ADR was inferred (a later ADR reversing it, a back link), not written down. */
  supersession_inferred: z.literal(true).optional(),
  /** The record's number ("ADR 12"), when it has one. */
  number: z.number().int().optional(),
  /** The status as a reader should see it: "accepted", "no status line" (never "unknown"). */
  status_display: z.string().optional(),
  /** The decision model (src/core/decisions/): what the record is about, the option it chose and where it says so. */
  subject: z.string().optional(),
  /** `option`: the considered option the decision names, when its own words ("either be X or Y") are not that option's. */
  /** `from_prose`: the name is a clause of the proposal's prose, not one of the options the record lists. */
  decided_option: z.object({ name: z.string(), range: LineRangeSchema, option: z.string().optional(), from_prose: z.literal(true).optional() }).optional(),
  /** Each option the record turned down, with its reason in the record's words and the lines that say so. */
  rejected_options: z.array(z.object({ name: z.string(), reason: z.string().optional(), range: LineRangeSchema })).max(20).optional(),
});
export type AdrMeta = z.infer<typeof AdrMetaSchema>;

export const EvidenceItemSchema = z.object({
  id: z.string(),
  kind: EvidenceKindSchema,
  /** Which expert produced it: "adr", "conventions", "git", "deps", "docs", "searxng", … */
  expert: z.string(),
  source_type: SourceTypeSchema,
  path_or_url: z.string(),
  line_range: LineRangeSchema.optional(),
  commit: z.string().optional(),
  fetched_at: z.string().optional(),
  precision_class: PrecisionClassSchema,
  title: z.string().optional(),
  excerpt: z.string(),
  /** The expert's own relevance score (higher is better); fusion replaces ranking with RRF. */
  score: z.number(),
  adr: AdrMetaSchema.optional(),
  /**
   * Records: where the plain view of the question over every record (internal/recordBm25.ts) places this one, 1 being
   * first. A second, simpler reading the Critic compares the deciding record with.
   */
  plain_rank: z.number().int().min(1).optional(),
  /** Commits: the files the commit touched (capped), so fusion can credit the documents it changed. */
  touched_paths: z.array(z.string()).max(50).optional(),
  /** External: the package this doc belongs to, and whether it is deprecated. */
  package: z.string().optional(),
  deprecated: z.boolean().optional(),
  /** Set when the item comes from a decision source rather than the repository. */
  decision_source: DecisionSourceRefSchema.optional(),
});
export type EvidenceItem = z.infer<typeof EvidenceItemSchema>;

export const FusedEvidenceSchema = EvidenceItemSchema.extend({
  rank: z.number().int().min(1),
  /** Reciprocal-rank-fusion score. */
  fused_score: z.number(),
  /** Every expert that returned this item (fusion merges duplicates). */
  experts: z.array(z.string()),
});
export type FusedEvidence = z.infer<typeof FusedEvidenceSchema>;

/** The `--shape ranked-evidence` rendering. */
export const RankedEvidenceRowSchema = z.object({
  rank: z.number().int().min(1),
  id: z.string(),
  kind: EvidenceKindSchema,
  path_or_url: z.string(),
  line_range: LineRangeSchema.optional(),
  commit: z.string().optional(),
  score: z.number(),
  expert: z.string(),
});
export type RankedEvidenceRow = z.infer<typeof RankedEvidenceRowSchema>;

// ---------------------------------------------------------------------------------------------------------
// Classification, stages, receipts.

export const QuestionClassSchema = z.enum(["open-question", "lookup", "abstain"]);
export type QuestionClass = z.infer<typeof QuestionClassSchema>;

export const ClassificationSchema = z.object({
  class: QuestionClassSchema,
  confidence: z.number().min(0).max(1),
  reasons: z.array(z.string()),
});
export type Classification = z.infer<typeof ClassificationSchema>;

/**
 * Why a model step fell back to the rules path: the classified failure kind (never parsed back out of text) and a
 * one-line, secret-free detail. "synthesizer-error" is a synthesizer that threw.
 */
export const FallbackSchema = z.object({
  kind: z.enum([...MODEL_ERROR_KINDS, "synthesizer-error"]),
  detail: z.string(),
});
export type Fallback = z.infer<typeof FallbackSchema>;

export const StageStatusSchema = z.object({
  status: z.enum(["ok", "empty", "failed", "skipped"]),
  reason: z.string().optional(),
  /** The plan stage: why the model plan fell back to the rules plan. */
  fallback: FallbackSchema.optional(),
  count: z.number().int().min(0),
  ms: z.number().min(0),
  /** True when a budget (time, commits, pages) cut the stage short. */
  truncated: z.boolean().optional(),
});
export type StageStatus = z.infer<typeof StageStatusSchema>;

export const OperatorPickSchema = z.object({
  option_id: z.string().min(1),
  reason: z.string().optional(),
  at: z.string().datetime({ offset: true }),
  overrode_recommendation: z.boolean(),
});
export type OperatorPick = z.infer<typeof OperatorPickSchema>;

/** One entry of a receipt's pick history: every pick is kept, so a changed pick is visible and none is lost. */
export const PickRecordSchema = OperatorPickSchema.extend({
  /** "operator": a person in the editor or the CLI; "agent": a coding agent through the MCP server's record_pick. */
  picked_by: z.enum(["operator", "agent"]),
  /** Who picked: the signer's name (allowed_signers), "you", or "unknown" for a pick carried over from a legacy receipt. */
  who: z.string().max(200),
  /** Key id of the key that signed the receipt with this pick. */
  key_id: z.string().max(200),
});
export type PickRecord = z.infer<typeof PickRecordSchema>;

/** A receipt exported as an ADR: where the record was written, when, and in which format. */
export const AdrExportSchema = z.object({
  /** Workspace-relative path of the ADR file. */
  path: z.string().min(1).max(500),
  at: z.string().datetime({ offset: true }),
  format: z.enum(["madr", "nygard", "log4brains"]),
  /** Workspace-relative path of the ADR this one superseded, if any. */
  supersedes: z.string().max(500).optional(),
});
export type AdrExport = z.infer<typeof AdrExportSchema>;

/** The content hash of an evidence file a receipt references (path relative to the receipts folder). */
export const EvidenceFileSchema = z.object({
  path: z.string().regex(/^evidence\/sha256-[0-9a-f]{32}\.json$/),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EvidenceFile = z.infer<typeof EvidenceFileSchema>;

export const ModelCallSchema = z.object({
  /** "critic": the model Critic's call; "revision": the synthesis redone once with the Critic's objections. */
  purpose: z.enum(["plan", "synthesis", "critic", "revision"]),
  ms: z.number().min(0),
  prompt_tokens: z.number().int().min(0).optional(),
  completion_tokens: z.number().int().min(0).optional(),
  outcome: z.string(),
});
export type ModelCall = z.infer<typeof ModelCallSchema>;

export const SynthesisInfoSchema = z.object({
  mode: z.enum(["rules", "model"]),
  model: z.string().optional(),
  endpoint_host: z.string().optional(),
  /** Why the model path fell back to the rules synthesizer. */
  fallback: FallbackSchema.optional(),
  /** The same as text ("kind: detail"); the only form receipts written before `fallback` carry. */
  fallback_reason: z.string().optional(),
  options_count: z.number().int().min(0),
  recommendation_id: z.string(),
  dissent_count: z.number().int().min(0),
  /** Set when the evidence could not separate the options. */
  symmetric: z.boolean().optional(),
  calls: z.array(ModelCallSchema).optional(),
});
export type SynthesisInfo = z.infer<typeof SynthesisInfoSchema>;

export const QueryPlanSchema = z.object({
  mode: z.enum(["rules", "model"]),
  terms: z.array(z.string()),
  expansions: z.array(z.string()),
  draft: z.string().optional(),
  entities: z.array(z.string()).optional(),
  keywords: z.array(z.string()).optional(),
});
export type QueryPlan = z.infer<typeof QueryPlanSchema>;

export const SigningInfoSchema = z.object({
  algorithm: z.literal("ed25519"),
  key_id: z.string(),
  public_key: z.string(),
});

/**
 * Who signed the receipt before it was first re-signed (a pick or an ADR export), kept so the original signer stays
 * visible and checkable: the signing block and signature of that version, plus what its pick fields held (the
 * operator pick, and how many `picks` and `adr_exports` entries it had; absent when it had no such field). A re-sign
 * changes only those fields, so the minted bytes are rebuilt from the current receipt and this block, and its
 * signature checked (receipts/signing.ts, verifyMintedBy). Later re-signs keep the first minter.
 */
export const MintedBySchema = z.object({
  algorithm: z.literal("ed25519"),
  key_id: z.string(),
  public_key: z.string(),
  signature: z.string(),
  operator_pick: OperatorPickSchema.nullable(),
  picks: z.number().int().min(0).optional(),
  adr_exports: z.number().int().min(0).optional(),
});
export type MintedBy = z.infer<typeof MintedBySchema>;

/** The learned weights a deliberation ranked with (src/core/learning): a prior per evidence source and synthesis path. */
export const LearnedWeightsSchema = z.object({
  /** sha256 prefix of the canonical weights; joins the config version when the weights are not all 1. */
  hash: z.string().regex(/^[0-9a-f]{16}$/),
  sources: z.record(z.string(), z.number().min(0.5).max(2)),
  synthesis: z.record(z.string(), z.number().min(0.5).max(2)),
  /** How many signed, trusted operator picks they were learned from. */
  picks_counted: z.number().int().min(0),
});
export type LearnedWeights = z.infer<typeof LearnedWeightsSchema>;

/** 2: evidence file hashes and the pick history are signed. 1 (legacy): still readable, reported as legacy. */
export const RECEIPT_SCHEMA_VERSION = 2 as const;
export const LEGACY_RECEIPT_SCHEMA_VERSION = 1 as const;

export const ReceiptSchema = z.object({
  schema_version: z.union([z.literal(RECEIPT_SCHEMA_VERSION), z.literal(LEGACY_RECEIPT_SCHEMA_VERSION)]),
  receipt_id: z.string().regex(/^[A-Za-z0-9_-]{6,80}$/),
  created_at: z.string().datetime({ offset: true }),
  question: z.string(),
  question_hash: z.string(),
  classification: ClassificationSchema,
  class_mismatch: z.boolean().optional(),
  config_version: z.string(),
  artifact_set_hash: z.string(),
  /** Short hashes of the artifact paths (receipts/citedContent.ts): which artifacts are new since the receipt. */
  artifact_path_keys: z.array(z.string().regex(/^[0-9a-f]{10}$/)).max(20_000).optional(),
  citation_set_hash: z.string(),
  evidence_ref: z.string(),
  stages: z.record(z.string(), StageStatusSchema),
  plan: QueryPlanSchema.optional(),
  synthesis: SynthesisInfoSchema,
  /** External sources discovered and used (hosts/URLs), so the allow-list can grow deliberately. */
  sources: z.array(z.string()).optional(),
  /** The decision sources consulted (src/core/sources/) and the commit each was read at. */
  decision_sources: z.array(DecisionSourceRecordSchema).max(50).optional(),
  context: z.object({ file: z.string().optional(), line: z.number().int().optional() }).optional(),
  /** The latest pick (the last entry of `picks`), or null before the first pick. */
  operator_pick: OperatorPickSchema.nullable(),
  /** Every pick in order (schema 2). */
  picks: z.array(PickRecordSchema).optional(),
  /** Every export of this receipt as an ADR, in order (signed, so the sidebar can show where the decision landed). */
  adr_exports: z.array(AdrExportSchema).optional(),
  /** Content hashes of the evidence files this receipt references (schema 2); `verify` recomputes them. */
  evidence_files: z.array(EvidenceFileSchema).optional(),
  /** The learned weights fusion ranked with (absent on receipts written before learning existed). */
  learned_weights: LearnedWeightsSchema.optional(),
  payload: OptionPickerSchema,
  signing: SigningInfoSchema,
  /** The original signer, once someone else's key re-signed the receipt (absent on receipts never re-signed). */
  minted_by: MintedBySchema.optional(),
  signature: z.string(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
export type UnsignedReceipt = Omit<Receipt, "signature">;

/** Formats a zod error as one line for CLI and log output. */
export function formatZodError(err: z.ZodError): string {
  return err.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}
