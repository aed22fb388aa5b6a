// Pure decisions behind the agent entry points (the language-model tool and @deliberate): which workspace folder a
// question belongs to, and the one paragraph the confirmation shows about what would leave the machine. vscode-free,
// so the unit tests cover them directly. Also the MCP server the provider offers (mcpProvider.ts).
import { isAbsolute, join, relative, resolve, sep } from "node:path";

export interface FolderLike {
  name: string;
  fsPath: string;
}

/** `path` relative to `root` when it lies inside it (or is it), else undefined. Lexical only. */
export function relativeInside(root: string, path: string): string | undefined {
  const rel = relative(resolve(root), resolve(root, path));
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}

/**
 * The folder a deliberation reads: the one holding the context path (an absolute path: the deepest folder containing
 * it; a relative one: the folder named by its first segment in a multi-root workspace), else the active editor's
 * folder, else the first folder.
 */
export function chooseFolder<F extends FolderLike>(folders: readonly F[], contextPath: string | undefined, activePath: string | undefined): F | undefined {
  if (folders.length === 0) return undefined;
  const containing = (p: string) =>
    folders
      .filter((f) => relativeInside(f.fsPath, p) !== undefined)
      .sort((a, b) => b.fsPath.length - a.fsPath.length)[0];
  if (contextPath) {
    if (isAbsolute(contextPath)) {
      const found = containing(contextPath);
      if (found) return found;
    } else if (folders.length > 1) {
      const first = contextPath.replace(/\\/g, "/").split("/")[0];
      const named = folders.find((f) => f.name === first);
      if (named) return named;
    }
  }
  return (activePath && containing(activePath)) || folders[0];
}

/** The context file as the receipt records it: relative to the folder, or undefined when it lies outside. */
export function contextFileIn(folder: FolderLike, contextPath: string | undefined, folderCount: number): string | undefined {
  if (!contextPath) return undefined;
  if (isAbsolute(contextPath)) return relativeInside(folder.fsPath, contextPath) || undefined;
  const parts = contextPath.replace(/\\/g, "/").split("/");
  // "folder-name/src/x.ts" in a multi-root workspace names the folder first.
  const inFolder = folderCount > 1 && parts[0] === folder.name && parts.length > 1 ? parts.slice(1).join("/") : parts.join("/");
  return relativeInside(folder.fsPath, inFolder) || undefined;
}

/** What the confirmation needs to know about the model and the web, resolved by the caller. */
export interface EgressFacts {
  /** The configured provider ("none" when offline turned it off: see offlineOverride). */
  provider: "none" | "openai" | "vscode-lm";
  offlineOverride?: string;
  /** Where model requests go when a model is usable. */
  host?: string;
  /** Why a configured provider cannot be used (then nothing is sent to it). */
  unavailable?: string;
  /** This workspace's stored consent for that host, if any. */
  consent?: "allow" | "keep-local";
  keepInternalLocal: boolean;
  /** What the web sources would fetch (models.ts externalEgressLines). */
  externalLines: string[];
}

/** The confirmation's sentence about egress: nothing leaves the machine, or which host gets what. */
export function describeEgressForConfirmation(f: EgressFacts): string {
  const web = f.externalLines.filter((l) => !/no web request/.test(l));
  let model: string;
  if (f.provider === "none") {
    model = f.offlineOverride
      ? `Offline mode is on, so the configured model provider “${f.offlineOverride}” is not used.`
      : "No model is configured: the offline rules synthesizer answers.";
  } else if (f.unavailable || !f.host) {
    model = `The model provider “${f.provider}” is not available (${f.unavailable ?? "no model"}), so the offline rules synthesizer answers.`;
  } else {
    const what = f.keepInternalLocal || f.consent === "keep-local" ? "the question and external evidence (internal snippets stay local)" : "the question and the retrieved evidence excerpts";
    const ask = f.consent ? "" : " The first model deliberation in this workspace shows exactly what would be sent and asks for consent.";
    model = `A model at ${f.host} receives ${what}.${ask}`;
  }
  if (f.provider !== "none" && f.host && !f.unavailable) return [model, ...web].join(" ");
  const nothing = web.length ? "Nothing from the repository leaves the machine." : "Nothing leaves the machine.";
  return [model, nothing, ...web].join(" ");
}

/** What the provider offers: the command line of the one server, or none (no folder, Restricted Mode, no bundle). */
export interface McpServerSpec {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** The server for these folders, or undefined when there is nothing to offer. Pure. */
export function mcpServerSpec(opts: { extensionPath: string; execPath: string; folders: readonly string[]; trusted: boolean; serverExists: boolean }): McpServerSpec | undefined {
  if (!opts.trusted || opts.folders.length === 0 || !opts.serverExists) return undefined;
  return {
    label: "Deliberative Search",
    command: opts.execPath,
    args: [join(opts.extensionPath, "dist", "mcpServer.js"), ...opts.folders.flatMap((f) => ["--repo", f])],
    env: { ELECTRON_RUN_AS_NODE: "1" },
    cwd: opts.folders[0],
  };
}
