// Where an export may write. The folder comes from the repository (`.adr-dir`, `.log4brains.yml`, the folder most
// ADRs sit in), so it is checked like any other path from the repository, before anything is created: the path
// and its real path (every symlink followed) stay inside the repository and never pass through a `.git` folder
// (an ADR in .git/hooks is a file git may run). A folder that does not exist yet is judged by its nearest existing
// ancestor, so a symlink that leads outside is refused before `mkdir` could create anything there.
import { constants as fsConstants, promises as fs } from "node:fs";
import { join, relative, sep } from "node:path";
import { resolveInside } from "../contain";
import { AdrExportError } from "./errors";

/** True when a path (either separator) has a `.git` segment; case-insensitive, as on macOS and Windows. */
export function hasGitSegment(path: string): boolean {
  return path.split(/[\\/]/).some((s) => s.toLowerCase() === ".git");
}

async function realRoot(repo: string): Promise<string> {
  try {
    return await fs.realpath(repo);
  } catch {
    throw new AdrExportError(`the repository ${repo} cannot be resolved; nothing was written`);
  }
}

/** The real path of `rel` inside the repository, refused when it leaves the repository or passes through .git. */
async function containedReal(repo: string, rel: string, what: string): Promise<string> {
  const real = await resolveInside(repo, rel || ".");
  if (!real) throw new AdrExportError(`${what} resolves outside the repository (a symlink); nothing was written`);
  if (hasGitSegment(relative(await realRoot(repo), real).split(sep).join("/"))) {
    throw new AdrExportError(`${what} resolves into .git; ADRs are never written there, nothing was written`);
  }
  return real;
}

/**
 * Checks the folder a new ADR goes into, creating nothing: `dir` itself when it exists, else its nearest existing
 * ancestor, must be a folder inside the repository and outside .git (lexically and after realpath), and, with
 * `writable`, writable. Returns whether `dir` exists.
 */
export async function checkNewFileFolder(repo: string, dir: string, opts: { writable: boolean }): Promise<{ exists: boolean }> {
  const what = `the ADR folder ${dir || "."}`;
  if (hasGitSegment(dir)) throw new AdrExportError(`${what} is inside .git; ADRs are never written there, nothing was written`);
  const parts = dir ? dir.split("/") : [];
  for (let n = parts.length; n >= 0; n--) {
    const rel = parts.slice(0, n).join("/");
    const st = await fs.lstat(join(repo, rel || ".")).catch(() => undefined);
    if (!st) continue;
    const through = n === parts.length ? what : `${what} (through ${rel})`;
    const real = await containedReal(repo, rel, through);
    const stReal = await fs.stat(real);
    if (!stReal.isDirectory()) throw new AdrExportError(`${through}: ${rel} is a file, not a folder; nothing was written`);
    if (opts.writable) {
      try {
        await fs.access(real, fsConstants.W_OK);
      } catch (err) {
        throw new AdrExportError(`${what} is not writable (${(err as NodeJS.ErrnoException).code ?? "EACCES"}); nothing was written`);
      }
    }
    return { exists: n === parts.length };
  }
  throw new AdrExportError(`the repository cannot be read; nothing was written`);
}

/** Checks an existing file the export modifies (an ADR to supersede): inside the repository, outside .git. */
export async function checkModifiedFile(repo: string, path: string): Promise<string> {
  if (hasGitSegment(path)) throw new AdrExportError(`${path} is inside .git; ADRs are never written there, nothing was written`);
  const real = await resolveInside(repo, path);
  if (!real) throw new AdrExportError(`${path} is missing or resolves outside the repository; nothing was written`);
  return containedReal(repo, path, path);
}
