// The guard's report as SARIF 2.1.0 (for code scanning), built with node-sarif-builder: one rule per finding kind,
// one result per finding at its file and line, the decision's citation as a related location.
import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from "node-sarif-builder";
import { CORE_VERSION } from "../config";
import { FINDING_KINDS, type FindingKind, type GuardReport, type Severity } from "./schema";

const RULE_TEXT: Record<FindingKind, { short: string; full: string }> = {
  "introduces-rejected-option": { short: "Introduces an option a decision turned down", full: "The change brings in something an in-force decision record or a picked deliberation considered and rejected." },
  "removes-chosen-option": { short: "Removes the option a decision chose", full: "The change drops a dependency or import of the option an in-force decision chose." },
  "breaks-rule": { short: "Breaks a rule in the agent instructions", full: "The change does what AGENTS.md, CLAUDE.md or a contribution guide says not to do, or drops what it says to always use." },
  "touches-decided-area": { short: "Touches an area a decision covers", full: "The change edits files a decision record names; a hint to deliberate before changing a decided area." },
};

/** A repository path as a relative URI reference (a space or "#" in a name would otherwise break it). */
function uriOf(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

const LEVEL: Record<Severity, "error" | "warning" | "note"> = { high: "error", med: "warning", low: "note" };

/** The SARIF log of a report, as JSON text. */
export function reportToSarif(report: GuardReport): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "deliberate-check", toolDriverVersion: CORE_VERSION, url: "https://example.invalid/deliberative-search" });
  for (const kind of FINDING_KINDS) {
    run.addRule(new SarifRuleBuilder().initSimple({ ruleId: kind, shortDescriptionText: RULE_TEXT[kind].short, fullDescriptionText: RULE_TEXT[kind].full }));
  }
  for (const f of report.findings) {
    const result = new SarifResultBuilder().initSimple({ level: LEVEL[f.severity], messageText: f.message, ruleId: f.kind, fileUri: uriOf(f.file), startLine: f.line });
    result.result.relatedLocations = [
      {
        id: 1,
        physicalLocation: { artifactLocation: { uri: uriOf(f.decision.path) }, region: { startLine: f.decision.line_range.start, endLine: f.decision.line_range.end } },
        message: { text: `${f.decision.title} (${f.decision.status})` },
      },
    ];
    result.result.properties = { severity: f.severity, decision: f.decision.path, matched: f.matched.text };
    run.addResult(result);
  }
  run.run.invocations = [
    {
      executionSuccessful: true,
      toolExecutionNotifications: [
        ...report.notes.map((text) => ({ level: "note" as const, message: { text } })),
        ...report.skipped.map((s) => ({ level: "note" as const, message: { text: `${s.file}: ${s.reason}` } })),
      ],
    },
  ];
  const log = new SarifBuilder();
  log.addRun(run);
  return log.buildSarifJsonString({ indent: true });
}
