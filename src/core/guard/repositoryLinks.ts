// A rejected option that a record introduces by a link to its code repository ("a 3rd party Lambda … -
// <https://github.com/owner/terraform-aws-lambda-scheduler-stop-start>") is known by that repository: its owner and
// name in a row, as a module source, a clone URL or an import path writes them. A Terraform module's repository is
// named `terraform-<provider>-<name>` and the registry addresses it as `<owner>/<name>/<provider>`, so that form
// names it too. Only a link to a repository itself (not to a file, an issue or a pull request in it).
import type { ParsedAdr } from "../internal/adr";
import { tokensOf, type NameKeys } from "./names";

/** A link to a repository on a code host: owner and name, nothing after but a slash, `.git`, a fragment or a query. */
const REPOSITORY_LINK = /\bhttps?:\/\/(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100}?)(?:\.git)?\/?(?=$|[\s)>\]"'#?])/g;
/** Path words a code host uses for its own pages, not owners. */
const HOST_PAGES = new Set(["orgs", "topics", "features", "marketplace", "sponsors", "settings", "apps", "collections", "explore"]);
const TERRAFORM_MODULE = /^terraform-([a-z0-9]+)-([a-z0-9][a-z0-9-]*)$/;
/** Links read from one option's section at most. */
const MAX_LINKS = 4;

export interface RepositoryName {
  name: string;
  keys: NameKeys;
}

/** The repositories a text links to, each keyed by its owner and name in a row (and a Terraform module's registry address). */
export function repositoriesLinkedIn(text: string): RepositoryName[] {
  const out: RepositoryName[] = [];
  for (const m of text.slice(0, 20_000).matchAll(REPOSITORY_LINK)) {
    const [owner, repo] = [m[1], m[2]];
    if (HOST_PAGES.has(owner.toLowerCase()) || out.length >= MAX_LINKS * 2) continue;
    const name = `${owner}/${repo}`;
    if (out.some((r) => r.name === name)) continue;
    const exact = tokensOf(`${owner} ${repo}`);
    // Owner and name of at least three words in all: a two-word pair ("acme/tool") is too easily an ordinary phrase.
    if (exact.length < 3) continue;
    out.push({ name, keys: { display: name, exact, tokens: [] } });
    const module = TERRAFORM_MODULE.exec(repo.toLowerCase());
    if (module) out.push({ name: `${owner}/${module[2]}/${module[1]}`, keys: { display: `${owner}/${module[2]}/${module[1]}`, exact: tokensOf(`${owner} ${module[2]} ${module[1]}`), tokens: [] } });
  }
  return out;
}

const DECISION_HEADING = /\b(?:decision|outcome|resolution|conclusion)\b/i;

/**
 * The repositories the section headed at `optionStart` links to (a rejected option's own section), less the ones a
 * decision section links as well (the choice may build on the same repository).
 */
export function optionRepositories(adr: ParsedAdr, optionStart: number, lines: readonly string[]): RepositoryName[] {
  const { sections } = adr.doc;
  const own = sections.find((s) => s.level > 0 && s.start === optionStart);
  if (!own) return [];
  const textOf = (s: { start: number; contentEnd: number }) => lines.slice(s.start - 1, Math.min(s.contentEnd, s.start + 200)).join("\n");
  const decided = new Set(sections.filter((s) => s.level > 0 && DECISION_HEADING.test(s.heading.slice(0, 200))).flatMap((s) => repositoriesLinkedIn(textOf(s)).map((r) => r.name.toLowerCase())));
  return repositoriesLinkedIn(textOf(own)).filter((r) => !decided.has(r.name.toLowerCase()));
}

/**
 * The repositories a record links as a turned-down thing's implementation, on a line that opens with the thing's name
 * ("[Gossip](…) protocol (with the [membership](https://github.com/hashicorp/memberlist) implementation)"). An owner
 * and name of two words key with the host before them (`github.com/hashicorp/memberlist`, as a module path writes it).
 */
export function implementationRepositories(lines: readonly string[], name: string): RepositoryName[] {
  const lead = name.trim().toLowerCase();
  if (lead.length < 3) return [];
  const out: RepositoryName[] = [];
  for (const line of lines.slice(0, 2000)) {
    const bare = line.replace(/^\s*(?:[-*+]|\d{1,3}[.)])?\s*/, "").replace(/^\[([^\]]{1,80})\]\([^)\s]{0,300}\)/, "$1").replace(/[`*_]/g, "").toLowerCase();
    if (!bare.startsWith(lead) || /[\w-]/.test(bare.charAt(lead.length)) || !/\bimplementations?\b/i.test(line)) continue;
    for (const m of line.slice(0, 2000).matchAll(REPOSITORY_LINK)) {
      const [host, owner, repo] = [/https?:\/\/(?:www\.)?([^/]+)/.exec(m[0])![1], m[1], m[2]];
      if (HOST_PAGES.has(owner.toLowerCase()) || out.length >= MAX_LINKS) continue;
      const exact = tokensOf(`${owner} ${repo}`);
      const keyed = exact.length >= 3 ? exact : tokensOf(`${host} ${owner} ${repo}`);
      out.push({ name: `${owner}/${repo}`, keys: { display: `${owner}/${repo}`, exact: keyed, tokens: [] } });
    }
  }
  return out;
}
