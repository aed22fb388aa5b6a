// Interfaces between the pipeline and its parts. Experts, planners and synthesizers are swappable behind these:
// the offline rules versions ship in core, model-mediated and networked ones plug in beside them.
import type {
  AdrStatus,
  Classification,
  DraftPicker,
  Fallback,
  EvidenceItem,
  EvidenceKind,
  FusedEvidence,
  ModelCall,
  Objection,
  QueryPlan,
  SourceType,
  StageStatus,
  SynthesisInfo,
} from "./schemas";
import type { StageName } from "./stages";

export interface DeliberationConfig {
  /** Globs (workspace-relative) for ADR files. */
  adrGlobs: string[];
  /** Globs for architecture docs, agent instructions and contribution guides. */
  conventionGlobs: string[];
  /** Extra ignore globs on top of .gitignore. */
  ignoreGlobs: string[];
  /** Files larger than this are skipped with a reason. */
  maxFileBytes: number;
  git: {
    /** Wall-clock budget for the whole git history stage. */
    maxMs: number;
    /** How many recent commits the pickaxe (-S) search may scan. */
    pickaxeCommits: number;
    /** How many matching commits to keep. */
    maxResults: number;
  };
  /** No network at all when true. */
  offline: boolean;
  /** Folder (relative to the repo) that holds receipts. */
  receiptsDir: string;
  /** Reciprocal-rank-fusion constant. */
  rrfK: number;
  /** How many fused items synthesis reads. */
  maxEvidence: number;
}

export interface ArtifactFile {
  /** Workspace-relative, forward slashes. */
  path: string;
  abs: string;
  bytes: number;
  /** sha256 of the content (hex). */
  hash: string;
  source_type: SourceType;
  /** Decoded text with CRLF normalised to LF. */
  text: string;
  /** For a record: the status its log's index (a README table or list beside it) gives it. */
  index_status?: { status: AdrStatus; from: string };
}

export interface ArtifactSet {
  files: ArtifactFile[];
  skipped: { path: string; reason: string }[];
  /** Hash over the sorted (path, content hash) pairs: changes whenever a tracked artifact changes. */
  hash: string;
  /** The folders ADRs were found in, how each was found (config file, content, setting), and how many. */
  adrFolders?: { dir: string; via: ".adr-dir" | ".log4brains.yml" | "content" | "setting" | "folder name"; count: number }[];
  /** Why something was or was not read: a stale `.adr-dir`, a template in an ADR folder, … */
  notes?: string[];
  /** The prose lines of the record templates found beside the records (see templateProse), for parseAdr. */
  template_lines?: string[];
}

export interface ProgressEvent {
  stage: StageName;
  state: "start" | "done";
  status?: StageStatus["status"];
  reason?: string;
  ms?: number;
  count?: number;
}
export type ProgressListener = (event: ProgressEvent) => void;

export interface ExpertContext {
  repo: string;
  question: string;
  plan: QueryPlan;
  config: DeliberationConfig;
  artifacts: ArtifactSet;
  signal: AbortSignal;
  log: (message: string) => void;
}

export interface ExpertResult {
  status: "ok" | "empty" | "failed";
  reason?: string;
  items: EvidenceItem[];
  truncated?: boolean;
  /** External experts: the sources discovered and used. */
  sources?: string[];
}

export interface Expert {
  /** Short stable name: "docs", "git", "deps", "web", … */
  readonly name: string;
  readonly kind: EvidenceKind;
  /** True for experts that never touch the network (installed dependency docs); only these run when offline. */
  readonly offlineCapable?: boolean;
  run(ctx: ExpertContext): Promise<ExpertResult>;
}

export interface QueryPlannerInput {
  question: string;
  /** Surrounding code or text from the editor, used to sharpen terms. */
  context?: string;
  signal: AbortSignal;
}

export interface QueryPlanResult {
  plan: QueryPlan;
  calls?: ModelCall[];
  /** Set when a model planner failed and the rules plan was used instead. */
  fallback?: Fallback;
}

export interface QueryPlanner {
  readonly name: string;
  plan(input: QueryPlannerInput): Promise<QueryPlanResult>;
}

export interface SynthesisInput {
  question: string;
  classification: Classification;
  evidence: FusedEvidence[];
  stages: { internal: StageStatus; external: StageStatus };
  configVersion: string;
  signal: AbortSignal;
}

export interface SynthesisOutput {
  draft: DraftPicker;
  info: Pick<SynthesisInfo, "mode" | "model" | "endpoint_host" | "fallback" | "symmetric" | "calls">;
}

export interface Synthesizer {
  readonly name: string;
  /** Model id or "rules"; part of the turn-cache key. */
  readonly id: string;
  synthesize(input: SynthesisInput): Promise<SynthesisOutput>;
  /**
   * One revision round: the synthesis redone with the Critic's blocking objections to the first draft (model
   * synthesizers only; the rules synthesizer is a pure function of the evidence and has nothing to revise).
   */
  revise?(input: SynthesisInput, objections: Objection[]): Promise<SynthesisOutput>;
}
