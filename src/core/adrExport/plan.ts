// Export a picked receipt as an ADR in two steps, so every host can show the change before it happens:
// `planAdrExport` reads and decides (trusted receipt, layout, next free name, the rendered record, and the
// supersession edit of an ADR the pick goes against) and returns the file edits; `applyAdrPlan` writes them —
// the new file created without ever overwriting, each modified file only if it is unchanged since planning and
// writable — or writes nothing. `exportAdr` does both, planning again when the name was taken meanwhile.
import { promises as fs, constants as fsConstants } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, posix } from "node:path";
import { resolveConfig } from "../config";
import { resolveInside } from "../contain";
import { sha256 } from "../hash";
import type { ParsedAdr } from "../internal/adr";
import { DEFAULT_RECEIPTS_DIR, loadReceiptFile, loadTrustedReceipt, receiptPath, verifyEntry, writeFileAtomic } from "../receipts/store";
import type { Receipt } from "../schemas";
import type { DeliberationConfig } from "../types";
import { adrContent, defaultAdrTitle, pickedOption, type AdrLink } from "./content";
import { AdrExportError, AdrExportRefusedError, AdrNameTakenError } from "./errors";
import { detectAdrLayout, fileSlug, listAdrFolder, nextAdrName, relativeLink, type AdrFormat, type AdrLayout } from "./layout";
import { renderAdr } from "./render";
import { supersededText } from "./supersede";

export interface AdrFileEdit {
  /** Workspace-relative path. */
  path: string;
  kind: "create" | "modify";
  /** The file's text when planned (modify only); applying refuses when it changed since. */
  before?: string;
  after: string;
}

/** An accepted ADR the deliberation cited that the pick goes against. */
export interface SupersedeCandidate {
  path: string;
  title: string;
  number?: number;
}

export interface AdrExportPlan {
  receiptId: string;
  format: AdrFormat;
  layout: Pick<AdrLayout, "dir" | "source" | "createDir" | "frontMatter" | "naming">;
  /** The new ADR. */
  path: string;
  title: string;
  number?: number;
  /** Cited accepted ADRs the pick goes against (offered for supersession). */
  candidates: SupersedeCandidate[];
  /** The ones this plan supersedes. */
  supersedes: SupersedeCandidate[];
  /** The new file first, then the edits of superseded ADRs. */
  files: AdrFileEdit[];
}

export interface AdrExportOptions {
  /** Your own public key (PEM): receipts it signed are trusted (the store's trusted load). */
  ownPublicKeyPem?: string;
  receiptsDir?: string;
  config?: Partial<DeliberationConfig>;
  format?: AdrFormat;
  /** Supersede the candidates (default true). */
  supersede?: boolean;
  title?: string;
  decisionMaker?: string;
  now?: Date;
  signal?: AbortSignal;
  /** Names to treat as taken (a collision found while writing). */
  skip?: number;
}

/** The receipt, only when it verifies (valid signature, trusted signer, intact evidence); else a one-line refusal. */
async function trustedReceipt(repo: string, receiptId: string, opts: AdrExportOptions): Promise<Receipt> {
  const dirName = opts.receiptsDir ?? DEFAULT_RECEIPTS_DIR;
  let file: string;
  try {
    file = receiptPath(repo, receiptId, dirName);
  } catch {
    throw new AdrExportError(`invalid receipt id: ${JSON.stringify(receiptId.slice(0, 80))}`);
  }
  if (!(await fs.lstat(file).then(() => true, () => false))) throw new AdrExportError(`unknown receipt: ${receiptId}`);
  const trusted = await loadTrustedReceipt(repo, receiptId, opts.ownPublicKeyPem ?? "", dirName);
  if (trusted) return trusted.receipt;
  const entry = await loadReceiptFile(file);
  if (entry.state === "corrupt") throw new AdrExportRefusedError(`receipt ${receiptId} is corrupt (${entry.error}); nothing was written`);
  const v = await verifyEntry(repo, entry, { ownPublicKeyPem: opts.ownPublicKeyPem, dirName, citations: false });
  throw new AdrExportRefusedError(`receipt ${receiptId} failed verification (${v.summary}); it is not exported, nothing was written`);
}

/**
 * Accepted ADRs the deliberation cited against the pick: cited in support of another option or in dissent of the
 * picked one, and never in support of the picked one. Read as they are now (a record superseded since is skipped).
 */
function candidatesOf(receipt: Receipt, adrs: ParsedAdr[]): SupersedeCandidate[] {
  const p = receipt.payload;
  const picked = pickedOption(receipt)!;
  const pathOf = new Map(p.citations.filter((c) => c.kind === "internal" && !c.commit).map((c) => [c.id, c.path_or_url]));
  const paths = (ids: string[]) => new Set(ids.map((id) => pathOf.get(id)).filter((x): x is string => !!x));
  const forPick = paths(picked.supports);
  const against = new Set([...paths(picked.dissent), ...p.options.filter((o) => o.id !== picked.id).flatMap((o) => [...paths(o.supports)])]);
  const out: SupersedeCandidate[] = [];
  for (const a of adrs) {
    if (!against.has(a.path) || forPick.has(a.path) || a.status !== "accepted") continue;
    out.push({ path: a.path, title: a.title, ...(a.number !== undefined ? { number: a.number } : {}) });
  }
  return out.sort((x, y) => x.path.localeCompare(y.path));
}

function labelOf(a: { title: string; number?: number }): string {
  return a.number !== undefined ? `${a.number}. ${a.title}` : a.title;
}

/** Reads an ADR to be superseded, inside the repository. */
async function readAdr(repo: string, path: string): Promise<string> {
  const real = await resolveInside(repo, path);
  if (!real) throw new AdrExportError(`${path} is missing or resolves outside the repository; nothing was written`);
  try {
    return await fs.readFile(real, "utf8");
  } catch (err) {
    throw new AdrExportError(`${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was written`);
  }
}

export async function planAdrExport(repo: string, receiptId: string, opts: AdrExportOptions = {}): Promise<AdrExportPlan> {
  const receipt = await trustedReceipt(repo, receiptId, opts);
  const picked = pickedOption(receipt);
  if (!receipt.operator_pick || !picked) {
    throw new AdrExportError(`receipt ${receiptId} has no pick yet: pick an option first (deliberate pick ${receiptId} <option_id>); nothing was written`);
  }
  const config = resolveConfig(opts.config);
  const layout = await detectAdrLayout(repo, config, { format: opts.format, signal: opts.signal });
  const entries = await listAdrFolder(repo, layout.dir, layout.createDir);
  const now = opts.now ?? new Date();
  const date = now.toISOString().slice(0, 10);
  const title = (opts.title?.trim() || defaultAdrTitle(receipt)).replace(/\s+/g, " ");
  const { name, number } = nextAdrName(entries, layout.naming, fileSlug(title), date, opts.skip ?? 0);
  const path = layout.dir ? posix.join(layout.dir, name) : name;
  const candidates = candidatesOf(receipt, layout.adrs);
  const supersedes = opts.supersede === false ? [] : candidates;
  const oldTexts = await Promise.all(supersedes.map((s) => readAdr(repo, s.path)));
  const content = adrContent(receipt, {
    date,
    ...(number !== undefined ? { number } : {}),
    title,
    supersedes: supersedes.map((s) => ({ label: labelOf(s), target: relativeLink(path, s.path) })),
    receiptsDir: opts.receiptsDir ?? DEFAULT_RECEIPTS_DIR,
    ...(opts.decisionMaker ? { decisionMaker: opts.decisionMaker } : {}),
  });
  const newLink = (from: string): AdrLink => ({ label: labelOf({ title: content.title, ...(number !== undefined ? { number } : {}) }), target: relativeLink(from, path) });
  const files: AdrFileEdit[] = [
    { path, kind: "create", after: renderAdr(content, layout.format, { frontMatter: layout.frontMatter }) },
    ...supersedes.map((s, i): AdrFileEdit => ({ path: s.path, kind: "modify", before: oldTexts[i], after: supersededText(oldTexts[i], s.path, newLink(s.path)) })),
  ];
  const { adrs: _adrs, ...shown } = layout;
  return { receiptId, format: layout.format, layout: shown, path, title: content.title, ...(number !== undefined ? { number } : {}), candidates, supersedes, files };
}

/** Every modified file still holds what was planned, is a regular file inside the repository, and is writable. */
async function checkModifiable(repo: string, edit: AdrFileEdit): Promise<string> {
  const real = await resolveInside(repo, edit.path);
  if (!real) throw new AdrExportError(`${edit.path} is missing or resolves outside the repository; nothing was written`);
  const current = await fs.readFile(real, "utf8").catch(() => undefined);
  if (current === undefined) throw new AdrExportError(`${edit.path} cannot be read; nothing was written`);
  if (sha256(current) !== sha256(edit.before ?? "")) throw new AdrExportError(`${edit.path} changed since the export was planned; nothing was written, export again`);
  try {
    await fs.access(real, fsConstants.W_OK);
  } catch (err) {
    throw new AdrExportError(`${edit.path} is read-only (${(err as NodeJS.ErrnoException).code ?? "not writable"}), so it cannot be marked superseded; nothing was written`);
  }
  return real;
}

/** The folder of a new file: inside the repository, created when the plan says so, writable. */
async function prepareFolder(repo: string, dir: string, create: boolean): Promise<void> {
  const abs = join(repo, dir);
  if (create) await fs.mkdir(abs, { recursive: true }).catch(() => undefined);
  const real = await resolveInside(repo, dir || ".");
  if (!real) throw new AdrExportError(`the ADR folder ${dir || "."} is missing or resolves outside the repository; nothing was written`);
  try {
    await fs.access(real, fsConstants.W_OK);
  } catch (err) {
    throw new AdrExportError(`the ADR folder ${dir || "."} is not writable (${(err as NodeJS.ErrnoException).code ?? "EACCES"}); nothing was written`);
  }
}

/**
 * The checks `applyAdrPlan` makes before writing, for hosts that write through their own editor (VS Code's
 * WorkspaceEdit): every modified ADR unchanged and writable, the new file's folder usable, the new name free.
 */
export async function checkAdrPlan(repo: string, plan: AdrExportPlan): Promise<void> {
  for (const m of plan.files.filter((f) => f.kind === "modify")) await checkModifiable(repo, m);
  if (!plan.layout.createDir && plan.layout.naming.kind !== "folder") await prepareFolder(repo, plan.layout.dir, false);
  for (const c of plan.files.filter((f) => f.kind === "create")) {
    if (await fs.lstat(join(repo, c.path)).then(() => true, () => false)) throw new AdrNameTakenError(c.path);
  }
}

/** Creates a file that must not exist: written to a temp file, then hard-linked into place (EEXIST if taken). */
async function createExclusive(abs: string, text: string): Promise<void> {
  const tmp = `${abs}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await fs.open(tmp, "wx", 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.link(tmp, abs);
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** Writes a plan, or nothing: see the module comment. Returns the paths written. */
export async function applyAdrPlan(repo: string, plan: AdrExportPlan): Promise<string[]> {
  const created = plan.files.filter((f) => f.kind === "create");
  const modified = plan.files.filter((f) => f.kind === "modify");
  const reals = await Promise.all(modified.map((m) => checkModifiable(repo, m)));
  for (const c of created) {
    const folder = posix.dirname(c.path) === "." ? "" : posix.dirname(c.path);
    const parent = plan.layout.naming.kind === "folder" && posix.dirname(folder) !== "." ? posix.dirname(folder) : folder;
    await prepareFolder(repo, parent, plan.layout.createDir || plan.layout.naming.kind === "folder");
    if (folder !== parent) await fs.mkdir(join(repo, folder), { recursive: true });
  }
  const done: string[] = [];
  try {
    for (const c of created) {
      try {
        await createExclusive(join(repo, c.path), c.after);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new AdrNameTakenError(c.path);
        throw err;
      }
      done.push(c.path);
    }
    for (const [i, m] of modified.entries()) {
      const mode = (await fs.stat(reals[i])).mode & 0o777;
      await writeFileAtomic(reals[i], m.after, mode);
      done.push(m.path);
    }
  } catch (err) {
    await rollBack(repo, plan, done);
    throw err;
  }
  return done;
}

/** Undoes a partial apply: removes created files and restores modified ones to their planned `before`. */
async function rollBack(repo: string, plan: AdrExportPlan, done: string[]): Promise<void> {
  for (const path of done.reverse()) {
    const edit = plan.files.find((f) => f.path === path)!;
    if (edit.kind === "create") await fs.rm(join(repo, path), { force: true }).catch(() => undefined);
    else await writeFileAtomic(join(repo, path), edit.before ?? "").catch(() => undefined);
  }
  for (const c of plan.files.filter((f) => f.kind === "create")) {
    const dir = dirname(join(repo, c.path));
    if (plan.layout.naming.kind === "folder") await fs.rmdir(dir).catch(() => undefined);
  }
}

/** Plans and applies; when the planned name was taken meanwhile, plans again with the next free name. */
export async function exportAdr(repo: string, receiptId: string, opts: AdrExportOptions = {}): Promise<{ plan: AdrExportPlan; written: string[] }> {
  // Planning again lists the folder again, so the name someone else just took is seen as taken.
  for (let attempt = 0; ; attempt++) {
    const plan = await planAdrExport(repo, receiptId, opts);
    try {
      return { plan, written: await applyAdrPlan(repo, plan) };
    } catch (err) {
      if (!(err instanceof AdrNameTakenError) || attempt >= 20) throw err;
    }
  }
}
