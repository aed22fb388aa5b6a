// The Critic's objections as the CLI prints them after the options: severity, the text on one line (no control
// or bidi characters from the repository), and the citation numbers of the Citations list.
import { terminalSafeLine } from "../core/sanitize";
import type { OptionPicker } from "../core/schemas";

export function objectionLines(p: OptionPicker, num: (id: string) => number, wrap: (text: string, indent: string) => string): string[] {
  const objections = p.objections ?? [];
  if (!objections.length) return [];
  const lines = ["", "Objections (Critic):"];
  for (const o of objections) {
    const cites = o.citations.map((id) => `[${num(id)}]`).join(" ");
    lines.push(wrap(`${o.severity === "blocking" ? "✖ blocking" : "! concern"}  ${terminalSafeLine(o.text)}${cites ? `  ${cites}` : ""}`, "  "));
  }
  return lines;
}
