// Export a picked receipt as an ADR in two steps, so every host can show the change before it happens:
// `planAdrExport` reads and decides (trusted receipt, layout, next free name, the rendered record, and the
// supersession edit of an ADR the pick goes against) and returns the file edits; `applyAdrPlan` writes them —
// the new file created without ever overwriting, each modified file only if it is unchanged since planning and
// writable — or writes nothing. `exportAdr` does both, planning again when the name was taken meanwhile, under
// the receipt's export lock, and records the export in the receipt; a receipt whose current pick was already
// exported is not exported twice (AdrAlreadyExportedError names the first). Planning refuses what writing would
// refuse (a target inside .git or outside the repository, a cited record that changed since the receipt), so a
// dry run says what the real run does; an agent's pick is exported as a proposed record that supersedes nothing.
import { promises as fs, constants as fsConstants } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, posix } from "node:path";
import { resolveConfig } from "../config";
import { resolveInside } from "../contain";
import { sha256 } from "../hash";
import type { ParsedAdr } from "../internal/adr";
import { citationPlace, citedPart, linesOf, normaliseCitedText } from "../receipts/citedContent";
import type { SigningKey } from "../receipts/signing";
import { DEFAULT_RECEIPTS_DIR, loadReceiptFile, loadTrustedReceipt, receiptPath, recordAdrExport, verifyEntry, withFileLock, writeFileAtomic } from "../receipts/store";
import type { AdrExport, Citation, Receipt } from "../schemas";
import type { DeliberationConfig } from "../types";
import { adrContent, agentPick, defaultAdrTitle, pickedOption, type AdrLink } from "./content";
import { AdrAlreadyExportedError, AdrExportError, AdrExportRefusedError, AdrNameTakenError } from "./errors";
import { detectAdrLayout, fileSlug, listAdrFolder, nextAdrName, relativeLink, type AdrFormat, type AdrLayout } from "./layout";
import { linkLabel } from "./plainText";
import { renderAdr } from "./render";
import { supersededText } from "./supersede";
import { checkModifiedFile, checkNewFileFolder, hasGitSegment } from "./target";

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
  /** The title as the file has it now (raw text from the repository: escape it before showing it as markup). */
  title: string;
  number?: number;
  /**
   * Set when the record at this path no longer holds what the receipt cited (or cannot be shown to): it may not be
   * the record the deliberation weighed, so it is never superseded. Names each changed citation.
   */
  changed?: string;
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
  /** "proposed" when an agent made the pick: it supersedes nothing until a person picks. */
  status: "accepted" | "proposed";
  /** Who made the pick, when it was an agent. */
  agent?: string;
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

/** Where the receipt's file is, or a one-line refusal: a malformed id, an unknown receipt, a file outside the repository. */
async function locateReceipt(repo: string, receiptId: string, dirName: string): Promise<string> {
  let file: string;
  try {
    file = receiptPath(repo, receiptId, dirName);
  } catch {
    throw new AdrExportError(`invalid receipt id: ${JSON.stringify(receiptId.slice(0, 80))}`);
  }
  if (!(await fs.lstat(file).then(() => true, () => false))) throw new AdrExportError(`unknown receipt: ${receiptId}`);
  if (!(await resolveInside(repo, posix.join(dirName, `${receiptId}.json`)))) {
    throw new AdrExportRefusedError(`receipt ${receiptId} resolves outside the repository (a symlink); it is not exported, nothing was written`);
  }
  return file;
}

/** The receipt, only when it verifies (valid signature, trusted signer, intact evidence); else a one-line refusal. */
async function trustedReceipt(repo: string, receiptId: string, opts: AdrExportOptions): Promise<Receipt> {
  const dirName = opts.receiptsDir ?? DEFAULT_RECEIPTS_DIR;
  const file = await locateReceipt(repo, receiptId, dirName);
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

/** Link text for a record, from its raw title (escaped here: the title came from that file). */
function labelOf(a: { title: string; number?: number }): string {
  return linkLabel(a.number !== undefined ? `${a.number}. ${a.title}` : a.title);
}

/** Whether a normalised text still holds a citation's hashed content: at the cited lines, or moved elsewhere in the file. */
function stillHolds(text: string, c: Citation): boolean {
  const part = citedPart(text, c.line_range);
  if (part !== undefined && sha256(part) === c.content_sha256) return true;
  if (!c.line_range) return false;
  const length = c.line_range.end - c.line_range.start + 1;
  const lines = linesOf(text);
  for (let start = 0; start + length <= lines.length; start++) {
    if (sha256(lines.slice(start, start + length).join("\n")) === c.content_sha256) return true;
  }
  return false;
}

/**
 * How the record at `path` differs from what the receipt cited there (content hashes, citedContent.ts), or
 * undefined when every hashed citation still holds. A path the receipt holds no hash for cannot be confirmed.
 */
function changeSinceReceipt(receipt: Receipt, path: string, text: string): string | undefined {
  const cited = receipt.payload.citations.filter((c) => c.kind === "internal" && !c.commit && c.path_or_url === path);
  const hashed = cited.filter((c) => c.content_sha256);
  if (hashed.length === 0) return "the receipt holds no content hash for it, so it cannot be shown to be the record the deliberation weighed";
  const now = normaliseCitedText(text);
  const changed = hashed.filter((c) => !stillHolds(now, c));
  if (changed.length === 0) return undefined;
  return changed.map((c) => `${c.id} ${citationPlace(c)}: ${citedPart(now, c.line_range) === undefined ? "cited lines no longer exist" : "cited lines changed"}`).join("; ");
}

/**
 * The export of the receipt's current pick that is still on disk, if any: recorded at or after the pick, and its
 * file still there. A later pick (a person accepting an agent's proposal, a changed mind) exports again.
 */
async function previousExport(repo: string, receipt: Receipt): Promise<AdrExport | undefined> {
  const pickedAt = Date.parse(receipt.operator_pick?.at ?? "");
  for (const e of receipt.adr_exports ?? []) {
    if (!(Date.parse(e.at) >= pickedAt)) continue;
    if (await resolveInside(repo, e.path)) return e;
  }
  return undefined;
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
  const previous = await previousExport(repo, receipt);
  if (previous) throw new AdrAlreadyExportedError(receiptId, previous.path, previous.at);
  const agent = agentPick(receipt);
  const config = resolveConfig(opts.config);
  const layout = await detectAdrLayout(repo, config, { format: opts.format, signal: opts.signal });
  // Before the folder is even listed: it is inside the repository, outside .git, through every symlink.
  await checkNewFileFolder(repo, layout.dir, { writable: false });
  const entries = await listAdrFolder(repo, layout.dir, layout.createDir);
  const now = opts.now ?? new Date();
  const date = now.toISOString().slice(0, 10);
  const title = (opts.title?.trim() || defaultAdrTitle(receipt)).replace(/\s+/g, " ");
  const { name, number } = nextAdrName(entries, layout.naming, fileSlug(title), date, opts.skip ?? 0);
  const path = layout.dir ? posix.join(layout.dir, name) : name;
  if (hasGitSegment(path)) throw new AdrExportError(`${path} is inside .git; ADRs are never written there, nothing was written`);
  // Each record is read once: the text compared with the receipt's hashes is the text the supersession edits.
  const texts = new Map<string, string>();
  const candidates = await Promise.all(
    candidatesOf(receipt, layout.adrs).map(async (c): Promise<SupersedeCandidate> => {
      const text = await readAdr(repo, c.path).catch(() => undefined);
      if (text !== undefined) texts.set(c.path, text);
      const changed = text === undefined ? "it cannot be read" : changeSinceReceipt(receipt, c.path, text);
      return { ...c, ...(changed ? { changed } : {}) };
    }),
  );
  // An agent's pick is a proposal: it never marks a person's accepted record superseded.
  const supersedes = opts.supersede === false || agent ? [] : candidates;
  const stale = supersedes.find((s) => s.changed);
  if (stale && !texts.has(stale.path)) await readAdr(repo, stale.path); // says why it cannot be read
  if (stale) {
    throw new AdrExportRefusedError(
      `refusing to supersede ${stale.path}: it changed since receipt ${receiptId} was made (${stale.changed}), so it may not be the record the deliberation weighed; ` +
        "nothing was written. Deliberate again, or export with --no-supersede",
    );
  }
  for (const s of supersedes) await checkModifiedFile(repo, s.path);
  const oldTexts = supersedes.map((s) => texts.get(s.path)!);
  const content = adrContent(receipt, {
    date,
    ...(number !== undefined ? { number } : {}),
    title,
    supersedes: supersedes.map((s) => ({ label: labelOf(s), target: relativeLink(path, s.path) })),
    receiptsDir: opts.receiptsDir ?? DEFAULT_RECEIPTS_DIR,
    ...(opts.decisionMaker ? { decisionMaker: opts.decisionMaker } : {}),
  });
  const newLink = (from: string): AdrLink => ({ label: labelOf({ title, ...(number !== undefined ? { number } : {}) }), target: relativeLink(from, path) });
  const files: AdrFileEdit[] = [
    { path, kind: "create", after: renderAdr(content, layout.format, { frontMatter: layout.frontMatter }) },
    ...supersedes.map((s, i): AdrFileEdit => ({ path: s.path, kind: "modify", before: oldTexts[i], after: supersededText(oldTexts[i], s.path, newLink(s.path)) })),
  ];
  const { adrs: _adrs, ...shown } = layout;
  return {
    receiptId,
    format: layout.format,
    layout: shown,
    path,
    title: content.title,
    ...(number !== undefined ? { number } : {}),
    candidates,
    supersedes,
    status: content.status,
    ...(agent ? { agent: agent.who } : {}),
    files,
  };
}

/** Every modified file still holds what was planned, is a regular file inside the repository, and is writable. */
async function checkModifiable(repo: string, edit: AdrFileEdit): Promise<string> {
  const real = await checkModifiedFile(repo, edit.path);
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

/**
 * The folder of a new file: checked before anything is created (inside the repository and outside .git through
 * every symlink, writable), created when the plan says so, and checked again once it exists.
 */
async function prepareFolder(repo: string, dir: string, create: boolean): Promise<void> {
  const { exists } = await checkNewFileFolder(repo, dir, { writable: true });
  if (!exists && !create) throw new AdrExportError(`the ADR folder ${dir || "."} is missing; nothing was written`);
  if (!exists) await fs.mkdir(join(repo, dir), { recursive: true });
  await checkNewFileFolder(repo, dir, { writable: true });
}

/**
 * The checks `applyAdrPlan` makes before writing, for hosts that write through their own editor (VS Code's
 * WorkspaceEdit): every modified ADR unchanged and writable, the new file's folder usable, the new name free.
 */
export async function checkAdrPlan(repo: string, plan: AdrExportPlan): Promise<void> {
  for (const m of plan.files.filter((f) => f.kind === "modify")) await checkModifiable(repo, m);
  const { exists } = await checkNewFileFolder(repo, plan.layout.dir, { writable: true });
  if (!exists && !plan.layout.createDir) throw new AdrExportError(`the ADR folder ${plan.layout.dir || "."} is missing; nothing was written`);
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
  // Every folder is checked before any is created, so a refusal leaves nothing behind.
  for (const c of created) {
    if (hasGitSegment(c.path)) throw new AdrExportError(`${c.path} is inside .git; ADRs are never written there, nothing was written`);
    await checkNewFileFolder(repo, posix.dirname(c.path) === "." ? "" : posix.dirname(c.path), { writable: true });
  }
  for (const c of created) {
    const folder = posix.dirname(c.path) === "." ? "" : posix.dirname(c.path);
    const parent = plan.layout.naming.kind === "folder" && posix.dirname(folder) !== "." ? posix.dirname(folder) : folder;
    await prepareFolder(repo, parent, plan.layout.createDir || plan.layout.naming.kind === "folder");
    if (folder !== parent) {
      await fs.mkdir(join(repo, folder), { recursive: true });
      await checkNewFileFolder(repo, folder, { writable: true });
    }
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
    else {
      // Restore the file that was written — the real path, as applyAdrPlan wrote it — never join(repo, path): for an
      // ADR reached through a symlink that would replace the link with a copy and leave the real record changed.
      const real = await resolveInside(repo, path);
      if (!real) continue;
      const mode = ((await fs.stat(real).catch(() => undefined))?.mode ?? 0o644) & 0o777;
      await writeFileAtomic(real, edit.before ?? "", mode).catch(() => undefined);
    }
  }
  for (const c of plan.files.filter((f) => f.kind === "create")) {
    const dir = dirname(join(repo, c.path));
    if (plan.layout.naming.kind === "folder") await fs.rmdir(dir).catch(() => undefined);
  }
}

/**
 * The lock that serialises exports of one receipt across processes: `<receipt>.json.adr-export.lock`, next to the
 * receipt. Not the receipt's own lock (`<receipt>.json.lock`), which recording the export takes inside it.
 */
export function withAdrExportLock<T>(receiptFile: string, fn: () => Promise<T>, timeoutMs?: number): Promise<T> {
  return withFileLock(`${receiptFile}.adr-export`, fn, timeoutMs);
}

export interface AdrExportResult {
  plan: AdrExportPlan;
  written: string[];
  /** The receipt re-signed with the export recorded (only with `record`). */
  receipt?: Receipt;
}

/**
 * Plans and applies under the receipt's export lock; when the planned name was taken meanwhile, plans again with
 * the next free name. With `record`, the export is recorded in the receipt (re-signed with that key) before the
 * lock is released — so a second export of the same pick, concurrent or later, finds it and is refused with
 * AdrAlreadyExportedError — and the files are taken back when recording fails.
 */
export async function exportAdr(repo: string, receiptId: string, opts: AdrExportOptions & { record?: SigningKey; lockTimeoutMs?: number } = {}): Promise<AdrExportResult> {
  const dirName = opts.receiptsDir ?? DEFAULT_RECEIPTS_DIR;
  const file = await locateReceipt(repo, receiptId, dirName);
  // The lock file and the re-signed receipt both go into the receipts folder.
  try {
    await fs.access(dirname(file), fsConstants.W_OK);
  } catch (err) {
    throw new AdrExportError(`the receipts folder ${dirName} is not writable (${(err as NodeJS.ErrnoException).code ?? "EACCES"}), so the export could not be recorded; nothing was written`);
  }
  return withAdrExportLock(
    file,
    async () => {
      // Planning again lists the folder again, so the name someone else just took is seen as taken.
      for (let attempt = 0; ; attempt++) {
        const plan = await planAdrExport(repo, receiptId, opts);
        let written: string[];
        try {
          written = await applyAdrPlan(repo, plan);
        } catch (err) {
          if (!(err instanceof AdrNameTakenError) || attempt >= 20) throw err;
          continue;
        }
        if (!opts.record) return { plan, written };
        try {
          const exported = { path: plan.path, format: plan.format, ...(plan.supersedes[0] ? { supersedes: plan.supersedes[0].path } : {}) };
          const receipt = await recordAdrExport(repo, receiptId, exported, opts.record, dirName, { ...(opts.lockTimeoutMs ? { lockTimeoutMs: opts.lockTimeoutMs } : {}) });
          return { plan, written, receipt };
        } catch (err) {
          await rollBack(repo, plan, written.slice());
          throw err;
        }
      }
    },
    opts.lockTimeoutMs,
  );
}
