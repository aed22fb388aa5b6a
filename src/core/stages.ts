// The stages of a deliberation, as a type. Every place that names a stage (the pipeline's recorder, progress
// events, the receipt's stages record, the CLI, the webview, the bench) uses these names and these labels, so a
// stage is one thing from core to screen. Zod-free: the webview bundle imports it.

/** Stages the pipeline itself runs, in order. */
export const PIPELINE_STAGES = ["classify", "cache", "discovery", "plan", "internal", "external", "fusion", "synthesis", "critic", "receipt"] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** The stages a short summary shows (the CLI, the Markdown export, the picker's stage line), in order. */
export const SUMMARY_STAGES = ["internal", "external", "synthesis"] as const satisfies readonly PipelineStage[];

/** Experts are stages too, keyed by where their evidence comes from and their own name ("internal:docs"). */
export type ExpertSide = "internal" | "external";
export type ExpertStage = `${ExpertSide}:${string}`;
export type StageName = PipelineStage | ExpertStage;

export function expertStage(side: ExpertSide, expert: string): ExpertStage {
  return `${side}:${expert}`;
}

/** Splits an expert stage name into its side and expert; undefined for pipeline stages. */
export function parseExpertStage(name: string): { side: ExpertSide; expert: string } | undefined {
  const colon = name.indexOf(":");
  if (colon < 0) return undefined;
  const side = name.slice(0, colon);
  const expert = name.slice(colon + 1);
  return (side === "internal" || side === "external") && expert ? { side, expert } : undefined;
}

export function isStageName(name: string): name is StageName {
  return (PIPELINE_STAGES as readonly string[]).includes(name) || parseExpertStage(name) !== undefined;
}

/** What each stage is called on screen: a short title, and what it is doing while it runs. */
const LABELS: Record<PipelineStage, { title: string; running: string }> = {
  classify: { title: "Classify", running: "reading the question" },
  cache: { title: "Turn cache", running: "found a cached deliberation" },
  discovery: { title: "Discovery", running: "finding ADRs and docs" },
  plan: { title: "Plan", running: "planning the search" },
  internal: { title: "Internal conventions", running: "mining the repository" },
  external: { title: "External best practice", running: "consulting external sources" },
  fusion: { title: "Fusion", running: "ranking the evidence" },
  synthesis: { title: "Synthesis", running: "weighing the options" },
  critic: { title: "Critic", running: "looking for objections" },
  receipt: { title: "Receipt", running: "signing the receipt" },
};

const EXPERT_TITLES: Record<string, string> = {
  docs: "ADRs and docs",
  git: "Git history",
  deps: "Dependency docs",
  web: "Documentation pages",
  searxng: "Web search",
  code: "Code usage",
};

export function stageTitle(name: string): string {
  const expert = parseExpertStage(name);
  if (expert) return EXPERT_TITLES[expert.expert] ?? expert.expert;
  return LABELS[name as PipelineStage]?.title ?? name;
}

/** The progress line while a stage runs ("finding ADRs and docs…", "mining git…"). */
export function stageRunningLabel(name: string): string {
  const expert = parseExpertStage(name);
  if (expert) return `${expert.side === "external" ? "consulting" : "mining"} ${expert.expert}`;
  return LABELS[name as PipelineStage]?.running ?? name;
}
