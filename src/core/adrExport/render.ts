// One AdrContent written in the repository's format: MADR 4 (front matter) or MADR 2–3 (`* Status:` bullets),
// Nygard / adr-tools (`# N. Title`, Status / Context / Decision / Consequences), and log4brains (MADR with
// metadata bullets and a Links section). Each keeps the headings its own parser and tooling expect.
import type { AdrContent, AdrLink } from "./content";
import type { AdrFormat } from "./layout";

const bullets = (items: string[], marker = "*") => items.map((i) => `${marker} ${i}`);
const sentence = (s: string) => `${s.replace(/[.\s]+$/, "")}.`;
// The label is already inert link text (linkLabel): escaping it again would show the backslashes.
const link = (l: AdrLink) => `[${l.label}](${l.target})`;
const yamlString = (s: string) => JSON.stringify(s);

function chosenLine(c: AdrContent): string {
  // "because Billing needs …" reads as "because billing needs …"; an acronym ("ADR …", "API …") keeps its case.
  const because = /^[A-Z][a-z]/.test(c.because) ? c.because.charAt(0).toLowerCase() + c.because.slice(1) : c.because;
  return `Chosen option: "${c.chosenTitle.replace(/"/g, "'")}", because ${sentence(because)}`;
}

function consequenceBullets(c: AdrContent, marker = "*"): string[] {
  const lines = [
    ...c.consequences.good.map((t) => `Good, because ${sentence(t)}`),
    ...c.consequences.bad.map((t) => `Bad, because ${sentence(t)}`),
    ...c.consequences.neutral.map((t) => `Neutral: ${sentence(t)}`),
    `Cost ${c.cost}, risk ${c.risk} (as the deliberation assessed the chosen option).`,
  ];
  return bullets(lines, marker);
}

function prosAndCons(c: AdrContent, level: string, marker = "*"): string[] {
  const out: string[] = [];
  for (const o of c.options) {
    out.push(`${level} ${o.title}`, "", o.summary, "");
    const items = [...o.good.map((g) => `Good, because ${g}`), ...o.bad.map((b) => `Bad, because ${b}`)];
    out.push(...(items.length ? bullets(items, marker) : [`${marker} Neutral: no cited evidence took a side on this option.`]), "");
  }
  return out;
}

function moreInformation(c: AdrContent, marker = "*"): string[] {
  return [
    "Citations:",
    "",
    ...(c.citations.length ? bullets(c.citations, marker) : [`${marker} (none: no evidence took a side)`]),
    "",
    `Exported from the signed deliberation receipt \`${c.receiptId}\` (\`${c.receiptFile}\`), signature sha256 \`${c.signatureHash}\`. \`deliberate verify\` checks the receipt.`,
  ];
}

function madr(c: AdrContent, frontMatter: boolean): string {
  const head = frontMatter
    ? ["---", `status: ${c.status}`, `date: ${c.date}`, `decision-makers: ${c.decisionMakers.map(yamlString).join(", ")}`, "---", "", `# ${c.title}`, ""]
    : [`# ${c.title}`, "", `* Status: ${c.status}`, `* Deciders: ${c.decisionMakers.join(", ")}`, `* Date: ${c.date}`, ""];
  return [
    ...head,
    ...c.supersedes.flatMap((s) => [`Supersedes ${link(s)}`, ""]),
    "## Context and Problem Statement",
    "",
    ...c.context.flatMap((p) => [p, ""]),
    "## Considered Options",
    "",
    ...bullets(c.options.map((o) => o.title)),
    "",
    "## Decision Outcome",
    "",
    ...decisionLines(c),
    "### Consequences",
    "",
    ...consequenceBullets(c),
    "",
    "## Pros and Cons of the Options",
    "",
    ...prosAndCons(c, "###"),
    "## More Information",
    "",
    ...moreInformation(c),
    "",
  ].join("\n");
}

/**
 * The decision itself: the chosen option and why, then the override note when the pick overrode the
 * recommendation, and the agent note when an agent made the pick (the record is then only proposed).
 */
function decisionLines(c: AdrContent): string[] {
  return [chosenLine(c), "", ...(c.overrideNote ? [c.overrideNote, ""] : []), ...(c.agentNote ? [c.agentNote, ""] : [])];
}

function nygard(c: AdrContent): string {
  const title = c.number !== undefined ? `${c.number}. ${c.title}` : c.title;
  return [
    `# ${title}`,
    "",
    `Date: ${c.date}`,
    "",
    "## Status",
    "",
    c.status === "proposed" ? "Proposed" : "Accepted",
    "",
    ...c.supersedes.flatMap((s) => [`Supersedes ${link(s)}`, ""]),
    "## Context",
    "",
    ...c.context.flatMap((p) => [p, ""]),
    "## Decision",
    "",
    ...decisionLines(c),
    `Decided by ${c.decisionMakers.join(", ")}. Options that were weighed:`,
    "",
    ...prosAndCons(c, "####"),
    "## Consequences",
    "",
    ...consequenceBullets(c),
    "",
    "## References",
    "",
    ...moreInformation(c),
    "",
  ].join("\n");
}

function log4brains(c: AdrContent): string {
  return [
    `# ${c.title}`,
    "",
    `- Status: ${c.status}`,
    `- Deciders: ${c.decisionMakers.join(", ")}`,
    `- Date: ${c.date}`,
    "",
    "## Context and Problem Statement",
    "",
    ...c.context.flatMap((p) => [p, ""]),
    "## Considered Options",
    "",
    ...bullets(c.options.map((o) => o.title), "-"),
    "",
    "## Decision Outcome",
    "",
    ...decisionLines(c),
    "### Positive Consequences",
    "",
    ...bullets([...c.consequences.good, ...c.consequences.neutral].map(sentence), "-"),
    ...(c.consequences.good.length + c.consequences.neutral.length ? [] : ["- None recorded."]),
    "",
    "### Negative Consequences",
    "",
    ...bullets(c.consequences.bad.map(sentence), "-"),
    `- Cost ${c.cost}, risk ${c.risk} (as the deliberation assessed the chosen option).`,
    "",
    "## Pros and Cons of the Options",
    "",
    ...prosAndCons(c, "###", "-"),
    "## Links",
    "",
    ...c.supersedes.map((s) => `- Supersedes ${link(s)}`),
    ...moreInformation(c, "-"),
    "",
  ].join("\n");
}

export function renderAdr(c: AdrContent, format: AdrFormat, opts: { frontMatter: boolean }): string {
  if (format === "nygard") return nygard(c);
  if (format === "log4brains") return log4brains(c);
  return madr(c, opts.frontMatter);
}
