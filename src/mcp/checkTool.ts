// check_change: the decision guard (core/guard/) for agents. An agent passes the unified diff it is about to propose
// (or a base ref, or nothing for the working tree) and gets the same JSON findings `deliberate check --json` prints,
// so it can see that a change adds what an ADR turned down or breaks an AGENTS.md rule before a person does.
import type { z } from "zod";
import { hostCorpusCache } from "../core/internal/corpus/store";
import { ChangeInputError, checkChange, ownPublicKeyFrom, type ChangeSource, type GuardReport } from "../core/guard";
import { ToolInputError, type ToolContext, type ToolResult } from "./toolResult";
import type { CheckChangeInput } from "./toolSchemas";

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
    lines.push(`- **${f.severity}** ${f.kind} at \`${f.file}:${f.line}\`: ${f.message} Decision: \`${d.path}:${d.line_range.start}-${d.line_range.end}\` (${d.status}).`);
  }
  if (findings.length > 50) lines.push(`- … ${findings.length - 50} more in the structured result.`);
  for (const n of report.notes) lines.push(`Note: ${n}`);
  if (report.skipped.length) lines.push(`Skipped: ${report.skipped.map((s) => `${s.file} (${s.reason})`).join("; ")}`);
  return lines.join("\n");
}

export async function checkChangeTool(args: z.infer<typeof CheckChangeInput>, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo);
  if (args.diff !== undefined && args.base !== undefined) throw new ToolInputError("give diff or base, not both");
  const source: ChangeSource = args.diff !== undefined ? { kind: "text", diff: args.diff } : args.base !== undefined ? { kind: "ref", ref: args.base } : { kind: "worktree" };
  let report: GuardReport;
  try {
    report = await checkChange(repo, source, { signal: ctx.signal, cache: hostCorpusCache(ctx.env), ownPublicKeyPem: ownPublicKeyFrom(ctx.env) });
  } catch (err) {
    if (err instanceof ChangeInputError || (err as Error)?.name === "UnsafeRepositoryError") throw new ToolInputError((err as Error).message);
    throw err;
  }
  return { text: markdownOf(report), structured: report as unknown as Record<string, unknown> };
}
