// Opens a citation from the host (the webview never navigates itself): an internal file with its cited line range
// selected and revealed; a commit as a diff of the cited file (or the whole `git show` when no file applies); an
// external source through vscode.env.openExternal, http(s) only.
import { execFile } from "node:child_process";
import { isAbsolute, relative, resolve } from "node:path";
import * as vscode from "vscode";
import { resolveInside } from "../core/contain";
import { hardenedGitArgs, hardenedGitEnv } from "../core/internal/gitSafety";
import type { Citation, DecisionSourceRecord } from "../core/schemas";
import { loadHeavyBundle } from "./loadHeavyBundle";

export const GIT_SCHEME = "deliberative-git";

function git(repo: string, args: string[]): Promise<string> {
  return new Promise((res, rej) => {
    execFile("git", [...hardenedGitArgs(), ...args], { cwd: repo, env: hardenedGitEnv(), maxBuffer: 16 * 1024 * 1024, timeout: 10_000 }, (err, stdout) =>
      err ? rej(err) : res(stdout),
    );
  });
}

/** Read-only documents backed by git: `deliberative-git:/<label>?{"repo","ref","path"|"show"}`. */
export class GitContentProvider implements vscode.TextDocumentContentProvider {
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = JSON.parse(uri.query) as { repo: string; ref: string; path?: string; show?: boolean };
    if (!/^[0-9a-f]{7,64}\^?$/.test(q.ref)) return `invalid ref ${q.ref}`;
    if (q.show) return git(q.repo, ["show", "--no-ext-diff", "--no-textconv", "--no-show-signature", "--stat", "--patch", "--format=fuller", q.ref.replace(/\^$/, "")]);
    try {
      return await git(q.repo, ["show", "--no-textconv", `${q.ref}:${q.path}`]);
    } catch {
      return ""; // the file did not exist at that side of the commit (added or deleted)
    }
  }
}

function gitUri(label: string, query: Record<string, unknown>): vscode.Uri {
  return vscode.Uri.from({ scheme: GIT_SCHEME, path: `/${label}`, query: JSON.stringify(query) });
}

/** Resolves a repo-relative path and refuses anything outside the repo. */
export function insideRepo(repo: string, path: string): string | undefined {
  const abs = resolve(repo, path);
  const rel = relative(repo, abs);
  if (!rel || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return abs;
}

/**
 * A decision source's citation (src/core/sources/): a folder source's file, or a read-only document of a git
 * source's cached copy at the cited commit. Either way the path stays inside the source.
 */
async function openSourceCitation(c: Citation, sources: DecisionSourceRecord[] | undefined, column: vscode.ViewColumn): Promise<void> {
  const target = loadHeavyBundle().sourceCitationTarget(sources, c);
  if (!target) throw new Error(`the receipt does not say where source ${c.decision_source?.name ?? "?"} is`);
  let doc: vscode.TextDocument;
  if (target.kind === "file") {
    const abs = insideRepo(target.root, target.rel) && (await resolveInside(target.root, target.rel));
    if (!abs) throw new Error(`citation path is missing or outside its source: ${c.path_or_url}`);
    doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs));
  } else {
    if (!insideRepo(target.gitDir, target.rel)) throw new Error(`citation path is outside its source: ${c.path_or_url}`);
    const name = target.rel.split("/").pop() ?? target.rel;
    doc = await vscode.workspace.openTextDocument(gitUri(`${name} (${c.decision_source?.name} ${target.commit.slice(0, 7)})`, { repo: target.gitDir, ref: target.commit, path: target.rel }));
  }
  await showLines(doc, c, column);
}

export async function openCitation(repo: string, c: Citation, column: vscode.ViewColumn = vscode.ViewColumn.One, sources?: DecisionSourceRecord[]): Promise<void> {
  if (c.decision_source) return openSourceCitation(c, sources, column);
  if (c.kind === "external") {
    let url: vscode.Uri;
    try {
      url = vscode.Uri.parse(c.path_or_url, true);
    } catch {
      throw new Error(`not a URL: ${c.path_or_url}`);
    }
    if (url.scheme !== "https" && url.scheme !== "http") throw new Error(`refusing to open a ${url.scheme}: link`);
    await vscode.env.openExternal(url);
    return;
  }

  if (c.commit && (c.precision_class === "commit" || !c.line_range)) {
    const sha = c.commit;
    const abs = insideRepo(repo, c.path_or_url);
    if (abs) {
      const name = c.path_or_url.split("/").pop() ?? c.path_or_url;
      const left = gitUri(`${name} (${sha.slice(0, 7)}^)`, { repo, ref: `${sha}^`, path: c.path_or_url });
      const right = gitUri(`${name} (${sha.slice(0, 7)})`, { repo, ref: sha, path: c.path_or_url });
      const title = `${name} (${sha.slice(0, 7)}${c.title ? ` — ${c.title}` : ""})`;
      await vscode.commands.executeCommand("vscode.diff", left, right, title, { viewColumn: column, preview: true });
    } else {
      const doc = await vscode.workspace.openTextDocument(gitUri(`${sha.slice(0, 10)}.diff`, { repo, ref: sha, show: true }));
      await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(doc, "diff"), { viewColumn: column, preview: true });
    }
    return;
  }

  // Lexically inside, and inside after every symlink is followed (a receipt's path never opens a file elsewhere).
  const abs = insideRepo(repo, c.path_or_url) && (await resolveInside(repo, c.path_or_url));
  if (!abs) throw new Error(`citation path is missing or outside the workspace folder: ${c.path_or_url}`);
  await showLines(await vscode.workspace.openTextDocument(vscode.Uri.file(abs)), c, column);
}

async function showLines(doc: vscode.TextDocument, c: Citation, column: vscode.ViewColumn): Promise<void> {
  const options: vscode.TextDocumentShowOptions = { viewColumn: column, preview: true, preserveFocus: false };
  if (c.line_range) {
    const last = Math.max(0, doc.lineCount - 1);
    const start = Math.min(c.line_range.start - 1, last);
    const end = Math.min(c.line_range.end - 1, last);
    options.selection = new vscode.Range(start, 0, end, doc.lineAt(end).range.end.character);
  }
  const editor = await vscode.window.showTextDocument(doc, options);
  if (options.selection) editor.revealRange(options.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
