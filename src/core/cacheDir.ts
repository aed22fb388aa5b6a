// The user's cache folder for everything this tool may rebuild at will (history indexes, the CLI's compiled code):
// $XDG_CACHE_HOME/deliberative-search, else %LOCALAPPDATA% on Windows, else ~/.cache. Never inside a repository.
import { lstatSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isInside } from "./contain";

export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : process.platform === "win32" && env.LOCALAPPDATA ? env.LOCALAPPDATA : join(homedir(), ".cache");
  return join(base, "deliberative-search");
}

/**
 * Why a folder inside the user's cache folder must not be written, or undefined when it may: a folder on the way
 * (`web`, `corpus/<key>`, `v8`) that is a symlink leading out of the cache folder, planted by whoever can write it,
 * would have every cache write (and the V8 cache's pruning) land wherever it points. The cache folder itself may
 * be a link (the user's own choice), and a folder outside it (one the user named) is not checked. Synchronous, so
 * the CLI's launcher can use it before anything is loaded.
 */
export function cacheFolderRefusal(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = userCacheDir(env);
  const target = resolve(dir);
  const rel = relative(root, target);
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return undefined; // no cache folder yet: whatever is written creates it, inside
  }
  // The deepest part of the path that exists decides: what does not exist yet is created inside it.
  for (let at = target; ; at = dirname(at)) {
    try {
      return isInside(realRoot, realpathSync(at)) ? undefined : `cache folder ${dir} is a symlink leading outside ${root}; not writing through it (delete it: it is recreated)`;
    } catch {
      // There now: another process may have created it between the two looks; its real path decides. A dangling link
      // exists (lstat) but leads nowhere inside: refused like any other link out.
      if (lstatExists(at)) return realInside(realRoot, at) ? undefined : `cache folder ${dir} is a symlink leading outside ${root}; not writing through it (delete it: it is recreated)`;
      if (at === root || dirname(at) === at) return undefined;
    }
  }
}

function realInside(realRoot: string, p: string): boolean {
  try {
    return isInside(realRoot, realpathSync(p));
  } catch {
    return false;
  }
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
