// Reproducible synthetic repositories for the benchmark. A seeded plan (topics, ADR chains, docs, commit schedule,
// questions) is built in memory, then streamed into `git fast-import` through stdin: no working-tree commits, no
// shell. The result is cached under os.tmpdir()/deliberative-bench-cache/<size>-<GENERATOR_VERSION> and reused.
//
// What a repository holds:
//  - ADRs in three formats: Nygard / adr-tools (doc/adr, numbered), MADR 3 (docs/decisions, numbered, front
//    matter) and log4brains (docs/adr, date-prefixed, bullet metadata or front matter). Each ADR decides one
//    topic = (area, service), e.g. "Use Kafka for the payments event bus". A topic has a chain of 1–3 ADRs; every
//    later one supersedes the previous (both directions linked, sometimes across formats), so the deciding ADR of
//    a topic is the last of its chain, known by construction.
//  - Other markdown (runbooks, guides, postmortems, notes, service READMEs) that mentions the same technologies
//    and services: discovered by a naive "read every .md" search, not by the tool's ADR / convention globs.
//  - A few services/<svc>/ARCHITECTURE.md files (convention docs the tool does read), AGENTS.md, CONTRIBUTING.md.
//  - Source files src/<svc>/<module>.ts importing the technology in use at the time, so the pickaxe sees
//    migrations; commit messages that name technologies ("Migrate payments event bus from RabbitMQ to Kafka").
//
// The tables it draws from (technologies, services, sentence banks, commit-message templates) are data, in
// bench/data/vocabulary.ts.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import {
  AGENTS_MD,
  AREAS,
  AUTHORS,
  BAD,
  CODE_MSG,
  COMPONENTS,
  CONTRIBUTING_MD,
  DRIVERS,
  FILLER,
  GOOD,
  GUIDE,
  HEADINGS,
  NOISE,
  NOTE,
  POSTMORTEM,
  PROBLEMS,
  REASONS,
  RUNBOOK,
  TEAMS,
  type Area,
} from "./data/vocabulary";

/** Bump whenever the generated content changes: it names the cache folder. */
export const GENERATOR_VERSION = "g1";

export type SizeName = "small" | "medium" | "large";

export interface SizeSpec {
  name: SizeName;
  /** ADR files in total (including the adr-tools "Record architecture decisions" one). */
  adrs: number;
  /** Other markdown docs (not ADRs, not convention docs). */
  docs: number;
  commits: number;
  components: number;
  archDocs: number;
}

export const SIZES: Record<SizeName, SizeSpec> = {
  small: { name: "small", adrs: 20, docs: 40, commits: 500, components: 8, archDocs: 2 },
  medium: { name: "medium", adrs: 300, docs: 2000, commits: 20_000, components: 40, archDocs: 20 },
  large: { name: "large", adrs: 2000, docs: 10_000, commits: 100_000, components: 70, archDocs: 60 },
};

export const CACHE_ROOT = join(tmpdir(), "deliberative-bench-cache");
export const MANIFEST_NAME = "deliberative-bench.json";

export interface BenchQuestion {
  id: string;
  question: string;
  /** Workspace-relative path of the ADR that decides the question (the head of the topic's chain). */
  expectedPath: string;
  /** The technology that ADR chose. */
  expectedTech: string;
  /** Superseded ADRs of the same topic, oldest first. */
  supersededPaths: string[];
  form: "choice" | "adopt";
  topic: string;
}

export interface Manifest {
  generatorVersion: string;
  size: SizeName;
  spec: SizeSpec;
  counts: { adrs: number; docs: number; archDocs: number; commits: number; files: number; markdown: number };
  questions: BenchQuestion[];
  generatedMs: number;
  packBytes?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness

export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[int(rng, xs.length)];
function shuffle<T>(rng: Rng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = int(rng, i + 1);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}
const rngFor = (key: string) => mulberry32(hashString(`${GENERATOR_VERSION}|${key}`));

// ---------------------------------------------------------------------------------------------------------------
// The plan

type AdrFormat = "nygard" | "madr" | "log4brains";

interface Adr {
  key: string;
  topic: Topic;
  tech: string;
  /** Options the ADR lists besides its choice (MADR / log4brains) or mentions (Nygard). */
  alternatives: string[];
  format: AdrFormat;
  slot: number;
  path: string;
  number?: number;
  prev?: Adr;
  next?: Adr;
  /** log4brains: bullet metadata (older template) or YAML front matter. */
  bulletMeta: boolean;
}

interface Topic {
  key: string;
  area: Area;
  component: string;
  chain: Adr[];
  /** src/<component>/<module>.ts */
  srcPath: string;
}

interface Doc {
  path: string;
  kind: "runbook" | "guide" | "postmortem" | "note" | "readme" | "architecture";
  component: string;
  areas: Area[];
  slots: number[];
}

type CommitEvent =
  | { kind: "adr"; adr: Adr }
  | { kind: "doc"; doc: Doc; rev: number }
  | { kind: "migration"; topic: Topic; from: string; to: string; variant: number };

interface Plan {
  spec: SizeSpec;
  topics: Topic[];
  adrs: Adr[];
  docs: Doc[];
  events: (CommitEvent[] | undefined)[];
  /** Commit timestamps (seconds), strictly increasing. */
  times: number[];
  questions: BenchQuestion[];
}

const START_TS = Date.UTC(2014, 0, 6, 9) / 1000;
const END_TS = Date.UTC(2025, 5, 2, 17) / 1000;

function slugify(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
function capital(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
function isoDate(ts: number): string {
  return new Date(ts * 1000).toISOString().slice(0, 10);
}

/** Commit slots, handed out once each: at random (`take`) or as the first free one after a slot (`takeAfter`). */
class Slots {
  private readonly pool: number[];
  private readonly used: Uint8Array;

  constructor(
    private readonly n: number,
    rng: Rng,
  ) {
    // Slot 0 is the initial commit.
    this.pool = shuffle(rng, Array.from({ length: n - 1 }, (_, i) => i + 1));
    this.used = new Uint8Array(n);
    this.used[0] = 1;
  }

  take(k: number): number[] {
    const out: number[] = [];
    while (out.length < k && this.pool.length) {
      const s = this.pool.pop()!;
      if (!this.used[s]) {
        this.used[s] = 1;
        out.push(s);
      }
    }
    return out.sort((a, b) => a - b);
  }

  takeAfter(slot: number, within: number): number | undefined {
    for (let s = slot + 1; s < this.n && s <= slot + within; s++) {
      if (!this.used[s]) {
        this.used[s] = 1;
        return s;
      }
    }
    return undefined;
  }
}

/** What the steps of buildPlan share: one seeded stream (they draw from it in a fixed order), slots and events. */
interface PlanContext {
  spec: SizeSpec;
  rng: Rng;
  components: string[];
  times: number[];
  slots: Slots;
  events: (CommitEvent[] | undefined)[];
  at: (slot: number, e: CommitEvent) => void;
}

export function buildPlan(spec: SizeSpec): Plan {
  const rng = rngFor(`plan|${spec.name}`);
  const N = spec.commits;
  // Timestamps: evenly spread with jitter, strictly increasing.
  const times: number[] = [];
  const step = (END_TS - START_TS) / N;
  for (let i = 0; i < N; i++) times.push(Math.floor(START_TS + i * step + rng() * step * 0.9));
  const events: (CommitEvent[] | undefined)[] = new Array(N);
  const ctx: PlanContext = {
    spec,
    rng,
    components: COMPONENTS.slice(0, spec.components),
    times,
    slots: new Slots(N, rng),
    events,
    at: (slot, e) => (events[slot] ??= []).push(e),
  };
  const { topics, adrs } = planTopics(ctx);
  placeAdrs(adrs, times);
  for (const a of adrs) ctx.at(a.slot, { kind: "adr", adr: a });
  planMigrations(ctx, topics);
  const docs = planDocs(ctx, topics);
  const plan: Plan = { spec, topics, adrs: [RECORD_ADR, ...adrs], docs, events, times, questions: [] };
  plan.questions = buildQuestions(plan, rng);
  return plan;
}

/** Topics and their ADR chains. One ADR (adr-tools' "Record architecture decisions") is not a topic. */
function planTopics({ spec, rng, components, slots }: PlanContext): { topics: Topic[]; adrs: Adr[] } {
  const pairs = shuffle(
    rng,
    components.flatMap((c) => AREAS.map((a) => [a, c] as const)),
  );
  const topics: Topic[] = [];
  const adrs: Adr[] = [];
  let remaining = spec.adrs - 1;
  while (remaining > 0 && pairs.length) {
    const r = rng();
    const len = Math.min(remaining, r < 0.5 ? 1 : r < 0.85 ? 2 : 3);
    const [area, component] = pairs.pop()!;
    const techs = shuffle(rng, [...area.techs]);
    const topic: Topic = { key: `${area.id}/${component}`, area, component, chain: [], srcPath: `src/${component}/${area.module}.ts` };
    const taken = slots.take(len);
    if (taken.length < len) break;
    const f0 = rng();
    let format: AdrFormat = f0 < 0.4 ? "nygard" : f0 < 0.75 ? "madr" : "log4brains";
    for (let k = 0; k < len; k++) {
      if (k > 0 && rng() < 0.15) format = pick(rng, ["nygard", "madr", "log4brains"] as const);
      const tech = techs[k];
      const others = techs.filter((t) => t !== tech);
      const alternatives = shuffle(rng, others).slice(0, 1 + int(rng, 2));
      const prev = topic.chain[k - 1];
      if (prev && !alternatives.includes(prev.tech)) alternatives.unshift(prev.tech);
      const adr: Adr = { key: `${topic.key}#${k}`, topic, tech, alternatives, format, slot: taken[k], path: "", prev, bulletMeta: rng() < 0.5 };
      if (prev) prev.next = adr;
      topic.chain.push(adr);
      adrs.push(adr);
    }
    topics.push(topic);
    remaining -= len;
  }
  return { topics, adrs };
}

const RECORD_ADR: Adr = {
  key: "record-architecture-decisions",
  topic: undefined as unknown as Topic,
  tech: "",
  alternatives: [],
  format: "nygard",
  slot: 0,
  path: "doc/adr/0001-record-architecture-decisions.md",
  number: 1,
  bulletMeta: false,
};

/** Numbering and paths: per folder in commit order, as adr-tools / MADR / log4brains would. */
function placeAdrs(adrs: Adr[], times: number[]): void {
  const byFormat = (f: AdrFormat) => adrs.filter((a) => a.format === f).sort((a, b) => a.slot - b.slot);
  byFormat("nygard").forEach((a, i) => {
    a.number = i + 2;
    a.path = `doc/adr/${String(a.number).padStart(4, "0")}-${slugify(adrTitle(a))}.md`;
  });
  byFormat("madr").forEach((a, i) => {
    a.number = i + 1;
    a.path = `docs/decisions/${String(a.number).padStart(4, "0")}-${slugify(adrTitle(a))}.md`;
  });
  const seen = new Set<string>();
  byFormat("log4brains").forEach((a) => {
    const base = `docs/adr/${isoDate(times[a.slot]).replace(/-/g, "")}-${slugify(adrTitle(a))}`;
    let p = `${base}.md`;
    for (let k = 2; seen.has(p); k++) p = `${base}-${k}.md`;
    seen.add(p);
    a.path = p;
  });
}

/** Follow-up commits after a decision: the code moves to the new technology. */
function planMigrations({ spec, rng, slots, at }: PlanContext, topics: Topic[]): void {
  for (const t of topics) {
    t.chain.forEach((a, k) => {
      const from = k > 0 ? t.chain[k - 1].tech : undefined;
      const s = slots.takeAfter(a.slot, Math.max(3, Math.floor(spec.commits / 200)));
      if (s !== undefined) at(s, { kind: "migration", topic: t, from: from ?? "", to: a.tech, variant: int(rng, 3) });
    });
  }
}

function topicsByComponent(topics: Topic[]): Map<string, Topic[]> {
  const out = new Map<string, Topic[]>();
  for (const t of topics) out.set(t.component, [...(out.get(t.component) ?? []), t]);
  return out;
}

/** Docs: added once, edited 0–3 times later; then one ARCHITECTURE.md per service with topics (the tool reads these). */
function planDocs({ spec, rng, components, times, slots, at }: PlanContext, topics: Topic[]): Doc[] {
  const docs: Doc[] = [];
  const byComponent = topicsByComponent(topics);
  const kinds: Doc["kind"][] = ["runbook", "guide", "guide", "runbook", "postmortem", "note", "note"];
  const readmes = new Set<string>();
  for (let i = 0; i < spec.docs; i++) {
    const component = pick(rng, components);
    let kind = pick(rng, kinds);
    if (!readmes.has(component) && rng() < 0.3) kind = "readme";
    const own = byComponent.get(component) ?? [];
    const areas: Area[] = [];
    for (let k = 0; k < 1 + int(rng, 2); k++) areas.push(own.length && rng() < 0.75 ? pick(rng, own).area : pick(rng, AREAS));
    const taken = slots.take(1 + (rng() < 0.45 ? 1 + int(rng, 3) : 0));
    if (!taken.length) break;
    if (kind === "readme") readmes.add(component);
    const doc: Doc = { path: docPath(kind, component, areas[0], i + 1, times[taken[0]]), kind, component, areas, slots: taken };
    docs.push(doc);
    taken.forEach((s, rev) => at(s, { kind: "doc", doc, rev }));
  }
  for (const component of components.filter((c) => byComponent.has(c)).slice(0, spec.archDocs)) {
    const taken = slots.take(3);
    const doc: Doc = { path: `services/${component}/ARCHITECTURE.md`, kind: "architecture", component, areas: [], slots: taken };
    docs.push(doc);
    taken.forEach((s, rev) => at(s, { kind: "doc", doc, rev }));
  }
  return docs;
}

function docPath(kind: Doc["kind"], component: string, area: Area, n: number, firstTs: number): string {
  if (kind === "readme") return `services/${component}/README.md`;
  if (kind === "runbook") return `docs/runbooks/${component}/${area.module}-${n}.md`;
  if (kind === "guide") return `docs/guides/${component}/${slugify(area.noun)}-${n}.md`;
  if (kind === "postmortem") return `docs/postmortems/${isoDate(firstTs).slice(0, 4)}/${component}-${n}.md`;
  return `docs/notes/${component}-${n}.md`;
}

function adrTitle(a: Adr): string {
  return `Use ${a.tech} for the ${a.topic.component} ${a.topic.area.noun}`;
}

/** The technology a topic uses at commit `slot`: the latest decision made by then (the first one before any). */
function techAt(t: Topic, slot: number): string {
  let tech = t.chain[0].tech;
  for (const a of t.chain) if (a.slot <= slot) tech = a.tech;
  return tech;
}
function adrAt(t: Topic, slot: number): Adr | undefined {
  let out: Adr | undefined;
  for (const a of t.chain) if (a.slot <= slot) out = a;
  return out;
}

/**
 * At least 30 questions, fixed by the seed: mostly topics with a supersession chain, some single decisions.
 * "choice": "Should we use <old> or <current> for the <svc> <noun>?"; "adopt": "Should we adopt <alt> …?".
 * The deciding ADR is the last of the topic's chain either way.
 */
function buildQuestions(plan: Plan, rng: Rng): BenchQuestion[] {
  const chains = shuffle(rng, plan.topics.filter((t) => t.chain.length >= 2));
  const singles = shuffle(rng, plan.topics.filter((t) => t.chain.length === 1));
  const order: Topic[] = [];
  while (order.length < plan.topics.length && (chains.length || singles.length)) {
    const useChain = chains.length && (!singles.length || rng() < 0.7);
    order.push((useChain ? chains : singles).shift()!);
  }
  const out: BenchQuestion[] = [];
  const want = 40;
  for (let round = 0; out.length < want && round < 3; round++) {
    for (const t of order) {
      if (out.length >= want) break;
      const head = t.chain[t.chain.length - 1];
      const old = t.chain.length >= 2 ? t.chain[t.chain.length - 2].tech : undefined;
      const form: BenchQuestion["form"] = (out.length + round) % 3 === 2 ? "adopt" : "choice";
      const where = rng() < 0.5 ? `for the ${t.component} ${t.area.noun}` : `for ${t.area.noun} in the ${t.component} service`;
      let question: string;
      if (form === "choice") {
        const other = old ?? pick(rng, head.alternatives.length ? head.alternatives : t.area.techs.filter((x) => x !== head.tech));
        const [a, b] = rng() < 0.5 ? [other, head.tech] : [head.tech, other];
        question = `Should we use ${a} or ${b} ${where}?`;
      } else {
        const candidates = t.area.techs.filter((x) => x !== head.tech);
        const alt = round === 0 && old ? old : pick(rng, candidates);
        question = `Should we adopt ${alt} ${where}?`;
      }
      if (out.some((q) => q.question === question)) continue;
      out.push({
        id: `q${String(out.length + 1).padStart(2, "0")}`,
        question,
        expectedPath: head.path,
        expectedTech: head.tech,
        supersededPaths: t.chain.slice(0, -1).map((a) => a.path),
        form,
        topic: t.key,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Content

function relLink(from: string, to: string): string {
  return posix.relative(posix.dirname(from), to);
}
function adrRef(from: Adr, to: Adr): string {
  const label = to.format === "log4brains" ? posix.basename(to.path, ".md") : to.format === "madr" ? `ADR-${String(to.number).padStart(4, "0")}` : `${to.number}. ${adrTitle(to)}`;
  return `[${label}](${relLink(from.path, to.path)})`;
}

function adrContent(a: Adr, superseded: boolean, times: number[]): string {
  if (a.key === "record-architecture-decisions") {
    return `# 1. Record architecture decisions\n\nDate: ${isoDate(times[0])}\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records, as described by Michael Nygard.\n\n## Consequences\n\nSee Michael Nygard's article, linked above. New decisions go in doc/adr, docs/decisions or docs/adr.\n`;
  }
  const r = rngFor(`adr|${a.key}`);
  const t = a.topic;
  const c = t.component;
  const noun = t.area.noun;
  const date = isoDate(times[a.slot]);
  const reason = pick(r, REASONS);
  const prev = a.prev;
  const context = prev
    ? `Since ${adrRef(a, prev)} the ${c} service has used ${prev.tech} for its ${noun}. ${prev.tech} ${pick(r, PROBLEMS)}, and traffic on ${c} has grown since then. We need to revisit that decision.`
    : `The ${c} service needs ${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}. Today every team solves this differently, which makes incidents on ${c} hard to debug and onboarding slow.`;
  const alternatives = a.alternatives;
  const title = adrTitle(a);
  const decisionLine = `We will use ${a.tech} for the ${c} ${noun}, because ${reason}.${prev ? ` ${prev.tech} is retired for ${c} once the migration completes.` : ""}`;
  const next = a.next;

  if (a.format === "nygard") {
    const status = superseded && next ? `Superseded by ${adrRef(a, next)}` : "Accepted";
    const supersedes = prev ? `\n\nSupersedes ${adrRef(a, prev)}` : "";
    const considered = alternatives.length ? ` ${alternatives.join(" and ")} ${alternatives.length > 1 ? "were" : "was"} considered; ${alternatives[0]} ${pick(r, PROBLEMS)} for our workload.` : "";
    return (
      `# ${a.number}. ${title}\n\nDate: ${date}\n\n## Status\n\n${status}${supersedes}\n\n## Context\n\n${context}\n\n` +
      `## Decision\n\n${decisionLine}${considered}\n\n## Consequences\n\n` +
      `The ${c} team owns the ${a.tech} setup and its dashboards. ${capital(pick(r, BAD))}; we accept that.\n`
    );
  }

  const options = [a.tech, ...alternatives];
  const shuffled = shuffle(r, [...options]);
  const prosCons = shuffled
    .map((o) => `### ${o}\n\n* Good, because ${pick(r, GOOD)}.\n* Bad, because ${o === a.tech ? pick(r, BAD) : pick(r, BAD)}.`)
    .join("\n\n");
  const drivers = shuffle(r, [...DRIVERS]).slice(0, 3).map((d) => `* ${d}`).join("\n");
  const body =
    `## Context and Problem Statement\n\n${context}\n\n## Decision Drivers\n\n${drivers}\n\n` +
    `## Considered Options\n\n${shuffled.map((o) => `* ${o}`).join("\n")}\n\n` +
    `## Decision Outcome\n\nChosen option: "${a.tech}", because ${reason}.\n\n` +
    `### Positive Consequences\n\n* The ${c} ${noun} gets one supported setup.\n\n### Negative Consequences\n\n* ${capital(pick(r, BAD))}.\n\n` +
    `## Pros and Cons of the Options\n\n${prosCons}\n`;
  const links = [
    ...(prev ? [`* Supersedes ${adrRef(a, prev)}`] : []),
    ...(superseded && next ? [`* Superseded by ${adrRef(a, next)}`] : []),
  ];

  if (a.format === "madr") {
    const status = superseded && next ? `"superseded by ${adrRef(a, next).replace(/"/g, "'")}"` : "accepted";
    const more = prev ? `\n## More Information\n\nSupersedes ${adrRef(a, prev)}.\n` : "";
    return `---\nstatus: ${status}\ndate: ${date}\ndeciders: ${pick(r, TEAMS)}\n---\n# ${title}\n\n${body}${more}`;
  }
  // log4brains
  const linksBlock = links.length ? `\n## Links\n\n${links.join("\n")}\n` : "";
  if (a.bulletMeta) {
    const status = superseded && next ? `superseded by ${adrRef(a, next)}` : "accepted";
    return `# ${title}\n\n- Status: ${status}\n- Deciders: ${pick(r, TEAMS)}\n- Date: ${date}\n- Tags: ${c}, ${slugify(noun)}\n\n${body}${linksBlock}`;
  }
  const status = superseded ? "superseded" : "accepted";
  return `---\ndate: ${date}\nstatus: ${status}\ntags: [${c}, ${slugify(noun)}]\n---\n\n# ${title}\n\n${body}${linksBlock}`;
}

function fill(tpl: string, v: { c: string; n: string; t: string; o: string; k: number }): string {
  return tpl
    .replace(/\{c\}/g, v.c)
    .replace(/\{n\}/g, v.n)
    .replace(/\{T\}/g, capital(v.t))
    .replace(/\{t\}/g, v.t)
    .replace(/\{o\}/g, v.o)
    .replace(/\{k\}/g, String(v.k));
}

function docContent(doc: Doc, rev: number, plan: Plan, topicIndex: Map<string, Topic>): string {
  const slot = doc.slots[rev];
  if (doc.kind === "architecture") return archContent(doc, slot, plan);
  const r = rngFor(`doc|${doc.path}`);
  const bank = doc.kind === "runbook" ? RUNBOOK : doc.kind === "guide" || doc.kind === "readme" ? GUIDE : doc.kind === "postmortem" ? POSTMORTEM : NOTE;
  const vars = doc.areas.map((area) => {
    const topic = topicIndex.get(`${area.id}/${doc.component}`);
    const t = topic ? techAt(topic, slot) : pick(r, area.techs);
    const older = topic ? topic.chain.filter((a) => a.slot <= slot && a.tech !== t).map((a) => a.tech) : [];
    const o = older.length ? older[older.length - 1] : pick(r, area.techs.filter((x) => x !== t));
    return { c: doc.component, n: area.noun, t, o, k: 5 + int(r, 90) };
  });
  const title =
    doc.kind === "readme" ? `${capital(doc.component)} service` : `${capital(doc.component)} ${doc.areas[0].noun} ${doc.kind === "note" ? "notes" : doc.kind}`;
  const parts = [`# ${title}`, ""];
  for (const heading of HEADINGS[doc.kind]) {
    parts.push(`## ${heading}`, "");
    const n = 2 + int(r, 4);
    const sentences: string[] = [];
    for (let i = 0; i < n; i++) sentences.push(r() < 0.75 ? fill(pick(r, bank), pick(r, vars)) : pick(r, FILLER));
    parts.push(sentences.join(" "), "");
  }
  // Edits append a dated line, so every revision is a different blob.
  for (let k = 1; k <= rev; k++) parts.push(`_Reviewed on ${isoDate(plan.times[doc.slots[k]])}._`, "");
  return parts.join("\n");
}

function archContent(doc: Doc, slot: number, plan: Plan): string {
  const c = doc.component;
  const parts = [`# ${capital(c)} service architecture`, "", "## Overview", "", `The ${c} service is a Node.js service owned by one team. Its code lives in src/${c}/.`, ""];
  for (const t of plan.topics) {
    if (t.component !== c) continue;
    const adr = adrAt(t, slot);
    if (!adr) continue;
    parts.push(`## ${capital(t.area.noun)}`, "");
    parts.push(`The ${c} ${t.area.noun} uses ${adr.tech} (see [the decision](${relLink(doc.path, adr.path)})). Code: \`${t.srcPath}\`.`, "");
  }
  parts.push(`_Last updated ${isoDate(plan.times[slot])}._`, "");
  return parts.join("\n");
}

function srcContent(t: Topic, tech: string, rev: number): string {
  const pkg = tech.toLowerCase().replace(/[^a-z0-9-]/g, "");
  const name = `${t.component}${capital(t.area.module)}`;
  return (
    `// ${capital(t.component)} ${t.area.noun}.\n` +
    `import { createClient } from "${pkg}";\n\n` +
    `export const ${name}Config = {\n  provider: "${tech}",\n  revision: ${rev},\n  timeoutMs: ${1000 + ((rev * 37) % 5000)},\n  retries: ${1 + (rev % 4)},\n};\n\n` +
    `export function ${name}() {\n  return createClient(${name}Config);\n}\n`
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Writing the repository

export function repoDir(size: SizeName): string {
  return join(CACHE_ROOT, `${size}-${GENERATOR_VERSION}`);
}

export function readManifest(dir: string): Manifest | undefined {
  try {
    const m = JSON.parse(readFileSync(join(dir, ".git", MANIFEST_NAME), "utf8")) as Manifest;
    return m.generatorVersion === GENERATOR_VERSION ? m : undefined;
  } catch {
    return undefined;
  }
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.test",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.test",
};

function git(dir: string, args: string[]): string {
  return execFileSync("git", args, { cwd: dir, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 });
}

/** Returns the cached repository for `size`, generating it first when absent. */
export async function ensureRepo(size: SizeName, log: (m: string) => void = () => {}): Promise<{ dir: string; manifest: Manifest; generated: boolean }> {
  const dir = repoDir(size);
  const existing = existsSync(dir) ? readManifest(dir) : undefined;
  if (existing) return { dir, manifest: existing, generated: false };
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  mkdirSync(CACHE_ROOT, { recursive: true });
  const tmp = join(CACHE_ROOT, `.tmp-${size}-${GENERATOR_VERSION}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const started = performance.now();
  const spec = SIZES[size];
  const plan = buildPlan(spec);
  log(`generating ${size}: ${plan.adrs.length} ADRs, ${plan.docs.length} docs, ${spec.commits} commits → ${dir}`);
  git(tmp, ["init", "-q", "-b", "main"]);
  git(tmp, ["config", "gc.auto", "0"]);
  const counts = await streamFastImport(tmp, plan);
  const tImport = performance.now();
  git(tmp, ["reset", "-q", "--hard", "main"]);
  const tCheckout = performance.now();
  let packBytes = 0;
  try {
    const m = /size-pack: (\d+)/.exec(git(tmp, ["count-objects", "-v"]));
    packBytes = m ? Number(m[1]) * 1024 : 0;
  } catch {
    /* informational only */
  }
  const manifest: Manifest = {
    generatorVersion: GENERATOR_VERSION,
    size,
    spec,
    counts: { ...counts, commits: spec.commits },
    questions: plan.questions,
    generatedMs: Math.round(performance.now() - started),
    packBytes,
  };
  writeFileSync(join(tmp, ".git", MANIFEST_NAME), JSON.stringify(manifest, null, 2) + "\n");
  renameSync(tmp, dir);
  log(
    `generated ${size} in ${(manifest.generatedMs / 1000).toFixed(1)} s (fast-import ${((tImport - started) / 1000).toFixed(1)} s, ` +
      `checkout ${((tCheckout - tImport) / 1000).toFixed(1)} s, pack ${(packBytes / 1e6).toFixed(1)} MB)`,
  );
  return { dir, manifest, generated: true };
}

interface Change {
  path: string;
  content?: string;
}
interface Commit {
  message: string;
  changes: Change[];
}

/** What every commit of the stream reads: the plan, its own seeded stream, and the src files' revision counts. */
interface CommitContext {
  plan: Plan;
  rng: Rng;
  components: string[];
  topicIndex: Map<string, Topic>;
  byComponent: Map<string, Topic[]>;
  /** path -> revision count (src files) */
  files: Map<string, number>;
}

/** `git fast-import` on stdin, buffered in 1 MB chunks with back-pressure. */
class FastImport {
  private readonly child;
  private readonly exited: Promise<number>;
  private stderr = "";
  private buf: string[] = [];
  private bufLen = 0;

  constructor(dir: string) {
    this.child = spawn("git", ["fast-import", "--quiet"], { cwd: dir, env: GIT_ENV, stdio: ["pipe", "ignore", "pipe"] });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise<number>((resolve, reject) => {
      this.child.on("error", reject);
      this.child.on("close", (code) => resolve(code ?? 1));
    });
  }

  emit(s: string): void {
    this.buf.push(s);
    this.bufLen += s.length;
  }

  data(s: string): void {
    this.emit(`data ${Buffer.byteLength(s)}\n${s}\n`);
  }

  async maybeFlush(): Promise<void> {
    if (this.bufLen > 1 << 20) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.bufLen) return;
    const chunk = this.buf.join("");
    this.buf = [];
    this.bufLen = 0;
    if (!this.child.stdin.write(chunk)) await new Promise<void>((r) => this.child.stdin.once("drain", () => r()));
  }

  async end(): Promise<void> {
    await this.flush();
    this.child.stdin.end();
    const code = await this.exited;
    if (code !== 0) throw new Error(`git fast-import failed (${code}): ${this.stderr.slice(0, 2000)}`);
  }
}

async function streamFastImport(dir: string, plan: Plan): Promise<Omit<Manifest["counts"], "commits">> {
  const out = new FastImport(dir);
  const present = new Set<string>();
  const ctx: CommitContext = {
    plan,
    rng: rngFor(`commits|${plan.spec.name}`),
    components: COMPONENTS.slice(0, plan.spec.components),
    topicIndex: new Map(plan.topics.map((t) => [t.key, t])),
    byComponent: topicsByComponent(plan.topics),
    files: new Map(),
  };
  for (let i = 0; i < plan.spec.commits; i++) {
    const ts = plan.times[i];
    const author = AUTHORS[int(ctx.rng, AUTHORS.length)];
    const email = `${author.toLowerCase().replace(/[^a-z]+/g, ".")}@example.test`;
    const evs = plan.events[i];
    const { message, changes } = i === 0 ? initialCommit(ctx) : evs ? eventCommit(ctx, evs) : ordinaryCommit(ctx, i);
    out.emit(`commit refs/heads/main\nauthor ${author} <${email}> ${ts} +0000\ncommitter ${author} <${email}> ${ts} +0000\n`);
    out.data(message + "\n");
    for (const ch of changes) {
      out.emit(`M 100644 inline ${ch.path}\n`);
      out.data(ch.content ?? "");
      present.add(ch.path);
    }
    out.emit("\n");
    await out.maybeFlush();
  }
  await out.end();
  const markdown = [...present].filter((p) => p.endsWith(".md")).length;
  return {
    adrs: plan.adrs.length,
    docs: plan.docs.filter((d) => d.kind !== "architecture").length,
    archDocs: plan.docs.filter((d) => d.kind === "architecture").length,
    files: present.size,
    markdown,
  };
}

function initialCommit({ plan, components }: CommitContext): Commit {
  return {
    message: "Initial commit",
    changes: [
      { path: "README.md", content: `# Acme platform\n\nServices: ${components.join(", ")}.\n` },
      { path: ".gitignore", content: "node_modules/\ndist/\n.deliberations/\n" },
      { path: "package.json", content: JSON.stringify({ name: "acme-platform", private: true, workspaces: ["src/*"] }, null, 2) + "\n" },
      { path: "AGENTS.md", content: AGENTS_MD },
      { path: "CONTRIBUTING.md", content: CONTRIBUTING_MD },
      { path: plan.adrs[0].path, content: adrContent(plan.adrs[0], false, plan.times) },
    ],
  };
}

/** A planned commit: a decision, a doc added or edited, or a migration to a newly decided technology. */
function eventCommit(ctx: CommitContext, evs: CommitEvent[]): Commit {
  const { plan, rng, files } = ctx;
  const changes: Change[] = [];
  const msgs: string[] = [];
  for (const e of evs) {
    if (e.kind === "adr") {
      const a = e.adr;
      changes.push({ path: a.path, content: adrContent(a, false, plan.times) });
      if (a.prev) changes.push({ path: a.prev.path, content: adrContent(a.prev, true, plan.times) });
      const label = a.format === "log4brains" ? "ADR" : `ADR ${a.number}`;
      const verb = pick(rng, ["Record", "Add", "Accept"]);
      msgs.push(
        a.prev
          ? `${label}: use ${a.tech} for the ${a.topic.component} ${a.topic.area.noun}, superseding ${a.prev.tech}`
          : pick(rng, [`${verb} ${label}: ${adrTitle(a).toLowerCase()}`, `docs(adr): ${adrTitle(a).toLowerCase()}`, `${label}: ${adrTitle(a)}`]),
      );
    } else if (e.kind === "doc") {
      changes.push({ path: e.doc.path, content: docContent(e.doc, e.rev, plan, ctx.topicIndex) });
      const what = e.doc.kind === "architecture" ? "architecture overview" : e.doc.kind;
      msgs.push(e.rev === 0 ? `docs: add ${e.doc.component} ${what}` : `docs: update ${e.doc.component} ${what}`);
    } else {
      const t = e.topic;
      const rev = (files.get(t.srcPath) ?? 0) + 1;
      files.set(t.srcPath, rev);
      changes.push({ path: t.srcPath, content: srcContent(t, e.to, rev) });
      msgs.push(
        e.from
          ? [`Migrate ${t.component} ${t.area.noun} from ${e.from} to ${e.to}`, `${t.component}: switch ${t.area.noun} to ${e.to}`, `Replace ${e.from} with ${e.to} in ${t.component}`][e.variant]
          : [`${t.component}: introduce ${e.to} for ${t.area.noun}`, `Add ${e.to} to ${t.component}`, `${t.component}: wire up ${e.to}`][e.variant],
      );
    }
  }
  return { message: msgs.join("\n\n"), changes };
}

/** Ordinary work: a code change in a service, sometimes pure noise. */
function ordinaryCommit({ rng, components, byComponent, files }: CommitContext, i: number): Commit {
  const component = pick(rng, components);
  const own = byComponent.get(component);
  if (!own || rng() < 0.12) {
    const path = `src/${component}/index.ts`;
    const rev = (files.get(path) ?? 0) + 1;
    files.set(path, rev);
    return {
      message: `${component}: ${pick(rng, NOISE).toLowerCase()}`,
      changes: [{ path, content: `// ${capital(component)} service entry point.\nexport const revision = ${rev};\nexport * from "./handlers";\n` }],
    };
  }
  const t = pick(rng, own);
  const tech = techAt(t, i);
  const rev = (files.get(t.srcPath) ?? 0) + 1;
  files.set(t.srcPath, rev);
  const changes = [{ path: t.srcPath, content: srcContent(t, tech, rev) }];
  let message = fill(pick(rng, CODE_MSG), { c: component, n: t.area.noun, t: tech, o: "", k: 0 })
    .replace("{m}", t.area.module)
    .replace("{p}", tech.toLowerCase());
  if (rng() < 0.25) message += `\n\nRefs #${1000 + int(rng, 9000)}. ${pick(rng, FILLER)}`;
  return { message, changes };
}

// `node --import tsx bench/generate.ts [sizes]` generates (or reuses) the repositories without running the bench.
if (process.argv[1] && /generate\.ts$/.test(process.argv[1])) {
  const sizes = (process.argv[2] ?? "small,medium,large").split(",") as SizeName[];
  (async () => {
    for (const s of sizes) {
      const { dir, manifest, generated } = await ensureRepo(s, (m) => console.log(m));
      console.log(`${s}: ${dir} (${generated ? "generated" : "cached"}; ${JSON.stringify(manifest.counts)}; ${manifest.questions.length} questions)`);
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
