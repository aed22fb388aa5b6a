// Path containment: every read of a repository file by a path that came from the repository itself (a receipt, an
// AGENTS.md line, a stored citation) resolves through realpath and must stay inside the repository root.
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";

/** True when `child` (an absolute, already-resolved path) is `root` itself or lies under it. */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

async function realRoot(root: string): Promise<string | undefined> {
  try {
    return await realpath(path.resolve(root));
  } catch {
    return undefined;
  }
}

/**
 * Resolves `rel` (a path relative to `root`, or an absolute path) through realpath — following every symlink on the
 * way — and returns the real absolute path when it exists and stays inside the real `root`. Returns undefined when
 * the path is missing, empty, contains a NUL byte, or leads outside the root (`..`, an absolute path elsewhere, or a
 * symlink to somewhere outside). Never throws.
 */
export async function resolveInside(root: string, rel: string): Promise<string | undefined> {
  if (typeof rel !== "string" || typeof root !== "string" || rel.length === 0 || rel.includes("\0") || root.includes("\0")) {
    return undefined;
  }
  const base = await realRoot(root);
  if (base === undefined) return undefined;
  const candidate = path.resolve(base, rel);
  // Reject a lexical escape before touching the file system (cheap, and avoids probing outside paths).
  if (!isInside(base, candidate) && !isInside(path.resolve(root), path.resolve(root, rel))) return undefined;
  let real: string;
  try {
    real = await realpath(path.resolve(root, rel));
  } catch {
    return undefined;
  }
  return isInside(base, real) ? real : undefined;
}

/**
 * Whether a folder under `root` may be written to: it resolves inside the real root, or it does not exist yet and
 * its nearest existing ancestor does (creating it then creates it inside). A symlinked folder leading out: false.
 */
export async function folderWritableInside(root: string, rel: string): Promise<boolean> {
  if (typeof rel !== "string" || rel.includes("\0")) return false;
  let at = path.normalize(rel);
  for (;;) {
    if (await resolveInside(root, at)) return true;
    // Missing (ENOENT) or outside: only a missing folder may defer to its parent.
    const missing = await lstat(path.resolve(root, at)).then(() => false, (e: NodeJS.ErrnoException) => e.code === "ENOENT");
    // There now: another process may have created it between the two looks (builds of one index at once). Its real
    // path decides; a link leading out or nowhere is still refused.
    if (!missing) return (await resolveInside(root, at)) !== undefined;
    const parent = path.dirname(at);
    if (parent === at || at === "." || at === "") return false;
    at = parent;
  }
}
