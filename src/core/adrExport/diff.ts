// A unified diff (3 lines of context) for previewing an export in a terminal. ADRs are small, so a plain
// longest-common-subsequence table is fast enough and keeps this dependency-free.

type Op = { kind: " " | "-" | "+"; text: string; a: number; b: number };

function diffOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: " ", text: a[i], a: i++, b: j++ });
    else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ kind: "-", text: a[i], a: i++, b: j });
    else ops.push({ kind: "+", text: b[j], a: i, b: j++ });
  }
  return ops;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** `--- a/path` / `+++ b/path` and its hunks; an empty string when nothing changed. `before` undefined: a new file. */
export function unifiedDiff(path: string, before: string | undefined, after: string, context = 3): string {
  const a = splitLines(before ?? "");
  const b = splitLines(after);
  const ops = diffOps(a, b);
  const changed = ops.map((o, k) => (o.kind !== " " ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return "";
  const out = [`--- ${before === undefined ? "/dev/null" : `a/${path}`}`, `+++ b/${path}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(ops.length - 1, changed[k] + context);
    while (k + 1 < changed.length && changed[k + 1] - context <= end + 1) end = Math.min(ops.length - 1, changed[++k] + context);
    k++;
    const hunk = ops.slice(start, end + 1);
    const aCount = hunk.filter((o) => o.kind !== "+").length;
    const bCount = hunk.filter((o) => o.kind !== "-").length;
    const aStart = aCount ? hunk[0].a + 1 : hunk[0].a;
    const bStart = bCount ? hunk[0].b + 1 : hunk[0].b;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`, ...hunk.map((o) => `${o.kind}${o.text}`));
  }
  return out.join("\n");
}

/** The smallest run of whole lines that differs, as offsets into `before` and its replacement text. */
export function changedLineRange(before: string, after: string, eol: string): { from: number; to: number; text: string } {
  const a = before.split(eol);
  const b = after.split(eol);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const offset = (lines: string[], n: number) => lines.slice(0, n).reduce((sum, l) => sum + l.length + eol.length, 0);
  return { from: offset(a, head), to: offset(a, a.length - tail), text: b.slice(head, b.length - tail).map((l) => l + eol).join("") };
}
