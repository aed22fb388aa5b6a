// Text renderings of a payload: Markdown (the graceful-degradation form: "Copy as Markdown", exports) and the
// CLI's terminal view. Both read only the validated contract.
import { UNDECIDABLE, type Citation, type OptionPicker, type Receipt } from "./schemas";
import { SUMMARY_STAGES, stageTitle } from "./stages";

export function citationLocation(c: Citation): string {
  if (c.commit) return `${c.commit.slice(0, 10)} ${c.path_or_url}`;
  // A decision source's record: `architecture:decisions/0007-x.md:12-20 @ 1a2b3c4d5e` (the source's commit).
  const at = c.decision_source?.commit ? ` @ ${c.decision_source.commit.slice(0, 10)}` : "";
  if (c.line_range) return `${c.path_or_url}:${c.line_range.start}-${c.line_range.end}${at}`;
  if (at) return `${c.path_or_url}${at}`;
  return c.path_or_url;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}

export function recommendationHeadline(payload: OptionPicker): string {
  const rec = payload.recommendation;
  if (rec.option_id === UNDECIDABLE) return "Undecidable on current evidence";
  const option = payload.options.find((o) => o.id === rec.option_id);
  return `Recommended: ${option?.title ?? rec.option_id}`;
}

/** Which path produced the answer: "model <name> (<host>)", "rules", or "rules (model <name> fell back)". */
export function synthesisLabel(s: Receipt["synthesis"]): string {
  if (s.mode === "model") return `model ${s.model ?? "(unnamed)"}${s.endpoint_host ? ` (${s.endpoint_host})` : ""}`;
  return s.model && (s.fallback || s.fallback_reason) ? `rules (model ${s.model} fell back)` : "rules";
}

/** The synthesis path for JSON output, beside the payload: the mode, and the model when it produced the answer. */
export function synthesisSummary(s: Receipt["synthesis"]): { mode: "rules" | "model"; model?: string; endpoint_host?: string } {
  if (s.mode !== "model") return { mode: s.mode };
  return { mode: s.mode, ...(s.model ? { model: s.model } : {}), ...(s.endpoint_host ? { endpoint_host: s.endpoint_host } : {}) };
}

/** One line when a model recommended against the record that decided the question, else undefined. */
export function modelDissentLine(payload: OptionPicker): string | undefined {
  return payload.model_dissent ? `Note: ${payload.model_dissent.note}` : undefined;
}

/** The rationale without the dissent note it ends with, for views that show the note on its own line. */
export function rationaleBeforeNote(payload: OptionPicker): string {
  const rationale = payload.recommendation.rationale;
  const note = payload.model_dissent?.note;
  return note && rationale.endsWith(note) && rationale.length > note.length ? rationale.slice(0, -note.length).trimEnd() : rationale;
}

export function receiptToMarkdown(receipt: Receipt): string {
  const p = receipt.payload;
  const lines: string[] = [];
  lines.push(`# ${p.question}`, "");
  lines.push(`> **${recommendationHeadline(p)}** (confidence: ${p.recommendation.confidence})`, ">", `> ${p.recommendation.rationale}`, "");
  if (receipt.operator_pick) {
    const picked = p.options.find((o) => o.id === receipt.operator_pick!.option_id);
    const how = receipt.operator_pick.overrode_recommendation ? "overrode the recommendation" : "accepted";
    const byAgent = receipt.picks?.at(-1)?.picked_by === "agent" ? " by an agent" : "";
    lines.push(`**Picked${byAgent}:** ${picked?.title ?? receipt.operator_pick.option_id} (${how}, ${receipt.operator_pick.at})`);
    if (receipt.operator_pick.reason) lines.push(`**Reason:** ${receipt.operator_pick.reason}`);
    lines.push("");
  }
  if (receipt.picks && receipt.picks.length > 1) {
    lines.push("**Pick history:**", "");
    for (const k of receipt.picks) {
      const title = p.options.find((o) => o.id === k.option_id)?.title ?? k.option_id;
      lines.push(`- ${k.at} · ${escapeCell(k.who)}${k.picked_by === "agent" ? " (agent)" : ""}: ${escapeCell(title)}${k.reason ? ` — ${escapeCell(k.reason)}` : ""}`);
    }
    lines.push("");
  }
  lines.push("| Option | Cost | Risk | Supports | Dissent |", "| --- | --- | --- | --- | --- |");
  for (const o of p.options) {
    const mark = o.id === p.recommendation.option_id ? " ★" : "";
    lines.push(`| ${escapeCell(o.title)}${mark} | ${o.cost} | ${o.risk} | ${o.supports.map((id) => refOf(p, id)).join(", ") || "—"} | ${o.dissent.map((id) => refOf(p, id)).join(", ") || "—"} |`);
  }
  lines.push("");
  for (const o of p.options) {
    lines.push(`## ${o.title}`, "", o.summary, "");
    for (const t of o.tradeoffs) lines.push(`- ${t}`);
    if (o.tradeoffs.length) lines.push("");
  }
  if (p.objections?.length) {
    // The Critic's case against the recommendation, before anyone picks.
    lines.push("## Objections", "");
    for (const o of p.objections) lines.push(`- **${o.severity}:** ${escapeCell(o.text)}${o.citations.length ? ` ${o.citations.map((id) => refOf(p, id)).join(", ")}` : ""}`);
    lines.push("");
  }
  lines.push("## Citations", "");
  p.citations.forEach((c, i) => {
    const when = c.fetched_at ? ` (fetched ${c.fetched_at})` : "";
    const failed = c.resolution_failed ? " **(no longer resolves)**" : "";
    lines.push(`${i + 1}. [${c.kind}] \`${citationLocation(c)}\`${when}${failed}${c.title ? ` — ${c.title}` : ""}`);
  });
  lines.push("", "## Stages", "");
  for (const name of SUMMARY_STAGES) {
    const s = receipt.stages[name];
    if (s) lines.push(`- ${stageTitle(name)}: ${s.status}${s.reason ? ` — ${s.reason}` : ""}`);
  }
  lines.push(
    "",
    // The raw retrieval score means nothing to a reader (it is kept in the receipt), so it is not shown.
    `Coverage: ${p.coverage.internal} internal, ${p.coverage.external} external.`,
    `Receipt \`${receipt.receipt_id}\` · synthesis ${receipt.synthesis.mode}${receipt.synthesis.model ? ` (${receipt.synthesis.model})` : ""} · config ${receipt.config_version} · signed ${receipt.signing.key_id}`,
    "",
  );
  return lines.join("\n");
}

function refOf(p: OptionPicker, id: string): string {
  const index = p.citations.findIndex((c) => c.id === id);
  return index >= 0 ? `[${index + 1}]` : id;
}
