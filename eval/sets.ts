// The eval's three columns, each a set of repositories and questions (issue 20):
//   dev          eval/corpus.json + eval/questions*.json (questions-dev-open, questions-dev-more) — the tuning half;
//   test         eval/corpus-test.json + eval/questions-test.json — held out: never tune on its per-question output;
//   independent  ../shared/eval-data/independent-questions.json — written by other people, in another voice.
// All three are normalised to one shape so the harness scores them alike.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { EvalQuestion } from "./metrics";

export const SET_NAMES = ["dev", "test", "independent"] as const;
export type SetName = (typeof SET_NAMES)[number];

/** How a question is asked: names alternatives, asks whether to adopt one thing, or describes a goal or symptom. */
export type QuestionStyle = "comparison" | "adopt" | "open";

export interface CorpusRepo {
  name: string;
  mirror: string;
  sha: string;
  adr_dir: string;
  format: string;
  notes?: string;
  set: SetName;
}

export interface SetQuestion extends EvalQuestion {
  set: SetName;
  style: QuestionStyle;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

function listOf<T>(raw: unknown, key: string): T[] {
  if (Array.isArray(raw)) return raw as T[];
  const list = (raw as Record<string, unknown>)[key];
  if (!Array.isArray(list)) throw new Error(`expected an array or {${key}: [...]}`);
  return list as T[];
}

/** The style of a dev-set question, from its tags (the dev set predates the style field). */
export function styleFromTags(tags: string[]): QuestionStyle {
  if (tags.includes("alternatives") || tags.includes("move-from-to")) return "comparison";
  if (tags.includes("adopt") || tags.includes("keep")) return "adopt";
  return "open";
}

function normaliseStyle(style: string | undefined, tags: string[]): QuestionStyle {
  if (style === "comparison" || style === "adopt" || style === "open") return style;
  return styleFromTags(tags);
}

/** `questionsFiles`: the first must exist; later ones (questions added to a half later) join it when present. */
function loadProjectSet(evalDir: string, set: "dev" | "test", corpusFile: string, questionsFiles: string[]) {
  const corpusPath = join(evalDir, corpusFile);
  const questionsPath = join(evalDir, questionsFiles[0]);
  if (!existsSync(corpusPath) || !existsSync(questionsPath)) return { repos: [], questions: [], missing: `${corpusFile} / ${questionsFiles[0]}` };
  const repos = listOf<Omit<CorpusRepo, "set">>(readJson(corpusPath), "repos").map((r) => ({ ...r, set }));
  const questions = questionsFiles
    .map((f) => join(evalDir, f))
    .filter((f) => existsSync(f))
    .flatMap((f) => listOf<EvalQuestion & { style?: string }>(readJson(f), "questions"))
    .map((q): SetQuestion => ({ ...q, tags: q.tags ?? [], set, style: normaliseStyle(q.style, q.tags ?? []) }));
  return { repos, questions };
}

interface IndependentFile {
  repos: { repo: string; commit: string; adr_dir: string; formats?: string; notes?: string }[];
  questions: {
    id: string;
    kind: string;
    repo: string;
    question: string;
    style?: string;
    gold_paths?: string[];
    superseded_paths?: string[];
    vocab_mismatch?: boolean;
  }[];
}

/** Where the independent set lives: EVAL_INDEPENDENT, else ../shared/eval-data beside the project. */
export function independentFile(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.EVAL_INDEPENDENT ? resolve(env.EVAL_INDEPENDENT) : resolve(root, "..", "shared", "eval-data", "independent-questions.json");
}

function loadIndependentSet(file: string) {
  if (!existsSync(file)) return { repos: [], questions: [], missing: file };
  const raw = readJson<IndependentFile>(file);
  const repos: CorpusRepo[] = raw.repos.map((r) => ({
    name: r.repo,
    mirror: r.repo.replace("/", "+"),
    sha: r.commit,
    adr_dir: r.adr_dir,
    format: r.formats ?? "",
    notes: r.notes,
    set: "independent",
  }));
  const questions = raw.questions.map((q): SetQuestion => {
    const noAnswer = q.kind === "no-internal-answer";
    const tags = [noAnswer ? "no-answer" : "", q.vocab_mismatch ? "other-words" : "", q.superseded_paths?.length ? "superseded" : ""].filter(Boolean);
    return {
      id: q.id,
      repo: q.repo,
      question: q.question,
      gold: noAnswer ? [] : (q.gold_paths ?? []),
      superseded: q.superseded_paths ?? [],
      // The independent set names no option keyword groups: options are judged for fragments and topic only.
      expected_options: [],
      tags,
      set: "independent",
      style: normaliseStyle(q.style, tags),
    };
  });
  return { repos, questions };
}

export interface EvalSets {
  repos: CorpusRepo[];
  questions: SetQuestion[];
  /** Sets whose files are absent, with what is missing. */
  missing: string[];
}

export function loadSets(evalDir: string, root: string): EvalSets {
  const parts = [
    // questions-dev-open.json: open, symptom and adopt questions over the development repositories, added so the
    // development half has the question styles the test half has (questions.json is nearly all "X or Y?").
    // questions-dev-more.json: five more repositories (Go, a large product, a UK-gov log, log4brains packages) whose
    // questions were written before any rule saw them, so dev is not only the eight repositories it was tuned on.
    // questions-dev-fresh.json: two more repositories (alphagov/forms, kordis), questions written before the pipeline
    // first ran on them. questions-dev-fresh2.json and questions-dev-fresh3.json: one more each (operate-first/blueprint,
    // home-assistant/architecture), written the same way. questions-dev-fresh4.json: four more (Sylius, Unleash,
    // alphagov/publishing-api, Tekton TEPs), written by a helper from the records alone before the pipeline ran on them;
    // questions-dev-fresh5.json: three more (Thanos, OpenTelemetry OTEPs, Cortex), written the same way.
    // questions-dev-fresh6.json: three RFC repositories (Joyent RFDs, npm RFCs, Sentry RFCs), fourteenth session;
    // questions-dev-fresh7.json: three more (GOV.UK RFCs, Cloud Native Buildpacks RFCs, ESLint RFCs), the same session.
    // questions-dev-fresh8.json: three more (Open Data Hub ADRs, Dapr proposals, Bytecode Alliance RFCs), round 16.
    // questions-dev-fresh9.json: round 31, over repositories already here: a gold record that replaced or reversed an
    // older record on its subject which is not marked superseded (or is withdrawn/rejected/proposed), written from the
    // records before the pipeline ran on them (issue 20's "superseded above its successor").
    // questions-dev-fresh10.json: round 32, adopt-style ("should we adopt X?") questions over repositories already here, written by a helper from the records alone before the pipeline ran on them.
    // questions-dev-fresh11.json: first contact with four repositories added for it (MoJ Modernisation Platform, GOV.UK Content Publisher, Thunderbird for Android, Arachne), mixed styles, written from the records alone before the pipeline ran.
    // questions-dev-fresh12.json: first contact with three more (GSA-TTS/FAC, cardano-scaling/hydra, wellcomecollection/docs RFCs), written the same way.
    // questions-dev-fresh13.json: first contact with three more (TiKV RFCs, Ensembl decisions, ibc-go ADRs), written the same way.
    // questions-dev-fresh14.json: first contact with three more (React RFCs, Linkerd RFCs, a Django service's guides), the same way.
    // questions-dev-fresh15.json: first contact with records that are not Markdown (two Open edX services' reStructuredText ADRs, Jenkins's AsciiDoc JEPs), the same way.
    loadProjectSet(evalDir, "dev", "corpus.json", ["questions.json", "questions-dev-open.json", "questions-dev-more.json", "questions-dev-fresh.json", "questions-dev-fresh2.json", "questions-dev-fresh3.json", "questions-dev-fresh4.json", "questions-dev-fresh5.json", "questions-dev-fresh6.json", "questions-dev-fresh7.json", "questions-dev-fresh8.json", "questions-dev-fresh9.json", "questions-dev-fresh10.json", "questions-dev-fresh11.json", "questions-dev-fresh12.json", "questions-dev-fresh13.json", "questions-dev-fresh14.json", "questions-dev-fresh15.json"]),
    loadProjectSet(evalDir, "test", "corpus-test.json", ["questions-test.json"]),
    loadIndependentSet(independentFile(root)),
  ];
  const repos = parts.flatMap((p) => p.repos);
  const questions = parts.flatMap((p) => p.questions);
  const names = new Map(repos.map((r) => [r.name, r]));
  for (const q of questions) if (!names.has(q.repo)) throw new Error(`question ${q.id}: unknown repo ${q.repo}`);
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) throw new Error(`duplicate question id ${q.id}`);
    ids.add(q.id);
  }
  return { repos, questions, missing: parts.flatMap((p) => ("missing" in p && p.missing ? [p.missing] : [])) };
}
