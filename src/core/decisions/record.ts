// The decision model of one record (issue 21): what it is about, its status, the options it weighed, the one it
// chose and each one it turned down with the reason and lines, its drivers, consequences and supersession links,
// and what could not be understood. Built from parseAdr's output; pure and deterministic.
import { z } from "zod";
import { AdrStatusSchema, LineRangeSchema, type LineRange } from "../schemas";
import type { ParsedAdr } from "../internal/adr";
import { stripInline } from "../internal/markdown";
import { headingKey, readOptions } from "./options";
import { sentencesIn } from "./prose";
import { readStatus } from "./status";

/** When a record's options are offered as options (to a question, a picker), at most this many are. */
export const MAX_OPTIONS_IN_USE = 5;

const OptionSourceSchema = z.enum(["considered-options", "alternatives", "proposal"]);

export const DecisionRecordSchema = z.object({
  path: z.string(),
  format: z.enum(["nygard", "madr", "log4brains"]),
  title: z.string(),
  /** What the record decides: its problem statement's question when it asks one, else its title. */
  subject: z.string(),
  number: z.number().int().optional(),
  /** Normalised status; "unknown" when there is none or none could be read. */
  status: AdrStatusSchema,
  /** For people: "accepted", "superseded by 0005-x.md", "no status line" (never "unknown"). */
  status_display: z.string(),
  status_source: z.enum(["front-matter", "status-line", "table", "folder", "callout", "none"]),
  date: z.string().optional(),
  /** Every option the record lists, in its order, however many. */
  considered: z.array(z.object({ name: z.string(), range: LineRangeSchema, source: OptionSourceSchema, ref: z.string().optional() })),
  /** True when more than MAX_OPTIONS_IN_USE were listed: `options` then holds only the first few. */
  considered_over_limit: z.boolean(),
  /** The options to offer: the chosen one first, then the others, at most MAX_OPTIONS_IN_USE. */
  options: z.array(z.string()).max(MAX_OPTIONS_IN_USE),
  chosen: z
    .object({
      name: z.string(),
      range: LineRangeSchema,
      how: z.enum(["chosen-option-line", "decided-marker", "outcome-names-option", "decision-prose"]),
      considered_index: z.number().int().min(0).optional(),
      /** Further considered options chosen together with it ("options 4, 5 and IV"). */
      combined_with: z.array(z.number().int().min(0)).optional(),
    })
    .optional(),
  rejected: z.array(z.object({ name: z.string(), reason: z.string().optional(), range: LineRangeSchema })),
  drivers: z.array(z.object({ text: z.string(), range: LineRangeSchema })),
  consequences: z.array(LineRangeSchema),
  supersedes: z.array(z.string()),
  superseded_by: z.array(z.string()),
  /** What was read only partly or not at all, in plain words ("the decision section names no option"). */
  not_understood: z.array(z.string()),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

/** The decision model of a parsed record. Never throws on odd input: it says what it could not read instead. */
export function decisionModelOf(parsed: ParsedAdr): DecisionRecord {
  const notUnderstood: string[] = [];
  const { lines, sections } = parsed.doc;
  if (!sections.some((s) => s.level > 0)) notUnderstood.push("no headings: the record was read as plain text");

  const status = readStatus(parsed);
  notUnderstood.push(...status.notes);
  const opts = readOptions(parsed);
  notUnderstood.push(...opts.notes);

  const considered = opts.considered.map((o) => ({ name: o.name, range: o.range, source: o.source, ...(o.ref ? { ref: o.ref } : {}) }));
  const overLimit = considered.length > MAX_OPTIONS_IN_USE;
  if (overLimit) notUnderstood.push(`${considered.length} considered options: only ${MAX_OPTIONS_IN_USE} are offered as options (the chosen one first)`);
  const chosenName = opts.chosen?.name;
  const chosenIndex = opts.chosen?.considered_index;
  const together = opts.chosen?.combined_with ?? [];
  const others = considered.filter((o, i) => !together.includes(i) && (chosenIndex !== undefined ? i !== chosenIndex : o.name !== chosenName)).map((o) => o.name);
  const options = [...(chosenName ? [chosenName] : []), ...others].slice(0, MAX_OPTIONS_IN_USE);

  const drivers: { text: string; range: LineRange }[] = [];
  const consequences: LineRange[] = [];
  sections.forEach((s, i) => {
    const name = parsed.section_names[i] ?? "";
    if (name === "decision-drivers") {
      for (const sentence of sentencesIn(lines, s.bodyStart, s.contentEnd, 40)) drivers.push({ text: sentence.text, range: { start: sentence.start, end: sentence.end } });
    }
    if (/consequences$/.test(name) || /\bconsequences\b/.test(headingKey(s.heading))) {
      const inside = consequences.some((r) => r.start <= s.start && s.end <= r.end);
      if (!inside) consequences.push({ start: s.start, end: s.end });
    }
  });

  return {
    path: parsed.path,
    format: parsed.format,
    title: parsed.title,
    subject: subjectOf(parsed),
    ...(parsed.number !== undefined ? { number: parsed.number } : {}),
    status: status.status,
    status_display: status.display,
    status_source: status.source,
    ...(parsed.date ? { date: parsed.date } : {}),
    considered,
    considered_over_limit: overLimit,
    options,
    ...(opts.chosen ? { chosen: opts.chosen } : {}),
    rejected: opts.rejected,
    drivers,
    consequences,
    supersedes: parsed.supersedes,
    superseded_by: parsed.superseded_by,
    not_understood: notUnderstood,
  };
}

/** The problem statement's question ("Which format should these records follow?"), else the title. */
function subjectOf(parsed: ParsedAdr): string {
  const { lines, sections } = parsed.doc;
  const ctx = sections.findIndex((_, i) => parsed.section_names[i] === "context");
  if (ctx >= 0) {
    const s = sections[ctx];
    for (const sentence of sentencesIn(lines, s.bodyStart, s.contentEnd, 30)) {
      if (/\?$/.test(sentence.text) && sentence.text.split(/\s+/).length <= 30) return stripInline(sentence.text);
    }
  }
  return parsed.title;
}
