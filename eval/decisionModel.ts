// Decision-model extraction measured on hand labels (eval/decision-labels.json): reads each labelled record from
// its bare mirror at the pinned sha, runs parseAdr + decisionModelOf, and scores chosen option, considered recall
// and status against the labels. Run: MIRRORS=/work/.mirror node --import tsx eval/decisionModel.ts
// The phrase match is lenient and independent of the extractor's own matching: case-insensitive, and a label
// matches an extracted phrase when at least half of the label's content words occur in it, or when the phrase is the
// label's opening words and no other labelled option matches it (the same option named more briefly).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseAdr } from "../src/core/internal/adr";
import { decisionModelOf, type DecisionRecord } from "../src/core/decisions";

const LabelSchema = z.object({
  repo: z.string(),
  mirror: z.string(),
  sha: z.string().regex(/^[0-9a-f]{40}$/),
  corpus: z.enum(["dev", "test", "indep"]),
  path: z.string(),
  status: z.enum(["accepted", "proposed", "rejected", "deprecated", "superseded", "none"]),
  chosen: z.string().nullable(),
  considered: z.array(z.string()),
});
const LabelsFileSchema = z.object({ description: z.string(), records: z.array(LabelSchema).min(1) });
type Label = z.infer<typeof LabelSchema>;

export interface DecisionModelScore {
  records: number;
  repositories: number;
  chosen_accuracy: number;
  considered_recall: number;
  status_accuracy: number;
  /** Records from the dev corpus (eval/corpus.json) and from all other repositories, scored apart. */
  dev: SplitScore;
  other: SplitScore;
  /** Misses on dev labels only: the held-out labels (test, indep) are scored in totals and never listed. */
  misses: string[];
}
interface SplitScore {
  records: number;
  chosen_accuracy: number;
  considered_recall: number;
  status_accuracy: number;
}

const LABELS = join(fileURLToPath(new URL(".", import.meta.url)), "decision-labels.json");
const STOP = new Set(["a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "as", "at", "is", "are", "be", "it", "we", "use", "using"]);

function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOP.has(w))
    .map((w) => (w.length > 5 && w.endsWith("ing") ? w.slice(0, -3) : w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

/** At least half of the label's content words occur in the extracted phrase. */
export function phraseMatches(label: string, extracted: string): boolean {
  const want = [...new Set(words(label))];
  if (want.length === 0) return label.trim().toLowerCase() === extracted.trim().toLowerCase();
  const have = new Set(words(extracted));
  return want.filter((w) => have.has(w)).length * 2 >= want.length;
}

/** Two content words are one when equal, or when one is the other plus a short ending ("scope", "scoped"). */
function sameWord(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short === long || (short.length >= 4 && long.startsWith(short) && long.length - short.length <= 2);
}

/**
 * The extracted phrase names the labelled option more briefly: its content words are the label's first ones, in
 * order ("Simple HTTP" for "Simple HTTP for inter-service communication"), and no other option the label lists as
 * considered matches it. An option the label lists whose words all occur in the label is the chosen one itself.
 */
export function namedMoreBriefly(label: string, extracted: string, considered: string[]): boolean {
  const want = words(label);
  const have = words(extracted);
  if (have.length === 0 || have.length >= want.length || !have.every((w, i) => sameWord(w, want[i]))) return false;
  const inLabel = (c: string) => words(c).every((w) => want.some((l) => sameWord(w, l)));
  return !considered.some((c) => !inLabel(c) && phraseMatches(c, extracted));
}

function statusOf(m: DecisionRecord): Label["status"] {
  return m.status === "unknown" ? "none" : m.status;
}

function score(labels: Label[], models: Map<Label, DecisionRecord | Error>, misses: string[]): SplitScore {
  let chosenRight = 0;
  let statusRight = 0;
  let consideredFound = 0;
  let consideredTotal = 0;
  for (const l of labels) {
    const m = models.get(l)!;
    const where = `${l.repo}:${l.path}`;
    if (m instanceof Error) {
      misses.push(`${where}: failed: ${m.message}`);
      consideredTotal += l.considered.length;
      continue;
    }
    const got = m.chosen?.name ?? null;
    const chosenOk = l.chosen === null ? got === null : got !== null && (phraseMatches(l.chosen, got) || namedMoreBriefly(l.chosen, got, l.considered));
    if (chosenOk) chosenRight++;
    else misses.push(`${where}: chosen: labelled ${JSON.stringify(l.chosen)}, read ${JSON.stringify(got)}`);
    if (statusOf(m) === l.status) statusRight++;
    else misses.push(`${where}: status: labelled ${l.status}, read ${m.status} (${m.status_display})`);
    for (const c of l.considered) {
      consideredTotal++;
      if (m.considered.some((o) => phraseMatches(c, o.name))) consideredFound++;
      else misses.push(`${where}: considered option not read: ${JSON.stringify(c)}`);
    }
  }
  const n = labels.length;
  return {
    records: n,
    chosen_accuracy: n ? chosenRight / n : 0,
    considered_recall: consideredTotal ? consideredFound / consideredTotal : 1,
    status_accuracy: n ? statusRight / n : 0,
  };
}

function readModels(mirrors: string, labels: Label[]): Map<Label, DecisionRecord | Error> {
  const models = new Map<Label, DecisionRecord | Error>();
  for (const l of labels) {
    try {
      const text = execFileSync("git", ["-C", join(mirrors, l.mirror, "repo"), "show", `${l.sha}:${l.path}`], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
      models.set(l, decisionModelOf(parseAdr(l.path, text)));
    } catch (err) {
      models.set(l, err instanceof Error ? err : new Error(String(err)));
    }
  }
  return models;
}

/**
 * Dev labels split by when their repositories were labelled, so a rule that only fits the earlier ones shows. A label
 * whose repository is in no batch below belongs to the first dev repositories.
 */
const DEV_BATCHES: { name: string; repos: ReadonlySet<string> }[] = [
  // Added after the extractor had been tuned on the first dev labels.
  { name: "later dev repos", repos: new Set(["alphagov/govuk-aws", "mozilla/experimenter", "celestiaorg/celestia-app", "cometbft/cometbft", "thomvaill/log4brains"]) },
  // Round 3, before the extractor was changed for them.
  { name: "fresh dev repos", repos: new Set(["npryce/adr-tools", "alphagov/content-publisher", "home-assistant/architecture", "operate-first/blueprint", "cosmos/ibc-go", "tikv/rfcs", "arachne-framework/architecture"]) },
  // Round 7: outside every eval set, read while the extractor was changed for them.
  { name: "round-7 dev repos", repos: new Set(["Ensembl/decisions", "SmartBear/git-en-boite"]) },
  // Round 8: outside every eval set, labelled before the extractor was changed for them.
  { name: "round-8 dev repos", repos: new Set(["alphagov/forms"]) },
  // Round 9: three small repositories in no eval set, labelled before any change they measure.
  { name: "round-9 dev repos", repos: new Set(["kordis-leitstelle/kordis", "LBHackney-IT/social-care-architecture", "Newarkandsherwood/housing-repairs-online"]) },
  // Round 10: four repositories in no eval set, labelled from the records alone before the extractor was run on them.
  { name: "round-10 dev repos", repos: new Set(["DFE-Digital/sts-plan-technology-for-your-school", "ministryofjustice/modernisation-platform", "DFE-Digital/fh-services", "thunderbird/thunderbird-android"]) },
  // Round 11: five repositories in no eval set, labelled from the records alone before the extractor was run on them.
  { name: "round-11 dev repos", repos: new Set(["alphagov/email-alert-api", "cloudfoundry/go-cf-api", "fluxcd/flux2", "informalsystems/hermes", "mozilla/fx-private-relay"]) },
  { name: "round-12 dev repos", repos: new Set(["Sylius/Sylius", "Unleash/unleash", "alphagov/publishing-api", "tektoncd/community"]) },
  { name: "round-13 dev repos", repos: new Set(["thanos-io/thanos", "open-telemetry/oteps", "cortexproject/cortex"]) },
  { name: "round-14 dev repos", repos: new Set(["joyent/rfd", "npm/rfcs", "getsentry/rfcs"]) },
  { name: "round-15 dev repos", repos: new Set(["alphagov/govuk-rfcs", "buildpacks/rfcs", "eslint/rfcs"]) },
  { name: "round-16 dev repos", repos: new Set(["opendatahub-io/architecture-decision-records", "dapr/proposals", "bytecodealliance/rfcs"]) },
];

/** The dev labels' scores per batch, the first dev repositories first. */
export function scoreDevGenerations(mirrors: string): { name: string; split: SplitScore }[] {
  const labels = LabelsFileSchema.parse(JSON.parse(readFileSync(LABELS, "utf8"))).records.filter((l) => l.corpus === "dev");
  const models = readModels(mirrors, labels);
  const first = labels.filter((l) => DEV_BATCHES.every((b) => !b.repos.has(l.repo)));
  return [
    { name: "first dev repos", split: score(first, models, []) },
    ...DEV_BATCHES.map((b) => ({ name: b.name, split: score(labels.filter((l) => b.repos.has(l.repo)), models, []) })),
  ];
}

/** Scores the decision model on the labelled records read from `mirrors` (a folder of <owner>+<name>/repo). */
export function scoreDecisionModel(mirrors: string): DecisionModelScore {
  const labels = LabelsFileSchema.parse(JSON.parse(readFileSync(LABELS, "utf8"))).records;
  const models = readModels(mirrors, labels);
  const misses: string[] = [];
  const all = score(labels, models, []);
  const dev = score(labels.filter((l) => l.corpus === "dev"), models, misses);
  const other = score(labels.filter((l) => l.corpus !== "dev"), models, []);
  return { ...all, repositories: new Set(labels.map((l) => l.repo)).size, dev, other, misses };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const s = scoreDecisionModel(process.env.MIRRORS ?? "/work/.mirror");
  console.log(`Decision model on ${s.records} hand-labelled records from ${s.repositories} repositories`);
  console.log(`  chosen option right  ${pct(s.chosen_accuracy)}   (target >= 90%)`);
  console.log(`  considered recall    ${pct(s.considered_recall)}   (target >= 85%)`);
  console.log(`  status right         ${pct(s.status_accuracy)}   (target >= 95%)`);
  for (const [name, split] of [["dev-corpus repos", s.dev], ["other repos", s.other]] as const) {
    console.log(`  ${name} (${split.records}): chosen ${pct(split.chosen_accuracy)}, considered ${pct(split.considered_recall)}, status ${pct(split.status_accuracy)}`);
  }
  for (const { name, split } of scoreDevGenerations(process.env.MIRRORS ?? "/work/.mirror")) {
    console.log(`    ${name} (${split.records}): chosen ${pct(split.chosen_accuracy)}, considered ${pct(split.considered_recall)}, status ${pct(split.status_accuracy)}`);
  }
  if (s.misses.length) console.log(`Misses on dev labels (${s.misses.length}):\n  ${s.misses.join("\n  ")}`);
}
