// What the @deliberate chat participant shows for a receipt, as a list of editor-neutral parts: Markdown, inline
// anchors and references to cited files (with their line ranges) or URLs. Pure and vscode-free, so the unit tests
// render real receipts; chatParticipant.ts turns the parts into stream calls.
//
// Everything in a payload came from the repository or a model, so every piece of its text is escaped before it
// becomes Markdown: no link, image or HTML in a receipt can render as one in the chat.
import { isAbsolute } from "node:path";
import { UNDECIDABLE } from "../core/constants";
import type { Citation, OptionPicker, Receipt } from "../core/schemas";

/** Where a citation points: a file inside the repository (repo-relative, maybe a 1-based line range) or a web page. */
export type CitationTarget = { kind: "file"; path: string; range?: { start: number; end: number } } | { kind: "url"; url: string };

export type ChatPart = { kind: "markdown"; text: string } | { kind: "anchor"; target: CitationTarget; title: string } | { kind: "reference"; target: CitationTarget };

/** Escapes Markdown (and the HTML Markdown would let through) in text from a receipt; newlines become spaces. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (ch) => `\\${ch}`);
}

/** A citation's target, or undefined when it cannot be opened from the chat (a commit, a path that leaves the repo). */
export function citationTarget(c: Citation): CitationTarget | undefined {
  if (c.kind === "external") {
    return /^https?:\/\//i.test(c.path_or_url) ? { kind: "url", url: c.path_or_url } : undefined;
  }
  if (c.commit && (c.precision_class === "commit" || !c.line_range)) return undefined;
  const path = c.path_or_url.replace(/\\/g, "/");
  if (!path || isAbsolute(path) || /^[a-z]:/i.test(path) || path.split("/").includes("..")) return undefined;
  return { kind: "file", path, ...(c.line_range ? { range: { start: c.line_range.start, end: c.line_range.end } } : {}) };
}

function citationLabel(c: Citation): string {
  if (c.commit) return `${c.commit.slice(0, 10)} ${c.path_or_url}`;
  if (c.line_range) return `${c.path_or_url}:${c.line_range.start}-${c.line_range.end}`;
  return c.path_or_url;
}

export function recommendedTitle(p: OptionPicker): string | undefined {
  if (p.recommendation.option_id === UNDECIDABLE) return undefined;
  return p.options.find((o) => o.id === p.recommendation.option_id)?.title ?? p.recommendation.option_id;
}

/** The recommendation callout: a quote block with the headline, confidence and rationale. */
export function recommendationCallout(p: OptionPicker): string {
  const title = recommendedTitle(p);
  const headline = title ? `Recommended: ${escapeMarkdown(title)}` : "Undecidable on current evidence";
  return `> **${headline}** (confidence: ${p.recommendation.confidence})\n>\n> ${escapeMarkdown(p.recommendation.rationale)}\n\n`;
}

function citationNumbers(p: OptionPicker, ids: string[]): string {
  const numbers = ids.map((id) => p.citations.findIndex((c) => c.id === id) + 1).filter((n) => n > 0);
  return numbers.length ? numbers.map((n) => `[${n}]`).join(" ") : "none";
}

/** Each option with its cost, risk, tradeoffs and the citations that support or dissent. */
export function optionsMarkdown(p: OptionPicker): string {
  const lines: string[] = [];
  for (const o of p.options) {
    const star = o.id === p.recommendation.option_id ? " ★" : "";
    lines.push(`### ${escapeMarkdown(o.title)}${star}`, "", escapeMarkdown(o.summary), "");
    lines.push(`Cost ${o.cost} · risk ${o.risk} · supported by ${citationNumbers(p, o.supports)} · dissent ${citationNumbers(p, o.dissent)}`, "");
    for (const t of o.tradeoffs) lines.push(`- ${escapeMarkdown(t)}`);
    if (o.tradeoffs.length) lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

/** The citations, numbered as the options refer to them, each an anchor when it can be opened. */
function citationParts(p: OptionPicker): ChatPart[] {
  if (p.citations.length === 0) return [{ kind: "markdown", text: "No citations: the evidence was too thin.\n\n" }];
  const parts: ChatPart[] = [{ kind: "markdown", text: "### Citations\n\n" }];
  p.citations.forEach((c, i) => {
    const target = citationTarget(c);
    const title = c.title ? ` — ${escapeMarkdown(c.title)}` : "";
    parts.push({ kind: "markdown", text: `${i + 1}. \\[${c.kind}\\] ` });
    if (target) parts.push({ kind: "anchor", target, title: citationLabel(c) });
    else parts.push({ kind: "markdown", text: `\`${citationLabel(c).replace(/`/g, "'")}\`` });
    parts.push({ kind: "markdown", text: `${title}\n` });
  });
  parts.push({ kind: "markdown", text: "\n" });
  return parts;
}

/** The whole answer for a receipt: references first (the chat lists them), then callout, options, citations. */
export function receiptChatParts(receipt: Receipt, opts: { cached?: boolean } = {}): ChatPart[] {
  const p = receipt.payload;
  const seen = new Set<string>();
  const references: ChatPart[] = [];
  for (const c of p.citations) {
    const target = citationTarget(c);
    const key = target && JSON.stringify(target);
    if (!target || !key || seen.has(key)) continue;
    seen.add(key);
    references.push({ kind: "reference", target });
  }
  const footer = `Receipt \`${receipt.receipt_id}\`${opts.cached ? " (from the cache)" : ""} · synthesis ${receipt.synthesis.mode} · signed ${receipt.signing.key_id}. Pick in the option picker; the pick is signed into the receipt.\n`;
  return [...references, { kind: "markdown", text: recommendationCallout(p) }, { kind: "markdown", text: optionsMarkdown(p) }, ...citationParts(p), { kind: "markdown", text: footer }];
}

/** What a chat turn about a receipt leaves behind for its follow-ups (ChatResult.metadata). */
export interface DeliberatedTurn {
  kind: "deliberated";
  receiptId: string;
  folderUri: string;
  question: string;
  options: Array<{ id: string; title: string }>;
  recommended?: string;
}

export interface ChatFollowupLike {
  prompt: string;
  label: string;
  command: string;
}

/**
 * Follow-ups after a deliberation: pick any option (the recommended one first), export the receipt as an ADR when
 * that command exists, and deliberate again with the chat's model when the run used none.
 */
export function followupsFor(turn: DeliberatedTurn, opts: { exportAvailable: boolean; modelOffered: boolean }): ChatFollowupLike[] {
  const ordered = [...turn.options].sort((a, b) => Number(b.id === turn.recommended) - Number(a.id === turn.recommended));
  const out: ChatFollowupLike[] = ordered.map((o) => ({
    prompt: o.title,
    label: o.id === turn.recommended ? `Pick “${o.title}” (recommended)` : `Pick “${o.title}” instead`,
    command: "pick",
  }));
  if (opts.exportAvailable) out.push({ prompt: turn.receiptId, label: "Export as ADR", command: "adr" });
  if (opts.modelOffered) out.push({ prompt: turn.question, label: "Deliberate with a model", command: "model" });
  return out;
}

/** The option a `/pick` prompt names: its id, its exact title, or the one title that contains the prompt. */
export function optionFromPrompt(turn: Pick<DeliberatedTurn, "options">, prompt: string): { id: string; title: string } | undefined {
  const want = prompt.trim().replace(/^["“]|["”]$/g, "").toLowerCase();
  if (!want) return undefined;
  const exact = turn.options.find((o) => o.id.toLowerCase() === want || o.title.toLowerCase() === want);
  if (exact) return exact;
  const partial = turn.options.filter((o) => o.title.toLowerCase().includes(want));
  return partial.length === 1 ? partial[0] : undefined;
}

/** The turn a chat result carries, if it is one of ours (metadata crosses the chat history untyped). */
export function asDeliberatedTurn(metadata: unknown): DeliberatedTurn | undefined {
  const m = metadata as Partial<DeliberatedTurn> | undefined;
  if (!m || m.kind !== "deliberated" || typeof m.receiptId !== "string" || typeof m.folderUri !== "string" || !Array.isArray(m.options)) return undefined;
  return m as DeliberatedTurn;
}

export function turnOf(receipt: Receipt, folderUri: string): DeliberatedTurn {
  const p = receipt.payload;
  return {
    kind: "deliberated",
    receiptId: receipt.receipt_id,
    folderUri,
    question: p.question,
    options: p.options.map((o) => ({ id: o.id, title: o.title })),
    ...(p.recommendation.option_id !== UNDECIDABLE ? { recommended: p.recommendation.option_id } : {}),
  };
}
