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

/** Repository text for Markdown: one line, every Markdown character escaped. */
function md(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (ch) => `\\${ch}`);
}

/**
 * The report as Markdown, the same for `@deliberate /check` and the language-model tool: a summary line, then one
 * item per finding (severity, kind, place, what was decided, the decision's citation), then notes and skipped files.
 */
export function reportMarkdown(report: GuardReport, maxFindings = 30): string {
  const { findings, checked } = report;
  const out: string[] = [];
  out.push(
    findings.length
      ? `**${findings.length} likely conflict${findings.length === 1 ? "" : "s"} with recorded decisions** (checked ${checked.files} changed file${checked.files === 1 ? "" : "s"} against ${checked.decisions} decision${checked.decisions === 1 ? "" : "s"}):`
      : `**No conflict with a recorded decision** (checked ${checked.files} changed file${checked.files === 1 ? "" : "s"} against ${checked.decisions} decision${checked.decisions === 1 ? "" : "s"}).`,
    "",
  );
  for (const f of findings.slice(0, maxFindings)) {
    const d = f.decision;
    out.push(`- **${f.severity}** ${f.kind} at \`${f.file.replace(/`/g, "")}:${f.line}\`: ${md(f.message)} Decision: \`${d.path.replace(/`/g, "")}:${d.line_range.start}\` (${md(d.status)}).`);
  }
  if (findings.length > maxFindings) out.push(`- … and ${findings.length - maxFindings} more.`);
  for (const n of report.notes) out.push(`\nNote: ${md(n)}`);
  if (report.skipped.length) out.push(`\nSkipped: ${report.skipped.slice(0, 20).map((s) => `${md(s.file)} (${md(s.reason)})`).join("; ")}`);
  return `${out.join("\n")}\n`;
}
