// Summarises a V8 .cpuprofile (node --cpu-prof): self time by source file and by function, so the bench can say
// where the time goes without a profiler UI. `node --import tsx bench/profile.ts file.cpuprofile` prints one.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileRow {
  key: string;
  ms: number;
  share: number;
}
export interface ProfileSummary {
  totalMs: number;
  byFile: ProfileRow[];
  byFunction: ProfileRow[];
  /** Inclusive time of selected pipeline functions (a function's own time plus its callees'). */
  inclusive: ProfileRow[];
}

const INCLUSIVE_OF = [
  "discoverArtifacts",
  "runDocsExpert",
  "parseAdr",
  "parseMarkdown",
  "rankTextSections",
  "enforceSupersession",
  "supersessionGraph",
  "runGitExpert",
  "fuseRankedLists",
  "synthesize",
  "signReceipt",
  "writeReceipt",
  "writeEvidence",
  "readTurnCache",
  "loadIgnoreRules",
  "readArtifact",
  "caseInsensitiveBases",
  "mentionedPaths",
  "isFileInside",
  "sha256",
  "normaliseText",
  "fg",
  "FastGlob",
];

function fileOf(url: string, root: string): string {
  if (!url) return "";
  let p = url;
  if (p.startsWith("file://")) {
    try {
      p = fileURLToPath(p);
    } catch {
      /* keep the url */
    }
  }
  const nm = p.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = p.slice(nm + "/node_modules/".length).split("/");
    return `node_modules/${rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (p.startsWith("node:") || !p.startsWith("/")) return p;
  return relative(root, p);
}

export function summariseCpuProfile(file: string, root: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const totalMs = [...self.values()].reduce((a, b) => a + b, 0);
  const fileAgg = new Map<string, number>();
  const fnAgg = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const f = fileOf(n.callFrame.url, root) || `(${n.callFrame.functionName || "native"})`;
    fileAgg.set(f, (fileAgg.get(f) ?? 0) + ms);
    const fn = `${n.callFrame.functionName || "(anonymous)"} ${fileOf(n.callFrame.url, root)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ""}`.trim();
    fnAgg.set(fn, (fnAgg.get(fn) ?? 0) + ms);
  }

  // Inclusive time per named function: sum self time of the subtree, counting each root-to-leaf path once even
  // when the function recurses (only the outermost frame of that name counts).
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, ms] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur)!.callFrame.functionName;
      if (INCLUSIVE_OF.includes(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
      }
    }
  }

  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .map(([key, ms]) => ({ key, ms: Math.round(ms * 10) / 10, share: totalMs ? ms / totalMs : 0 }))
      .sort((a, b) => b.ms - a.ms);
  return { totalMs, byFile: rows(fileAgg).slice(0, 40), byFunction: rows(fnAgg).slice(0, 60), inclusive: rows(inclusive) };
}

if (process.argv[1] && /profile\.ts$/.test(process.argv[1]) && process.argv[2]) {
  const s = summariseCpuProfile(process.argv[2], process.cwd());
  console.log(`total ${s.totalMs.toFixed(0)} ms`);
  for (const [title, rows] of [["by file", s.byFile], ["by function", s.byFunction], ["inclusive", s.inclusive]] as const) {
    console.log(`\n${title}`);
    for (const r of rows.slice(0, 25)) console.log(`${r.ms.toFixed(1).padStart(9)} ms ${(r.share * 100).toFixed(1).padStart(5)}%  ${r.key}`);
  }
}
