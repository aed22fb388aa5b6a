// Warming a deliberation worker before its first call: what every question on a repository needs loaded — the
// English parser, the discovery snapshot, the docs corpus with both search indexes and the history index (SQLite's
// WebAssembly compiled, the database opened and queried once) — is loaded while the client is still idle, so the
// agent's first question is not the slow one. Nothing here changes an answer: each step is the very function a
// question calls first (the same settings, so the same snapshot keys), and what it leaves behind is the in-memory
// copy a question would have made of the same files; one throw-away deliberation (nothing written, a key of its
// own) compiles the rest of the pipeline. A call that arrives first stops the remaining steps (worker.ts). A repository whose history index is missing or behind is left
// as it is: the first question builds or updates it the host's way, exactly as without the warm-up.
import { classifyQuestion } from "../core/classify";
import { resolveConfig } from "../core/config";
import { discoverWithSnapshot } from "../core/internal/corpus/discovery";
import { hostCorpusCache } from "../core/internal/corpus/store";
import { prepareDocsCorpus } from "../core/internal/docsExpert";
import { checkRepository } from "../core/internal/gitSafety";
import { selectTerms } from "../core/internal/gitTerms";
import { readRepoState, searchIndex, DOC_PATHSPECS } from "../core/internal/history";
import { readIndexMeta } from "../core/internal/history/search";
import { deliberate } from "../core/pipeline";
import { generateSigningKey, type SigningKey } from "../core/receipts/signing";
import { oneLine } from "../core/text";
import { deliberationConfig } from "./deliberateTool";
import type { McpSettings } from "./toolResult";

export interface WarmJob {
  /** The repositories the server serves (real paths), warmed one after another. */
  repos: string[];
  settings: McpSettings;
}

export interface WarmReport {
  ms: number;
  /** A call came first and stopped the remaining steps. */
  cut?: boolean;
  /** The warm-up itself failed (each repository's own failure is in its entry). */
  error?: string;
  repos: { repo: string; ms: number; documents: number; history: "ready" | "not ready" | "off" | "failed"; error?: string }[];
}

/** The warm-up's own question: common words, so every stage has something to do. */
const WARM_QUESTION = "Should we use PostgreSQL or MongoDB to store the orders?";

let key: SigningKey | undefined;
/** A key of the warm-up's own, never written anywhere: its receipt is not written either. */
const warmKey = () => (key ??= generateSigningKey());

/** Loads everything a first question would load, repository by repository; a step that fails is reported, not thrown. */
export async function warmUp(job: WarmJob, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<WarmReport> {
  const started = performance.now();
  classifyQuestion("Should we use PostgreSQL or MongoDB for orders?");
  const repos: WarmReport["repos"] = [];
  let pipelineWarm = false;
  for (const repo of job.repos) {
    if (signal.aborted) break;
    const t = performance.now();
    const entry: WarmReport["repos"][number] = { repo, ms: 0, documents: 0, history: "off" };
    try {
      // Twice: the repository check is kept between questions only under a proof taken before git ran, so the first
      // question finds it kept (internal/gitStateCache.ts).
      await checkRepository(repo, signal).catch(() => undefined);
      await checkRepository(repo, signal).catch(() => undefined);
      const config = resolveConfig(deliberationConfig(job.settings, job.settings.offline));
      const cache = hostCorpusCache(env);
      const found = await discoverWithSnapshot(repo, config, { signal, cache });
      entry.documents = (await prepareDocsCorpus(found.set, { repo, cache, signal })).documents;
      signal.throwIfAborted();
      if (env.DELIBERATIVE_HISTORY_INDEX !== "off") entry.history = warmHistory(await readRepoState(repo, signal));
      signal.throwIfAborted();
      // One deliberation that writes nothing compiles the rest of the pipeline (ranking, synthesis, the Critic, the
      // code-usage count) before the first real one. Only on a current history index: it must not start or advance
      // a build, nor index the whole history for itself (no index kept).
      if (!pipelineWarm && entry.history === "ready") {
        await deliberate({
          repo,
          question: WARM_QUESTION,
          config,
          force: true,
          writeReceipt: false,
          useCache: false,
          learning: false,
          signingKey: warmKey(),
          signal,
          history: { build: "none" },
          ...(cache ? { corpusCache: cache } : {}),
        });
        pipelineWarm = true;
      }
    } catch (err) {
      if (signal.aborted) break;
      entry.error = oneLine(err);
    }
    entry.ms = Math.round(performance.now() - t);
    repos.push(entry);
  }
  return { ms: Math.round(performance.now() - started), repos, ...(signal.aborted ? { cut: true } : {}) };
}

/**
 * Opens a current history index and runs one query on it (read only: a missing, stale or foreign index is left to
 * the first question, which builds, updates or replaces it the host's way).
 */
function warmHistory(state: Awaited<ReturnType<typeof readRepoState>>): WarmReport["repos"][number]["history"] {
  if ("error" in state || !state.head) return "not ready";
  try {
    const meta = readIndexMeta(state.file);
    const current = meta.head === state.head && (meta.shallow ?? "") === state.shallow && meta.pathspecs === JSON.stringify(DOC_PATHSPECS);
    if (!current) return "not ready";
    searchIndex(state.file, selectTerms(["decision"], 1, 1, new Set()), 1);
    return "ready";
  } catch {
    return "failed";
  }
}
