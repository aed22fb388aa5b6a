// Marks an existing ADR as superseded, in its own format: a front-matter `status:`, a "## Status: …" heading, the
// status line of a Status section, or a `* Status:` / `**Status:**` metadata line. Only that line changes (or, when
// the record has no status at all, one line is added), so the diff a reviewer sees is one line.
import { parseAdr } from "../internal/adr";
import type { AdrLink } from "./content";

const METADATA_STATUS = /^(\s*(?:[-*+]\s+)?(?:\*\*|__)?status(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*)(.+?)\s*$/i;
const FRONT_MATTER_STATUS = /^(\s*status\s*:\s*)(.*)$/i;

/** The label is already inert link text (linkLabel), so it is not escaped again. */
function linkText(l: AdrLink): string {
  return `[${l.label}](${l.target})`;
}

/** The text of `oldPath` with its status changed to "Superseded by [new](link)". */
export function supersededText(oldText: string, oldPath: string, by: AdrLink): string {
  const eol = oldText.includes("\r\n") ? "\r\n" : "\n";
  const parsed = parseAdr(oldPath, oldText);
  const lines = parsed.doc.lines.slice();
  const value = `Superseded by ${linkText(by)}`;
  const fm = parsed.doc.frontMatter;
  const done = () => lines.join(eol);
  if (fm && "status" in fm.data) {
    for (let n = fm.startLine + 1; n < fm.endLine; n++) {
      const m = FRONT_MATTER_STATUS.exec(lines[n - 1]);
      if (m) {
        lines[n - 1] = `${m[1]}${JSON.stringify(value.replace(/^S/, "s"))}`;
        return done();
      }
    }
  }
  for (const s of parsed.doc.sections) {
    if (s.level >= 1 && /^status\s*:/i.test(s.heading.replace(/[*_`]/g, ""))) {
      lines[s.start - 1] = `${"#".repeat(s.level)} Status: ${value}`;
      return done();
    }
  }
  const section = parsed.sections.status;
  if (section) {
    for (let n = section.start + 1; n <= section.end; n++) {
      const line = lines[n - 1].trim();
      if (!line || /^#/.test(line) || /^(?:[-*+]\s+)?(?:\*\*|__)?supersedes\b/i.test(line)) continue;
      lines[n - 1] = value;
      return done();
    }
    lines.splice(section.start, 0, "", value);
    return done();
  }
  const firstH2 = parsed.doc.sections.find((s) => s.level >= 2);
  const metaEnd = firstH2 ? firstH2.start - 1 : lines.length;
  for (let n = fm ? fm.endLine + 1 : 1; n <= metaEnd; n++) {
    const m = METADATA_STATUS.exec(lines[n - 1]);
    if (m) {
      lines[n - 1] = `${m[1]}${value}`;
      return done();
    }
  }
  if (fm) {
    lines.splice(fm.endLine - 1, 0, `status: ${JSON.stringify(value.replace(/^S/, "s"))}`);
    return done();
  }
  // No status anywhere: a Status section right after the title.
  const title = parsed.doc.sections.find((s) => s.level === 1);
  const at = title ? title.start : 0;
  lines.splice(at, 0, "", "## Status", "", value);
  return done();
}
