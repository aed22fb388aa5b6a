// Where the MCP server may deliberate: the repositories it was started with (`--repo`, default the current
// directory) plus the client's MCP roots (`roots/list`, refreshed on `notifications/roots/list_changed`). Every
// `repo` and `context.path` a tool receives is resolved through realpath and must lie inside one of them, so an
// agent cannot point the pipeline (which reads files and runs git) at the rest of the disk.
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { isInside } from "../core/contain";
import { assertNormalRepo, UnsafeRepositoryError } from "../core/internal/gitSafety";

/** A path a tool was given is outside the allowed roots, missing, or not a folder: one line for the agent. */
export class RootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RootError";
  }
}

export interface AllowedRoot {
  /** The real (symlink-free) absolute path. */
  path: string;
  /** Where it came from: the command line or the client's roots. */
  source: "repo" | "client";
  /** The `<repo>` of its resources' URIs (`deliberation://<name>/<receipt_id>`); unique among the roots. */
  name: string;
}

async function realDirectory(path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    return (await stat(real)).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `path` after realpath, also when it does not exist: its nearest existing ancestor's real path plus the rest. So
 * whether a path lies inside a root is decided the same way whether or not it exists, and an error never tells an
 * agent whether some path outside the roots exists.
 */
async function realOrNearest(path: string): Promise<{ real: string; exists: boolean }> {
  const real = await realpath(path).catch(() => undefined);
  if (real) return { real, exists: true };
  const parent = dirname(path);
  if (parent === path) return { real: path, exists: false };
  return { real: join((await realOrNearest(parent)).real, basename(path)), exists: false };
}

/** `/` (or a drive root): never served, from the command line (main.ts) or as a client's root. */
export function isFileSystemRoot(path: string): boolean {
  return path === parse(path).root;
}

/** A `file://` root URI as a local path; other schemes are not folders on this machine. */
export function rootUriToPath(uri: string): string | undefined {
  try {
    return new URL(uri).protocol === "file:" ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

export class AllowedRoots {
  private startup: string[] = [];
  private client: string[] = [];
  private pending: Promise<void> | undefined;

  /** `repos`: the `--repo` folders, already resolved (they must exist: the command line checked). */
  static async create(repos: string[]): Promise<AllowedRoots> {
    const roots = new AllowedRoots();
    for (const r of repos) {
      const real = await realDirectory(r);
      // A --repo that is a symlink to `/` gets past the command line's check: not past this one.
      if (real && !isFileSystemRoot(real) && !roots.startup.includes(real)) roots.startup.push(real);
    }
    return roots;
  }

  /**
   * Replaces the client's roots with the result of `fetchRoots` (the `roots/list` request). Tool calls that arrive
   * meanwhile wait for it, so a call right after `initialized` already sees the client's folders.
   */
  refreshClientRoots(fetchRoots: () => Promise<string[]>, log: (line: string) => void): Promise<void> {
    const run = (async () => {
      try {
        const uris = await fetchRoots();
        const paths: string[] = [];
        for (const uri of uris) {
          const local = rootUriToPath(uri);
          const real = local ? await realDirectory(local) : undefined;
          // file:/// would open the whole disk to the agent, as `--repo /` would: refused the same way.
          if (real && isFileSystemRoot(real)) log(`client root ignored (the file-system root is never served): ${uri.slice(0, 200)}`);
          else if (real && !paths.includes(real)) paths.push(real);
          else if (!real) log(`client root ignored (not a local folder): ${uri.slice(0, 200)}`);
        }
        this.client = paths;
      } catch (err) {
        log(`could not read the client's roots: ${(err as Error).message.split("\n")[0]}`);
      }
    })();
    this.pending = run;
    return run;
  }

  /** Every allowed root with its resource name (the folder's base name, numbered when two share one). */
  async list(): Promise<AllowedRoot[]> {
    await this.pending;
    const out: AllowedRoot[] = [];
    const taken = new Set<string>();
    const add = (path: string, source: AllowedRoot["source"]) => {
      if (out.some((r) => r.path === path)) return;
      const base = (basename(path) || "root").replace(/[^A-Za-z0-9._-]/g, "-");
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
      out.push({ path, source, name });
    };
    for (const p of this.startup) add(p, "repo");
    for (const p of this.client) add(p, "client");
    return out;
  }

  /** One line naming the allowed roots, for error messages. */
  private async describe(): Promise<string> {
    const roots = await this.list();
    return roots.length ? roots.map((r) => r.path).join(", ") : "(none)";
  }

  /** The root whose resource name is `name`. */
  async byName(name: string): Promise<AllowedRoot | undefined> {
    return (await this.list()).find((r) => r.name === name);
  }

  /**
   * The repository a tool call works in, as a real path inside an allowed root: `repo` when given, else the root
   * holding `contextPath` (an absolute path), else the first root.
   */
  async resolveRepo(repo: string | undefined, contextPath?: string): Promise<string> {
    const real = await this.resolveRepoPath(repo, contextPath);
    // The pipeline runs git there: a bare-shaped folder or a git directory is refused (gitSafety.ts).
    await assertNormalRepo(real).catch((err: unknown) => {
      throw err instanceof UnsafeRepositoryError ? new RootError(err.message) : err;
    });
    return real;
  }

  private async resolveRepoPath(repo: string | undefined, contextPath?: string): Promise<string> {
    const roots = await this.list();
    if (repo === undefined) {
      if (contextPath && isAbsolute(contextPath)) {
        const real = await realpath(contextPath).catch(() => undefined);
        const holder = real ? roots.find((r) => isInside(r.path, real)) : undefined;
        if (holder) return holder.path;
      }
      if (!roots.length) throw new RootError("no repository to deliberate in: start the server with --repo DIR or give the client's roots");
      return roots[0].path;
    }
    const wanted = resolve(roots[0]?.path ?? process.cwd(), repo);
    // Inside or outside first, by the real path whether or not it exists: only a path inside a root is looked at.
    const { real } = await realOrNearest(wanted);
    if (!roots.some((r) => isInside(r.path, real))) throw new RootError(`repo ${repo} is outside the allowed roots (${await this.describe()})`);
    const folder = await realDirectory(real);
    if (!folder) throw new RootError(`repo is not an existing folder: ${repo}`);
    return folder;
  }

  /**
   * `context.path` as a path relative to `repo` (forward slashes), after realpath: it must exist inside the
   * repository. A relative path is taken relative to the repository.
   */
  async resolveContextPath(repo: string, path: string): Promise<string> {
    const { real, exists } = await realOrNearest(resolve(repo, path));
    if (!isInside(repo, real)) {
      const roots = await this.list();
      const where = roots.some((r) => isInside(r.path, real)) ? `outside the repository ${repo}` : `outside the allowed roots (${await this.describe()})`;
      throw new RootError(`context.path ${path} is ${where}`);
    }
    if (!exists) throw new RootError(`context.path does not exist: ${path}`);
    return relative(repo, real).split(sep).join("/");
  }
}
