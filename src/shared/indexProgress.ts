// The git history index's build progress as one line, the same in the CLI (stderr, `index --status`) and the
// extension (the notification). Pure: no node, vscode or DOM API (src/shared is compiled for the webview too), so
// the progress is typed by its shape (core's BuildProgress fits it).

export interface IndexBuildProgress {
  phase: "docs" | "commits" | "finishing";
  done: number;
  total?: number;
}

/** "Indexing history: 12,000 / 47,000 commits"; `prefix: ""` gives the bare progress. */
export function describeBuildProgress(p: IndexBuildProgress, prefix = "Indexing history: "): string {
  const n = (x: number) => x.toLocaleString("en");
  if (p.phase === "docs") return `${prefix}reading documentation changes (${n(p.done)} commits)`;
  if (p.phase === "finishing") return `${prefix}${n(p.done)} commits, finishing`;
  return `${prefix}${n(p.done)}${p.total ? ` / ${n(p.total)}` : ""} commits`;
}
