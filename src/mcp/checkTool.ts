// check_change: the decision guard (core/guard/) for agents. An agent passes the unified diff it is about to propose
// (or a base ref, or nothing for the working tree) and gets the same JSON findings `deliberate check --json` prints,
// so it can see that a change adds what an ADR turned down or breaks an AGENTS.md rule before a person does.
// The check itself runs in the server's worker pool (workerPool.ts), as `deliberate` does: matching a large change
// against many decisions is synchronous work, and the server's own thread must keep answering list_receipts,
// get_receipt and cancellations meanwhile.
import type { z } from "zod";
import { hostCorpusCache } from "../core/internal/corpus/store";
import { ChangeInputError, checkChange, ownPublicKeyFrom, type ChangeSource, type GuardReport } from "../core/guard";
import { terminalSafeLine } from "../core/sanitize";
import { ToolInputError, type ToolContext, type ToolResult } from "./toolResult";
import type { CheckChangeInput } from "./toolSchemas";

/** What a check needs once the main thread has resolved the repository against the allowed roots: plain data. */
export interface CheckJob {
  /** The repository, a real path inside an allowed root. */
  repo: string;
  source: ChangeSource;
}

/** Runs a check somewhere else (a worker thread of the pool), so the server's message loop stays free. */
export interface CheckRunner {
  check(job: CheckJob, signal: AbortSignal): Promise<ToolResult>;
}

/** Text from the repository or the change, as one inert line (the whole result passes terminalSafe again). */
const safe = (text: string) => terminalSafeLine(text);

function markdownOf(report: GuardReport): string {
  const lines: string[] = [];
  const { findings, checked } = report;
  lines.push(
    findings.length
      ? `${findings.length} likely conflict${findings.length === 1 ? "" : "s"} with recorded decisions (checked ${checked.files} files against ${checked.decisions} decisions):`
      : `No conflict with a recorded decision (checked ${checked.files} files against ${checked.decisions} decisions).`,
  );
  for (const f of findings.slice(0, 50)) {
    const d = f.decision;
    lines.push(`- **${f.severity}** ${f.kind} at \`${safe(f.file)}:${f.line}\`: ${safe(f.message)} Decision: \`${safe(d.path)}:${d.line_range.start}-${d.line_range.end}\` (${safe(d.status)}).`);
  }
  if (findings.length > 50) lines.push(`- … ${findings.length - 50} more in the structured result.`);
  for (const n of report.notes) lines.push(`Note: ${safe(n)}`);
  if (report.skipped.length) lines.push(`Skipped: ${report.skipped.map((s) => `${safe(s.file)} (${safe(s.reason)})`).join("; ")}`);
  return lines.join("\n");
}

/** The check and its rendering: in a worker thread of the server's pool, or in this thread when there is none. */
export async function runCheck(job: CheckJob, host: { env: NodeJS.ProcessEnv; signal: AbortSignal }): Promise<ToolResult> {
  let report: GuardReport;
  try {
    report = await checkChange(job.repo, job.source, { signal: host.signal, cache: hostCorpusCache(host.env), ownPublicKeyPem: ownPublicKeyFrom(host.env) });
  } catch (err) {
    if (err instanceof ChangeInputError || (err as Error)?.name === "UnsafeRepositoryError") throw new ToolInputError((err as Error).message);
    throw err;
  }
  return { text: markdownOf(report), structured: report as unknown as Record<string, unknown> };
}

export async function checkChangeTool(args: z.infer<typeof CheckChangeInput>, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo);
  if (args.diff !== undefined && args.base !== undefined) throw new ToolInputError("give diff or base, not both");
  const source: ChangeSource = args.diff !== undefined ? { kind: "text", diff: args.diff } : args.base !== undefined ? { kind: "ref", ref: args.base } : { kind: "worktree" };
  const job: CheckJob = { repo, source };
  return ctx.checks ? ctx.checks.check(job, ctx.signal) : runCheck(job, { env: ctx.env, signal: ctx.signal });
}
