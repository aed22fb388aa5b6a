// What the editor shows of a guard report (core/guard/): one diagnostic per finding on its changed line, a hover
// that cites the decision, and the question "Deliberate on This" asks. Pure (no vscode import), so it is tested
// under plain Node; guardDiagnostics.ts turns these into vscode objects.
import type { Finding, GuardReport } from "../../core/guard/schema";

/** The diagnostic source, so hovers and quick fixes recognise the guard's own diagnostics. */
export const GUARD_SOURCE = "Deliberative Search";

export interface GuardMark {
  /** Repository-relative path of the changed file. */
  file: string;
  /** 0-based line. */
  line: number;
  severity: "error" | "warning" | "information";
  /** The diagnostic's message (one sentence). */
  message: string;
  /** The diagnostic's code: the finding kind. */
  code: Finding["kind"];
  finding: Finding;
}

const SEVERITY: Record<Finding["severity"], GuardMark["severity"]> = { high: "error", med: "warning", low: "information" };

/** The report's findings grouped by changed file, for the files that are inside the repository (all of them are repository-relative). */
export function marksByFile(report: GuardReport): Map<string, GuardMark[]> {
  const out = new Map<string, GuardMark[]>();
  for (const f of report.findings) {
    if (!f.file || f.file.startsWith("/") || f.file.split("/").includes("..")) continue;
    const mark: GuardMark = { file: f.file, line: Math.max(0, f.line - 1), severity: SEVERITY[f.severity], message: f.message, code: f.kind, finding: f };
    out.set(f.file, [...(out.get(f.file) ?? []), mark]);
  }
  return out;
}

/** The hover's Markdown: what was decided, where (a link opening the decision at its lines), and its status. */
export function hoverMarkdown(f: Finding, openLink: string): string {
  const d = f.decision;
  const lines = d.line_range.start === d.line_range.end ? `line ${d.line_range.start}` : `lines ${d.line_range.start}-${d.line_range.end}`;
  const escape = (s: string) => s.replace(/[\\`*_{}[\]()#+!|<>]/g, (c) => `\\${c}`);
  return [
    `**Decision guard** · ${f.severity} · ${f.kind}`,
    "",
    escape(f.message),
    "",
    `Decision: [${escape(d.title)}](${openLink}) — \`${d.path}\`, ${lines} (${escape(d.status)})`,
  ].join("\n");
}

/** The question "Deliberate on This" asks: the conflict, stated so the deliberation weighs the decision again. */
export function deliberationQuestion(f: Finding): string {
  const what = f.matched.subject;
  if (f.kind === "introduces-rejected-option") return `Should we use ${what} in ${f.file} even though ${f.decision.path} turned it down, or keep to that decision?`;
  if (f.kind === "removes-chosen-option") return `Should we move away from ${what} in ${f.file} even though ${f.decision.path} chose it?`;
  if (f.kind === "breaks-rule") return `Should ${f.file} use ${what} despite the rule in ${f.decision.path} (line ${f.decision.line_range.start}), or follow the rule?`;
  return `Should the change to ${f.file} follow "${f.decision.title}" (${f.decision.path}), or does that decision need revisiting?`;
}
