// `deliberate check [--diff REF | --staged | --files F...] [--repo DIR] [--json | --sarif] [--fail-on high|med|never]`:
// the decision guard (core/guard/). Checks the working tree against HEAD by default; --staged checks what a commit
// would record (the pre-commit hook), --diff REF what the branch changed since it left REF (CI), --files only those
// files against HEAD (relative to the --repo folder). Exit 1 when a finding reaches --fail-on (default high), 2 for
// bad input, 4 when the check could not run (git timed out, an internal error) or, at --fail-on high|med, ran only in
// part (a change longer than the line budget). Everything a record or the change wrote passes the terminal
// sanitiser before it is printed.
import { hostCorpusCache } from "../core/internal/corpus/store";
import { ChangeInputError, checkChange, ownPublicKeyFrom, reportFails, reportToSarif, type ChangeSource, type FailOn, type GuardReport } from "../core/guard";
import { isCancellation } from "../core/cancel";
import { terminalSafeJson, terminalSafeLine } from "../core/sanitize";
import { oneLine } from "../core/text";
import { UsageError, cancelOnSigint, parseOptions, repoOption } from "./common";

export const CHECK_USAGE = "deliberate check [--diff REF | --staged | --files F...] [--repo DIR] [--json | --sarif] [--fail-on high|med|never]";

export interface CheckIo {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

function sourceOf(values: Record<string, unknown>, positionals: string[]): ChangeSource {
  const files = [...((values.files as string[] | undefined) ?? [])];
  // `--files a b c`: the option takes one value; the rest arrive as positionals.
  if (files.length) files.push(...positionals);
  else if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0].slice(0, 60))} (usage: ${CHECK_USAGE})`);
  const modes = [values.diff !== undefined, !!values.staged, files.length > 0].filter(Boolean).length;
  if (modes > 1) throw new UsageError(`give one of --diff, --staged or --files (usage: ${CHECK_USAGE})`);
  if (values.diff !== undefined) return { kind: "ref", ref: values.diff as string };
  if (values.staged) return { kind: "staged" };
  if (files.length) return { kind: "files", files };
  return { kind: "worktree" };
}

function failOnOf(value: unknown): FailOn {
  const v = (value as string | undefined) ?? "high";
  if (v !== "high" && v !== "med" && v !== "never") throw new UsageError(`--fail-on: expected high, med or never, got ${JSON.stringify(v.slice(0, 40))}`);
  return v;
}

function printText(report: GuardReport, io: CheckIo): void {
  const { findings, checked } = report;
  for (const f of findings) {
    const d = f.decision;
    io.out(terminalSafeLine(`${f.severity.toUpperCase().padEnd(4)} ${f.kind}  ${f.file}:${f.line}`));
    io.out(terminalSafeLine(`     ${f.message}`));
    io.out(terminalSafeLine(`     decision: ${d.path}:${d.line_range.start}${d.line_range.end !== d.line_range.start ? `-${d.line_range.end}` : ""} (${d.status})`));
  }
  for (const s of report.skipped) io.out(terminalSafeLine(`skipped ${s.file}: ${s.reason}`));
  for (const n of report.notes) io.out(terminalSafeLine(`note: ${n}`));
  const counts = (["high", "med", "low"] as const).map((s) => `${findings.filter((f) => f.severity === s).length} ${s}`).join(", ");
  io.out(`${findings.length} finding${findings.length === 1 ? "" : "s"} (${counts}); checked ${checked.files} file${checked.files === 1 ? "" : "s"} against ${checked.decisions} decision${checked.decisions === 1 ? "" : "s"}${report.limits.truncated ? `; ${cutReason(report.limits)}` : ""}`);
}

/** Exit code of a check that could not run (or not fully), never confused with findings (1) or bad input (2). */
export const CHECK_FAILED_TO_RUN = 4;

export async function checkCommand(argv: string[], io: CheckIo): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      repo: { type: "string" },
      diff: { type: "string" },
      staged: { type: "boolean" },
      files: { type: "string", multiple: true },
      json: { type: "boolean" },
      sarif: { type: "boolean" },
      "fail-on": { type: "string" },
    },
    { usage: CHECK_USAGE },
  );
  if (values.json && values.sarif) throw new UsageError(`give --json or --sarif, not both (usage: ${CHECK_USAGE})`);
  const source = sourceOf(values, positionals);
  const failOn = failOnOf(values["fail-on"]);
  const repo = repoOption(values.repo as string | undefined);
  let report: GuardReport;
  try {
    report = await cancelOnSigint((signal) => checkChange(repo, source, { signal, cache: hostCorpusCache(io.env), ownPublicKeyPem: ownPublicKeyFrom(io.env) }));
  } catch (err) {
    if (err instanceof ChangeInputError) throw new UsageError(err.message);
    if ((err as Error)?.name === "UnsafeRepositoryError") throw new UsageError((err as Error).message);
    if (isCancellation(err) || (err as Error)?.name === "ReceiptsDirError" || (err as Error)?.name === "ReceiptInputError") throw err;
    // Exit 1 means "a finding reached --fail-on": a check that could not run says so with a code of its own.
    io.err(`deliberate check: the check could not run: ${terminalSafeLine(oneLine(err))}`);
    return CHECK_FAILED_TO_RUN;
  }
  if (values.json) io.out(terminalSafeJson(JSON.stringify(report, null, 2)));
  else if (values.sarif) io.out(terminalSafeJson(reportToSarif(report)));
  else printText(report, io);
  if (reportFails(report, failOn)) return 1;
  // A change longer than the line budget was checked only in part: at a threshold that is no pass (exit 4, not 1,
  // which means "a finding"); `--fail-on never` only reports.
  if (report.limits.truncated && failOn !== "never") {
    io.err(`deliberate check: ${cutReason(report.limits)}, so the change was checked only in part (see the skipped files); exit ${CHECK_FAILED_TO_RUN}`);
    return CHECK_FAILED_TO_RUN;
  }
  return 0;
}

/** Why a check read only part of the change: the line budget, or the time budget for matching. */
function cutReason(limits: { max_diff_lines: number; timed_out?: boolean; time_budget_ms?: number }): string {
  return limits.timed_out ? `the matching stopped at the ${Math.round((limits.time_budget_ms ?? 0) / 1000)} s time budget` : `the diff was cut at ${limits.max_diff_lines} lines`;
}
