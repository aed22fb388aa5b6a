// A small repository with decisions for the decision guard's tests: an accepted MADR record that considered Tailwind
// CSS and chose Pollen CSS, a superseded record that chose MySQL (replaced by one that chose PostgreSQL), and an
// AGENTS.md with "do not use" rules. Committed, so tests change the working tree or the index against HEAD.
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { createGitRepo, git, writeFiles } from "./gitRepo";

export const CSS_ADR_PATH = "docs/adr/0007-use-pollen-css.md";

export const CSS_ADR = `# 7. Use Pollen CSS for styling

Date: 2024-03-01

## Status

Accepted

## Context and Problem Statement

How should the web app be styled?

## Considered Options

* Tailwind CSS
* Pollen CSS
* Plain CSS modules

## Decision Outcome

Chosen option: "Pollen CSS", because it keeps the markup readable and the variables themable.

## Pros and Cons of the Options

### Tailwind CSS

* Bad, because utility classes clutter the markup of every component.

### Pollen CSS

* Good, because it is only CSS variables.
`;

const OLD_DB_ADR = `# 3. Use MySQL

Date: 2023-01-01

## Status

Superseded by [ADR 8](0008-use-postgresql.md)

## Context

Which database should the service use?

## Considered Options

* MySQL
* PostgreSQL

## Decision Outcome

Chosen option: "MySQL", because the team knows it.
`;

const DB_ADR = `# 8. Use PostgreSQL

Date: 2024-05-01

## Status

Accepted

Supersedes [ADR 3](0003-use-mysql.md)

## Context

Which database should the service use, now that we need JSON columns?

## Considered Options

* PostgreSQL
* MySQL
* MongoDB

## Decision Outcome

Chosen option: "PostgreSQL", because JSONB and row-level security fit the data. The database code lives in \`src/db/\`.
`;

export const AGENTS = `# Agent instructions

- Do not use moment; it is deprecated. Use \`date-fns\`.
- Never use innerHTML for user text.
- Run the tests before you push.
- \`src/core/\` never imports \`vscode\`; the hosts do.
`;

export const PACKAGE_JSON = `${JSON.stringify({ name: "shop", version: "1.0.0", dependencies: { "pollen-css": "^4.0.0", pg: "^8.11.0", "date-fns": "^3.6.0" } }, null, 2)}\n`;

/** The package.json with extra dependencies (and without the given ones). */
export function packageJsonWith(add: Record<string, string>, drop: string[] = []): string {
  const deps: Record<string, string> = { "pollen-css": "^4.0.0", pg: "^8.11.0", "date-fns": "^3.6.0", ...add };
  for (const d of drop) delete deps[d];
  return `${JSON.stringify({ name: "shop", version: "1.0.0", dependencies: deps }, null, 2)}\n`;
}

export function createGuardRepo(dir?: string): string {
  return createGitRepo(
    [
      {
        message: "decisions and app",
        files: {
          [CSS_ADR_PATH]: CSS_ADR,
          "docs/adr/0003-use-mysql.md": OLD_DB_ADR,
          "docs/adr/0008-use-postgresql.md": DB_ADR,
          "AGENTS.md": AGENTS,
          "package.json": PACKAGE_JSON,
          "src/app.ts": "import { format } from \"date-fns\";\n\nexport const today = () => format(new Date(), \"yyyy-MM-dd\");\n",
          "src/db/pool.ts": "import { Pool } from \"pg\";\n\nexport const pool = new Pool();\n",
          "README.md": "# Shop\n",
        },
      },
    ],
    dir,
  );
}

/** The guard's report on a repository's working tree against HEAD, checked against its schema. */
export async function checkWorktree(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

/** Resets the working tree to HEAD, writes `files` over it and checks that change: one change per call. */
export async function checkFilesOverHead(repo: string, files: Record<string, string>): Promise<GuardReport> {
  git(repo, ["checkout", "-q", "--", "."]);
  git(repo, ["clean", "-fdq"]);
  writeFiles(repo, files);
  return checkWorktree(repo);
}

/** The findings above "low" (a hint to deliberate), and each as "kind path" for a compact assertion. */
export const strongFindings = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low");
export const findingSummary = (r: GuardReport) => strongFindings(r).map((f) => `${f.kind} ${f.decision.path}`);
