// What `deliberate check` reports (issue 22): each likely conflict between a change and an in-force decision, with the
// decision's citation, the offending file and line, and how directly the change names the thing; plus what was
// checked, what was skipped and why, and whether the diff was cut at its line limit.
import { z } from "zod";
import { LineRangeSchema } from "../schemas";

export const FINDING_KINDS = ["introduces-rejected-option", "removes-chosen-option", "breaks-rule", "touches-decided-area"] as const;
export const SEVERITIES = ["high", "med", "low"] as const;

export const FindingKindSchema = z.enum(FINDING_KINDS);
export const SeveritySchema = z.enum(SEVERITIES);
export type FindingKind = z.infer<typeof FindingKindSchema>;
export type Severity = z.infer<typeof SeveritySchema>;

export const DecisionCitationSchema = z.object({
  path: z.string().min(1),
  line_range: LineRangeSchema,
  title: z.string(),
  /** A record's display status ("accepted", "no status line"), "rule" for an instruction, "picked" for a receipt. */
  status: z.string(),
});
export type DecisionCitation = z.infer<typeof DecisionCitationSchema>;

export const FindingSchema = z.object({
  kind: FindingKindSchema,
  severity: SeveritySchema,
  decision: DecisionCitationSchema,
  /** Repository-relative path of the changed file. */
  file: z.string().min(1),
  /** 1-based line in the changed file (for a removal: where the removed line stood in the new version). */
  line: z.number().int().min(1),
  /** One sentence: what the change does, what was decided and why. */
  message: z.string().min(1),
  /** The name as the change wrote it ("tailwindcss") and the decided option or rule subject it matched. */
  matched: z.object({ text: z.string(), subject: z.string(), via: z.enum(["dependency", "import", "infra", "code", "config", "string", "comment", "doc", "path"]) }),
});
export type Finding = z.infer<typeof FindingSchema>;

export const SkippedFileSchema = z.object({ file: z.string(), reason: z.string() });

export const GuardReportSchema = z.object({
  findings: z.array(FindingSchema),
  checked: z.object({
    /** Changed files read for findings. */
    files: z.number().int().min(0),
    /** In-force decisions (records, rules, picked receipts) the change was matched against. */
    decisions: z.number().int().min(0),
  }),
  /** Files not matched, each with a one-line reason (binary, rename only, deleted, a record itself, a lock file). */
  skipped: z.array(SkippedFileSchema),
  limits: z.object({
    max_diff_lines: z.number().int().min(1),
    /**
     * True when only part of the change was checked: the diff was longer than max_diff_lines (or its byte limit) and
     * only its head was read, or the check's time budget ran out before every file was matched (timed_out).
     */
    truncated: z.boolean(),
    /** The whole check's time budget, in milliseconds. */
    time_budget_ms: z.number().int().min(1).optional(),
    /** True when the time budget ran out: the files not matched are among the skipped, and a note says so. */
    timed_out: z.boolean().optional(),
  }),
  /** What the reader should know: a truncated diff, a malformed hunk, a record that could not be read. */
  notes: z.array(z.string()),
});
export type GuardReport = z.infer<typeof GuardReportSchema>;
