// What a decision source is, as written by a person: a local folder, or a git URL with an optional ref and path
// (`https://github.com/org/architecture.git#main:decisions`). Parsed once, with zod, into a spec that keeps the
// credentials needed to fetch apart from the form every screen, log line and receipt shows (`display`), which never
// carries a user name's token or a password.
import { basename, isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { sha256 } from "../hash";
import { hasControlChars, terminalSafe } from "../sanitize";

/** The URL schemes a git source may use: anything else (http, git://, ext::, a remote helper) is refused. */
export const SOURCE_SCHEMES = ["https", "ssh", "file"] as const;
export type SourceScheme = (typeof SOURCE_SCHEMES)[number];

const MAX_SPEC_CHARS = 2000;
/** A ref git accepts and that cannot be read as an option; no `..`, no `@{`, no control characters. */
const REF = /^(?!-)(?!.*\.\.)(?!.*@\{)[A-Za-z0-9._/+-]{1,200}$/;
/** A path inside the source: relative, forward slashes, no `..` segment. */
const SUB_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\0\\:*?"<>|]{1,300}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const SourceSpecSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("folder"),
    /** Short name citations carry: `architecture:decisions/0007-x.md:12-20`. */
    name: z.string().regex(NAME),
    /** Absolute folder path. */
    folder: z.string().min(1),
    display: z.string(),
  }),
  z.object({
    kind: z.literal("git"),
    name: z.string().regex(NAME),
    scheme: z.enum(SOURCE_SCHEMES),
    /** The URL git fetches from, credentials included: never shown, logged or written anywhere but to git. */
    url: z.string().min(1),
    /** The URL without credentials, plus `#ref:path`: what is shown, logged and written to a receipt. */
    display: z.string(),
    /** The URL without credentials, without `#…`: the cache key. */
    safeUrl: z.string(),
    ref: z.string().regex(REF).optional(),
    path: z.string().regex(SUB_PATH).optional(),
  }),
]);
export type SourceSpec = z.infer<typeof SourceSpecSchema>;

/** A spec that could not be parsed: its one-line reason, and the spec as it may be shown. */
export interface BadSource {
  bad: true;
  display: string;
  reason: string;
}

/** `name=` before the spec names the source explicitly: `arch=https://…`. */
const NAMED = /^([A-Za-z0-9][A-Za-z0-9._-]{0,63})=/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
/** scp-like ssh: `git@host:org/repo.git`. */
const SCP = /^([A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?!\/\/)([^#]+)$/;

/**
 * Parses one source as a person wrote it. `cwd` resolves a relative folder. Never throws: bad input comes back as a
 * BadSource with a one-line reason and a display form stripped of credentials.
 */
export function parseSourceSpec(raw: string, cwd: string = process.cwd()): SourceSpec | BadSource {
  const text = (raw ?? "").trim();
  const shown = redactText(text).slice(0, 300);
  if (!text) return { bad: true, display: "(empty)", reason: "the source is empty" };
  if (text.length > MAX_SPEC_CHARS) return { bad: true, display: `${shown}…`, reason: `the source is longer than ${MAX_SPEC_CHARS} characters` };
  if (hasControlChars(text) || /[\n\r\t]/.test(text)) return { bad: true, display: terminalSafe(shown), reason: "the source contains control characters" };
  let name: string | undefined;
  let body = text;
  const named = NAMED.exec(text);
  if (named && (SCHEME.test(text.slice(named[0].length)) || !SCHEME.test(text))) {
    name = named[1];
    body = text.slice(named[0].length);
  }
  if (body.startsWith("-")) return { bad: true, display: shown, reason: "a source may not start with '-'" };
  const scheme = SCHEME.exec(body)?.[1]?.toLowerCase();
  if (scheme) return parseGitUrl(body, scheme, name);
  const scp = SCP.exec(body.split("#")[0]);
  if (scp && !isAbsolute(body) && !/^[A-Za-z]:[\\/]/.test(body) && body.split("#")[0].includes("@")) return parseGitUrl(`ssh://${scp[1] ?? ""}${scp[2]}/${scp[3]}${body.includes("#") ? body.slice(body.indexOf("#")) : ""}`, "ssh", name);
  const folder = resolve(cwd, body);
  return check({ kind: "folder", name: name ?? nameFrom(basename(folder)), folder, display: folder }, shown);
}

function parseGitUrl(body: string, scheme: string, name: string | undefined): SourceSpec | BadSource {
  const hash = body.indexOf("#");
  const urlText = hash >= 0 ? body.slice(0, hash) : body;
  const fragment = hash >= 0 ? body.slice(hash + 1) : "";
  if (!(SOURCE_SCHEMES as readonly string[]).includes(scheme)) {
    return { bad: true, display: redactText(body).slice(0, 300), reason: `only https, ssh and file URLs are allowed, not ${scheme}://` };
  }
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return { bad: true, display: redactText(body).slice(0, 300), reason: "not a valid URL" };
  }
  if (scheme !== "file" && !url.hostname) return { bad: true, display: redactText(body).slice(0, 300), reason: "the URL names no host" };
  const safe = new URL(url.href);
  // A user name in an https or file URL is where tokens go (https://TOKEN@host); an ssh user name (git@) is not secret.
  if (scheme !== "ssh") safe.username = "";
  safe.password = "";
  // A token may also ride in the query (`?private_token=…`): the fetch keeps it, nothing shown does.
  safe.search = "";
  const safeUrl = safe.href.replace(/\/$/, "");
  const colon = fragment.indexOf(":");
  const ref = (colon >= 0 ? fragment.slice(0, colon) : fragment) || undefined;
  const path = (colon >= 0 ? fragment.slice(colon + 1) : "").replace(/^\.?\/+|\/+$/g, "") || undefined;
  const display = `${safeUrl}${ref || path ? `#${ref ?? ""}${path ? `:${path}` : ""}` : ""}`;
  const repoName = url.pathname.split("/").filter(Boolean).pop()?.replace(/\.git$/i, "") ?? "";
  return check({ kind: "git", name: name ?? nameFrom(repoName || url.hostname), scheme: scheme as SourceScheme, url: url.href, display, safeUrl, ...(ref ? { ref } : {}), ...(path ? { path } : {}) }, display);
}

function check(candidate: SourceSpec, display: string): SourceSpec | BadSource {
  const parsed = SourceSpecSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[issue.path.length - 1] ?? "source");
  return { bad: true, display, reason: `invalid ${field === "ref" ? "ref" : field === "path" ? "path inside the source" : field === "name" ? "source name" : field}` };
}

/** A name a citation can carry: the folder's or repository's name, with anything else replaced. */
function nameFrom(s: string): string {
  const n = s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 64);
  return n || "source";
}

/** Removes `user:password@` from every URL in a text (git's error lines echo the URL they failed on). */
export function redactText(text: string): string {
  // Capped first: the scheme's letters are rescanned from each start, so the pass is linear only on a bounded text.
  return text.slice(0, 4000).replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/@\s]*@/g, "$1");
}

/** Gives every source a distinct name (`architecture`, `architecture-2`), in order. */
export function distinctNames<T extends { name: string }>(specs: T[]): T[] {
  const taken = new Set<string>();
  return specs.map((s) => {
    let name = s.name;
    for (let i = 2; taken.has(name); i++) name = `${s.name}-${i}`;
    taken.add(name);
    return name === s.name ? s : { ...s, name };
  });
}

/** The cache folder's name for a git source: one clone per credential-free URL and ref. */
export function cacheKeyOf(spec: Pick<Extract<SourceSpec, { kind: "git" }>, "safeUrl" | "ref">): string {
  return sha256(`${spec.safeUrl}#${spec.ref ?? ""}`).slice(0, 24);
}

export function isBadSource(s: SourceSpec | BadSource): s is BadSource {
  return "bad" in s;
}
