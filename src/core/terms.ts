// Query terms: the question's own content words, sharpened by the editor context, plus a rule-based vocabulary
// expansion so a question that does not use an ADR's words still finds it. This is the offline query planner;
// a model-mediated planner (draft answer + entities) implements the same QueryPlanner interface.
import type { QueryPlan } from "./schemas";
import type { QueryPlanner, QueryPlannerInput, QueryPlanResult } from "./types";

const STOPWORDS = new Set(
  (
    "a an the and or but if then else for to of in on at by with from into onto over under about as is are was were be been " +
    "being do does did done doing have has had having should would could can may might must shall will we our us you your " +
    "they them their it its this that these those there here what which who whom whose when where why how than too very " +
    "just also not no nor any all some each every both either neither more most other such only own same so s t " +
    "i me my mine he she his her use using used adopt adopting switch switching move moving migrate migrating keep keeping " +
    "pick choose prefer better best good instead versus vs between tradeoff tradeoffs trade off pattern patterns approach " +
    "approaches way ways option options decide decision todo question open thing things new old current currently still now " +
    "go going get got make makes let lets like want need needs one two three worth whether rather favour favor favours " +
    "favors others other's codebase code our repo repository project"
  ).split(/\s+/),
);

/**
 * Synonym and abbreviation groups. Any term in a group pulls in the others as expansions. Kept small and obvious;
 * it is the offline stand-in for a model's vocabulary.
 */
export const VOCABULARY: string[][] = [
  ["auth", "authentication", "login", "session", "token", "jwt", "oauth", "sso"],
  ["authz", "authorization", "permission", "permissions", "rbac", "acl"],
  ["db", "database", "store", "storage", "persistence", "sql", "postgres", "postgresql", "mysql", "mongodb", "mongo", "sqlite"],
  ["postgres", "postgresql", "pg"],
  ["mongo", "mongodb"],
  ["cache", "caching", "redis", "memcached", "memoize", "memoization"],
  ["log", "logs", "logging", "logger", "winston", "pino", "bunyan", "observability"],
  ["metrics", "telemetry", "tracing", "observability", "opentelemetry", "otel", "prometheus"],
  ["state", "store", "redux", "zustand", "mobx", "context", "recoil", "jotai"],
  ["api", "rest", "graphql", "grpc", "endpoint", "endpoints", "http"],
  ["queue", "queues", "messaging", "kafka", "rabbitmq", "sqs", "pubsub", "broker"],
  ["test", "tests", "testing", "jest", "vitest", "mocha", "unit", "e2e"],
  ["build", "bundler", "bundle", "webpack", "esbuild", "vite", "rollup"],
  ["pkg", "package", "packages", "dependency", "dependencies", "npm", "pnpm", "yarn"],
  ["config", "configuration", "settings", "env", "environment"],
  ["err", "error", "errors", "exception", "exceptions", "failure"],
  ["async", "asynchronous", "promise", "promises", "callback", "callbacks"],
  ["deploy", "deployment", "release", "ci", "cd", "pipeline"],
  ["container", "containers", "docker", "kubernetes", "k8s"],
  ["orm", "prisma", "typeorm", "sequelize", "drizzle", "knex"],
  ["ui", "frontend", "component", "components", "react", "vue", "svelte"],
  ["lint", "linter", "linting", "eslint", "prettier", "format", "formatting"],
  ["date", "dates", "time", "timezone", "moment", "dayjs", "luxon"],
  ["validation", "validate", "schema", "schemas", "zod", "yup", "joi"],
  ["retry", "retries", "backoff", "resilience"],
  ["i18n", "internationalization", "localization", "l10n", "translation"],
  ["perf", "performance", "latency", "throughput", "speed"],
  ["sec", "security", "secure", "secret", "secrets", "vulnerability"],
  ["doc", "docs", "documentation", "adr", "adrs"],
  ["mono", "monorepo", "workspace", "workspaces"],
  ["ts", "typescript"],
  ["js", "javascript"],
];

const GROUPS_BY_TERM = new Map<string, string[][]>();
for (const group of VOCABULARY) {
  for (const term of group) {
    const list = GROUPS_BY_TERM.get(term) ?? [];
    list.push(group);
    GROUPS_BY_TERM.set(term, list);
  }
}

/** Lower-cased content words of a text, in first-seen order, without stopwords, numbers or one-letter tokens. */
export function contentWords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  // Letters of any script: records and questions are not always English ("Sitzungsdaten", "sécurité").
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}.+#_-]+/u)) {
    // The lookbehind starts the trailing trim only where a run starts (/x+$/ is quadratic on a long run of x).
    const word = raw.replace(/^[._-]+/, "").replace(/(?<![._-])[._-]+$/, "");
    if (word.length < 2 || /^\d+$/.test(word) || STOPWORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
    out.push(word);
  }
  return out;
}

/** Terms from the context carry weight only when they repeat there or touch the question's vocabulary. */
function contextTerms(context: string, questionTerms: Set<string>): string[] {
  const counts = new Map<string, number>();
  for (const word of context.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 3 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()]
    .filter(([w, n]) => !questionTerms.has(w) && (n >= 2 || GROUPS_BY_TERM.has(w)))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 6)
    .map(([w]) => w);
}

export function expandTerms(terms: string[]): string[] {
  const have = new Set(terms);
  const out: string[] = [];
  for (const term of terms) {
    for (const group of GROUPS_BY_TERM.get(term) ?? []) {
      for (const t of group) {
        if (!have.has(t)) {
          have.add(t);
          out.push(t);
        }
      }
    }
  }
  return out;
}

/** A question longer than this many content words is focused on the clause that asks. */
const FOCUS_MIN_WORDS = 12;
/** The asking clause must keep at least this many content words to stand on its own. */
const FOCUS_MIN_ASKING_WORDS = 2;

/**
 * A long question is mostly setting ("We're adding a nightly export for finance; some jobs are cron entries, some
 * are CronJobs — where should scheduled work run now?"): the decision it asks about is in the sentence that asks,
 * and in that sentence's last clause after a dash, semicolon or colon. Returns that asking part and the setting
 * before it; a short question, or one whose asking part is too thin to stand alone, is all asking.
 */
export function splitAsking(question: string): { asking: string; setting: string } {
  const text = question.slice(0, 4096);
  if (contentWords(text).length <= FOCUS_MIN_WORDS) return { asking: text, setting: "" };
  const sentences = text.split(/(?<=[.!?])\s+/).filter((s) => s.trim());
  let at = sentences.length - 1;
  for (let i = sentences.length - 1; i >= 0; i--) {
    if (sentences[i].includes("?")) {
      at = i;
      break;
    }
  }
  let asking = sentences[at] ?? text;
  let setting = [...sentences.slice(0, at), ...sentences.slice(at + 1)].join(" ");
  const clauses = asking.split(/\s[\u2014\u2013-]{1,2}\s|;\s|:\s/);
  const lastClause = clauses[clauses.length - 1];
  if (clauses.length > 1 && contentWords(lastClause).length >= FOCUS_MIN_ASKING_WORDS) {
    setting = `${clauses.slice(0, -1).join(" ")} ${setting}`.trim();
    asking = lastClause;
  }
  if (contentWords(asking).length < FOCUS_MIN_ASKING_WORDS) return { asking: text, setting: "" };
  return { asking, setting };
}

export function buildRulesPlan(question: string, context?: string): QueryPlan {
  // The asking part's words are the terms; the setting's words still match, at expansion weight.
  const { asking, setting } = splitAsking(question);
  const terms = contentWords(asking);
  const fromSetting = contentWords(setting).filter((w) => !terms.includes(w));
  const fromContext = context ? contextTerms(context, new Set([...terms, ...fromSetting])) : [];
  const all = [...terms, ...fromContext];
  const expansions = [...fromSetting, ...expandTerms([...all, ...fromSetting]).filter((w) => !fromSetting.includes(w))];
  return { mode: "rules", terms: all, expansions };
}

export function createRulesPlanner(): QueryPlanner {
  return {
    name: "rules",
    async plan(input: QueryPlannerInput): Promise<QueryPlanResult> {
      return { plan: buildRulesPlan(input.question, input.context) };
    },
  };
}
