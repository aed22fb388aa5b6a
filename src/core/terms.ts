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
    "approaches way ways option options decide decision todo question open thing things new old current currently still " +
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
  for (const raw of text.toLowerCase().split(/[^a-z0-9.+#_-]+/)) {
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
  for (const word of context.toLowerCase().split(/[^a-z0-9]+/)) {
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

export function buildRulesPlan(question: string, context?: string): QueryPlan {
  const terms = contentWords(question);
  const fromContext = context ? contextTerms(context, new Set(terms)) : [];
  const all = [...terms, ...fromContext];
  return { mode: "rules", terms: all, expansions: expandTerms(all) };
}

export function createRulesPlanner(): QueryPlanner {
  return {
    name: "rules",
    async plan(input: QueryPlannerInput): Promise<QueryPlanResult> {
      return { plan: buildRulesPlan(input.question, input.context) };
    },
  };
}
