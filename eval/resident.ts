// The eval's resident mode (`npm run eval -- --resident`): each repository's questions are answered by ONE running
// MCP server (`deliberate mcp`, the process an agent keeps open), driven over stdio by the SDK's own client, one
// question at a time, each call timed. The first question on a server also pays for loading the corpus (the worker
// thread, the snapshot, the history index) unless the server warmed up first (src/mcp/warm.ts: the eval waits for
// that and reports it as start-up time), so latency is summarised both with and without it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { WARM_UP_DONE } from "../src/mcp/server";
import { percentile } from "./metrics";

export interface ResidentServerOptions {
  /** The built CLI (dist/cli.js or the eval's private copy of it). */
  cli: string;
  repoDir: string;
  env: NodeJS.ProcessEnv;
  /** The history search's budget, as the fresh-process mode passes it (`--git-budget-ms`). */
  gitBudgetMs?: string;
  /** A call that takes longer is abandoned (the SDK cancels it) and counted as an error. */
  timeoutMs: number;
  /** Node flags for the server process, e.g. ["--cpu-prof", "--cpu-prof-dir=DIR"] (one profile per thread). */
  nodeArgs?: string[];
}

/** One answered call: the `deliberate` tool's structuredContent, or why there is none. */
export interface ResidentAnswer {
  ms: number;
  payload?: unknown;
  error?: string;
  timedOut: boolean;
}

/** Server-side lines kept for an error message (the server logs one line per call). */
const STDERR_KEEP = 16_000;

export class ResidentServer {
  private stderrText = "";

  private constructor(
    private readonly client: Client,
    private readonly transport: StdioClientTransport,
    private readonly timeoutMs: number,
    /** From spawning the server to the end of the MCP handshake. */
    readonly startMs: number,
    /**
     * From spawning the server to the end of its warm-up (the corpus and history index loaded, src/mcp/warm.ts),
     * which the eval waits for before the first question; undefined when the server does not warm up.
     */
    readonly warmMs?: number,
  ) {}

  /**
   * Spawns `node <cli> mcp --repo <dir> --offline --no-cache [--git-budget-ms MS]` and connects to it: offline and
   * without the turn cache, exactly as the fresh-process mode runs `deliberate "<q>" --offline --no-cache`.
   */
  static async start(opts: ResidentServerOptions): Promise<ResidentServer> {
    const started = performance.now();
    const args = [...(opts.nodeArgs ?? []), opts.cli, "mcp", "--repo", opts.repoDir, "--offline", "--no-cache", ...(opts.gitBudgetMs ? ["--git-budget-ms", opts.gitBudgetMs] : [])];
    const env = Object.fromEntries(Object.entries(opts.env).filter((e): e is [string, string] => e[1] !== undefined));
    const transport = new StdioClientTransport({ command: process.execPath, args, env, cwd: opts.repoDir, stderr: "pipe" });
    const client = new Client({ name: "deliberative-search-eval", version: "1.0.0" });
    let early = "";
    transport.stderr?.on("data", (d: Buffer) => (early = (early + d.toString("utf8")).slice(-STDERR_KEEP)));
    try {
      await client.connect(transport, { timeout: opts.timeoutMs });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw new Error(`deliberate mcp did not start: ${(err as Error).message}${early ? ` (${lastLine(early)})` : ""}`);
    }
    const startMs = performance.now() - started;
    // The server logs one line when its warm-up is over: the questions are timed from then on, and the warm-up is
    // reported as start-up time. Not waited for when it is switched off, nor past the call timeout.
    let warmMs: number | undefined;
    if (opts.env.DELIBERATIVE_MCP_WARM !== "off") {
      const deadline = performance.now() + opts.timeoutMs;
      while (!early.includes(WARM_UP_DONE) && performance.now() < deadline && transport.pid !== null) await new Promise((r) => setTimeout(r, 10));
      if (early.includes(WARM_UP_DONE)) warmMs = performance.now() - started;
    }
    const server = new ResidentServer(client, transport, opts.timeoutMs, startMs, warmMs);
    server.stderrText = early;
    transport.stderr?.on("data", (d: Buffer) => (server.stderrText = (server.stderrText + d.toString("utf8")).slice(-STDERR_KEEP)));
    return server;
  }

  /** Asks one question (offline, forced past the classifier, as the fresh-process mode's --force) and times it. */
  async ask(question: string): Promise<ResidentAnswer> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    try {
      const result = (await this.client.callTool({ name: "deliberate", arguments: { question, offline: true, force: true } }, undefined, {
        timeout: this.timeoutMs,
      })) as CallToolResult;
      const ms = elapsed();
      if (result.isError) return { ms, timedOut: false, error: textOf(result) || "isError without text" };
      if (result.structuredContent === undefined) return { ms, timedOut: false, error: "no structuredContent" };
      return { ms, timedOut: false, payload: result.structuredContent };
    } catch (err) {
      const message = (err as Error).message;
      return { ms: elapsed(), timedOut: /timed? ?out/i.test(message), error: message };
    }
  }

  /** The server process's id (null once it exited): the bench reads its CPU time. */
  get pid(): number | null {
    return this.transport.pid;
  }

  /** The server's stderr so far (its log), for an error report. */
  stderr(): string {
    return this.stderrText;
  }

  /** Closes stdin: the server finishes and exits. */
  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join(" ").trim();
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter(Boolean).pop()?.slice(0, 300) ?? "";
}

// ---------------------------------------------------------------------------------------------------------------
// Latency, with and without each server's first question

export interface ResidentTiming {
  ms: number;
  /** The first question its server answered (it paid for the corpus load). */
  first: boolean;
}

export interface LatencySummary {
  questions: number;
  p50_ms?: number;
  p95_ms?: number;
  /** Every question but each server's first. */
  after_first: { questions: number; p50_ms?: number; p95_ms?: number };
  /** Each server's first question alone. */
  first: { questions: number; p50_ms?: number; max_ms?: number };
}

const round = (v: number | undefined) => (v === undefined ? undefined : Math.round(v));

export function summariseLatency(timings: ResidentTiming[]): LatencySummary {
  const all = timings.map((t) => t.ms);
  const later = timings.filter((t) => !t.first).map((t) => t.ms);
  const firsts = timings.filter((t) => t.first).map((t) => t.ms);
  return {
    questions: all.length,
    p50_ms: round(percentile(all, 50)),
    p95_ms: round(percentile(all, 95)),
    after_first: { questions: later.length, p50_ms: round(percentile(later, 50)), p95_ms: round(percentile(later, 95)) },
    first: { questions: firsts.length, p50_ms: round(percentile(firsts, 50)), max_ms: firsts.length ? Math.round(Math.max(...firsts)) : undefined },
  };
}

/**
 * Groups question indexes by repository, keeping the question order inside each and the repositories in the order
 * of their first question: one server per group.
 */
export function byRepository<T extends { repo: string }>(items: T[]): { repo: string; indexes: number[] }[] {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const list = groups.get(item.repo);
    if (list) list.push(i);
    else groups.set(item.repo, [i]);
  });
  return [...groups].map(([repo, indexes]) => ({ repo, indexes }));
}
