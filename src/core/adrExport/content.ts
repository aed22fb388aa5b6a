// What an exported ADR says, taken from a picked receipt and independent of the format it is written in: the
// question and its file context, the options, the chosen one and why (the recommendation's rationale, or the
// override and its reason), its trade-offs, each option's supporting and dissenting evidence, and every citation
// with the receipt id and the hash of the receipt's signature.
import { sha256 } from "../hash";
import { citationLocation } from "../render";
import { UNDECIDABLE, type Citation, type Option, type PickRecord, type Receipt } from "../schemas";
import { codeSpan, excerptLine, plainInline, plainParagraph } from "./plainText";

export interface AdrLink {
  /** Link text, e.g. "3. Use REST for the public API", already inert (plainText.ts linkLabel). */
  label: string;
  /** Relative link target from the new ADR. */
  target: string;
}

export interface AdrOptionContent {
  title: string;
  summary: string;
  good: string[];
  bad: string[];
}

/** Every string here is already inert Markdown (plainText.ts). */
export interface AdrContent {
  title: string;
  number?: number;
  date: string;
  decisionMakers: string[];
  context: string[];
  options: AdrOptionContent[];
  chosenTitle: string;
  because: string;
  /** "proposed" when an agent made the pick: only a person's pick makes an accepted record. */
  status: "accepted" | "proposed";
  /** Set when the pick overrode the recommendation. */
  overrideNote?: string;
  /** Set when an agent made the pick: who, and that a person has yet to accept it. */
  agentNote?: string;
  consequences: { good: string[]; bad: string[]; neutral: string[] };
  cost: string;
  risk: string;
  citations: string[];
  receiptId: string;
  receiptFile: string;
  signatureHash: string;
  supersedes: AdrLink[];
}

export interface ContentOptions {
  date: string;
  number?: number;
  title?: string;
  supersedes?: AdrLink[];
  receiptsDir: string;
  /** Who decided when the pick only says "you" (the CLI's signer name). */
  decisionMaker?: string;
}

/** The latest pick, when an agent (the MCP server's record_pick) made it rather than a person. */
export function agentPick(receipt: Receipt): PickRecord | undefined {
  const last = receipt.picks?.at(-1);
  return receipt.operator_pick && last?.picked_by === "agent" && last.option_id === receipt.operator_pick.option_id ? last : undefined;
}

export function pickedOption(receipt: Receipt): Option | undefined {
  const pick = receipt.operator_pick;
  return pick ? receipt.payload.options.find((o) => o.id === pick.option_id) : undefined;
}

/** The ADR's title: the chosen option and the question it answers, e.g. "Zustand: Redux or Zustand for the cart state?". */
export function defaultAdrTitle(receipt: Receipt): string {
  const chosen = pickedOption(receipt)?.title ?? "Decision";
  const q = receipt.question.replace(/\s+/g, " ").trim();
  return `${chosen}: ${q.charAt(0).toUpperCase()}${q.slice(1)}`.slice(0, 160);
}

function citationLine(c: Citation, n: number): string {
  const where = c.commit ? `commit ${codeSpan(c.commit.slice(0, 12))} ${codeSpan(c.path_or_url)}` : c.kind === "external" ? plainInline(c.path_or_url, 500) : codeSpan(citationLocation(c));
  const when = c.fetched_at ? `, fetched ${plainInline(c.fetched_at)}` : "";
  const title = c.title ? ` — ${plainInline(c.title, 160)}` : "";
  const failed = c.resolution_failed ? " (no longer resolved when the receipt was made)" : "";
  return `[${n}] ${where}${when}${title}${failed}`;
}

/** "<source title>: “<quoted line>” ([n] location)": the evidence quoted, never restated as this record's own words. */
function evidenceBullet(c: Citation, n: number): string {
  const quote = plainInline(excerptLine(c.excerpt), 240);
  const source = plainInline(c.title ?? c.path_or_url, 160);
  const where = c.commit ? `commit ${c.commit.slice(0, 10)}` : plainInline(citationLocation(c), 200);
  return `${source}${quote && !source.includes(quote) && !quote.startsWith(source) ? `: “${quote}”` : ""} (${n ? `[${n}] ` : ""}${where})`;
}

function optionContent(o: Option, number: (id: string) => number, cite: (id: string) => Citation | undefined): AdrOptionContent {
  const good: string[] = [];
  const bad: string[] = [];
  for (const id of o.supports) {
    const c = cite(id);
    if (c) good.push(evidenceBullet(c, number(id)));
  }
  for (const id of o.dissent) {
    const c = cite(id);
    if (c) bad.push(evidenceBullet(c, number(id)));
  }
  return { title: plainInline(o.title, 200), summary: plainParagraph(o.summary), good, bad };
}

function tradeoffBuckets(o: Option | undefined): AdrContent["consequences"] {
  const out: AdrContent["consequences"] = { good: [], bad: [], neutral: [] };
  for (const t of o?.tradeoffs ?? []) {
    const m = /^\s*([+−-]|·)\s*(.*)$/.exec(t);
    const text = plainInline(m ? m[2] : t, 400);
    if (!text) continue;
    if (m?.[1] === "+") out.good.push(text);
    else if (m && (m[1] === "−" || m[1] === "-")) out.bad.push(text);
    else out.neutral.push(text);
  }
  return out;
}

/** The Critic's objections are risks the decision takes on: listed with the bad consequences, cited. */
function withObjections(c: AdrContent["consequences"], objections: NonNullable<Receipt["payload"]["objections"]>, number: (id: string) => number): AdrContent["consequences"] {
  const risks = objections.map((o) => {
    const refs = o.citations.map(number).filter((n) => n > 0).map((n) => `[${n}]`).join(" ");
    return `${plainInline(`the Critic objected (${o.severity}): ${o.text}`, 600)}${refs ? ` (${refs})` : ""}`;
  });
  return { ...c, bad: [...c.bad, ...risks] };
}

function whyChosen(receipt: Receipt, chosen: Option): { because: string; overrideNote?: string } {
  const p = receipt.payload;
  const pick = receipt.operator_pick!;
  const recommended = p.options.find((o) => o.id === p.recommendation.option_id);
  const agent = agentPick(receipt);
  const overrider = agent ? `The agent ${agent.who ? `"${agent.who}" ` : ""}` : "The operator ";
  if (!pick.overrode_recommendation) {
    const because = p.recommendation.option_id === UNDECIDABLE ? pick.reason ?? chosen.summary : p.recommendation.rationale;
    return { because: plainInline(because, 1500) };
  }
  const because = pick.reason ? pick.reason : `the decision makers preferred it over the recommended "${recommended?.title ?? p.recommendation.option_id}"`;
  const note =
    `The deliberation recommended "${recommended?.title ?? p.recommendation.option_id}" (confidence ${p.recommendation.confidence}): ${p.recommendation.rationale} ` +
    `${overrider}overrode that recommendation${pick.reason ? " for the reason above" : " without giving a reason"}.`;
  return { because: plainInline(because, 2000), overrideNote: plainParagraph(note, 2500) };
}

function decisionMakers(receipt: Receipt, fallback?: string): string[] {
  const agent = agentPick(receipt);
  if (agent) return [plainInline(`${agent.who || "an agent"} (agent)`, 200)];
  const who = receipt.picks?.at(-1)?.who;
  const named = who && who !== "you" && !/^unknown/.test(who) ? who : fallback;
  return [plainInline(named ?? "the operator", 200)];
}

export function adrContent(receipt: Receipt, opts: ContentOptions): AdrContent {
  const p = receipt.payload;
  const chosen = pickedOption(receipt);
  if (!chosen) throw new Error(`receipt ${receipt.receipt_id} has no pick`);
  const byId = new Map(p.citations.map((c, i) => [c.id, { c, n: i + 1 }]));
  const number = (id: string) => byId.get(id)?.n ?? 0;
  const cite = (id: string) => byId.get(id)?.c;
  const context = [plainParagraph(p.question, 4096)];
  if (receipt.context?.file) {
    context.push(`The question was raised in ${codeSpan(receipt.context.file)}${receipt.context.line ? ` at line ${receipt.context.line}` : ""}.`);
  }
  context.push(
    `It was deliberated over ${p.coverage.internal} internal and ${p.coverage.external} external source(s) on ${receipt.created_at.slice(0, 10)}; the evidence is listed under the citations below.`,
  );
  const why = whyChosen(receipt, chosen);
  const agent = agentPick(receipt);
  const agentNote = agent
    ? `Proposed, not accepted: a coding agent (${plainInline(agent.who || "unnamed", 200)}) picked this option through the MCP server on ${plainInline(agent.at.slice(0, 10))}, ` +
      "not a person. It supersedes no record until a person accepts it: pick the option in the editor or with `deliberate pick`, then export again."
    : undefined;
  return {
    title: plainInline(opts.title ?? defaultAdrTitle(receipt), 200),
    ...(opts.number !== undefined ? { number: opts.number } : {}),
    date: opts.date,
    decisionMakers: decisionMakers(receipt, opts.decisionMaker),
    context,
    options: p.options.map((o) => optionContent(o, number, cite)),
    chosenTitle: plainInline(chosen.title, 200),
    status: agent ? "proposed" : "accepted",
    ...why,
    ...(agentNote ? { agentNote } : {}),
    consequences: withObjections(tradeoffBuckets(chosen), p.objections ?? [], number),
    cost: chosen.cost,
    risk: chosen.risk,
    citations: p.citations.map((c, i) => citationLine(c, i + 1)),
    receiptId: receipt.receipt_id,
    receiptFile: `${opts.receiptsDir}/${receipt.receipt_id}.json`,
    signatureHash: sha256(receipt.signature),
    supersedes: opts.supersedes ?? [],
  };
}
