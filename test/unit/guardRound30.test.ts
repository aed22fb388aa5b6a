// The guard on records it had never seen (issue 22, dev9): a date format fixed in plain words, tools a record says
// "have been replaced", products a team trialled before it went with something else, an npm scope named for its
// vendor, and a keep-out word that belongs to another key of the same line. Each has an innocent look-alike. Real
// git repositories, records written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { proseOptionsOf } from "../../src/core/guard/proseOptions";
import { scopeBrandOf } from "../../src/core/guard/match";
import { parseAdr } from "../../src/core/internal/adr";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";

const DATES_ADR = `# 4. Write dates one way

Date: 2023-02-01

## Status

Accepted

## Context

Reports print dates in three different orders.

## Decision

We will use the year-first format for every date we print: yyyy-mm-dd.
`;

const BUNDLER_ADR = `# 2. Bundling the shop front

Date: 2022-06-01

## Status

Accepted

## Context

The shop front needs a bundler.

## Decision

Rollup bundles the shop front.

## Consequences

The \`awesome-typescript-loader\` and \`tslint\` packages have been replaced by Rollup's own plugins. A later move to
esbuild could be replaced by something else again.
`;

const CMS_ADR = `# 7. Where help pages live

Date: 2021-11-01

## Status

Accepted

## Context

Support staff write help pages and want to preview them.

## Decision

We trialled two hosted services (Sanitas, a paid platform, and Contentor, a self-hosted editor) as well as pages kept
in the repository as Markdown. Staff liked the repository pages best. We have therefore decided to go with the
pages in the repository.
`;

const CMS_CHOSEN_ADR = CMS_ADR.replace("decided to go with the\npages in the repository", "decided to go with Contentor");

const PKG = '{\n  "name": "shop",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n';
const withDep = (name: string, version: string) => PKG.replace('"react": "^18.0.0"', `"react": "^18.0.0",\n    "${name}": "${version}"`);

describe("guard: records it had never seen (round 30)", () => {
  test("a date format written in plain words is kept: another order breaks it, the same one does not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/decisions/0004-dates.md": DATES_ADR, "src/a.js": "export const a = 1;\n" } }]);
    const other = await checkFilesOverHead(repo, { "src/dates.js": "import { format } from 'date-fns';\nexport const show = (d) => format(d, 'MM/dd/yyyy');\n" });
    assert.deepEqual(findingSummary(other), ["breaks-rule docs/decisions/0004-dates.md"]);
    const same = await checkFilesOverHead(repo, { "src/dates.js": "import { format } from 'date-fns';\nexport const show = (d) => format(d, 'yyyy-MM-dd');\n" });
    assert.deepEqual(findingSummary(same), []);
  });

  test("what a record says has been replaced is turned down; a replacement one could make is not", () => {
    const read = proseOptionsOf(parseAdr("doc/adr/0002-bundling.md", BUNDLER_ADR), undefined);
    assert.deepEqual(read.rejected.map((r) => r.name), ["awesome-typescript-loader", "tslint"]);
  });

  test("a replaced loader in a bundler config is a conflict, even beside an exclusion of something else; the chosen one is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0002-bundling.md": BUNDLER_ADR, "package.json": PKG } }]);
    const rule = (loader: string) => `module.exports = {\n  module: {\n    rules: [\n      { test: /\\.tsx?$/, use: '${loader}', exclude: /node_modules/ }\n    ]\n  }\n};\n`;
    const replaced = await checkFilesOverHead(repo, { "bundler.config.js": rule("awesome-typescript-loader") });
    assert.deepEqual(findingSummary(replaced), ["introduces-rejected-option doc/adr/0002-bundling.md"]);
    const kept = await checkFilesOverHead(repo, { "bundler.config.js": rule("babel-loader") });
    assert.deepEqual(findingSummary(kept), []);
    // A key that keeps the name out still does (`exclude` before it).
    const excluded = await checkFilesOverHead(repo, { "bundler.config.js": "module.exports = { exclude: ['awesome-typescript-loader'] };\n" });
    assert.deepEqual(findingSummary(excluded), []);
  });

  test("products a team trialled and then did not go with are turned down; one it went with is chosen", () => {
    const notChosen = proseOptionsOf(parseAdr("doc/adr/0007-help.md", CMS_ADR), undefined);
    assert.deepEqual(notChosen.rejected.map((r) => r.name), ["Sanitas", "Contentor"]);
    const chosen = proseOptionsOf(parseAdr("doc/adr/0007-help.md", CMS_CHOSEN_ADR), undefined);
    assert.ok(!chosen.rejected.some((r) => r.name === "Contentor"));
  });

  test("a vendor's scoped package names the vendor; the chosen pages and an unrelated scope do not", async () => {
    assert.equal(scopeBrandOf("@sanitasio/client"), "sanitas");
    assert.equal(scopeBrandOf("@reduxjs/toolkit"), "redux");
    assert.equal(scopeBrandOf("@babel/core"), undefined);
    assert.equal(scopeBrandOf("left-pad"), undefined);
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0007-help-pages.md": CMS_ADR, "package.json": PKG } }]);
    const vendor = await checkFilesOverHead(repo, { "package.json": withDep("@sanitasio/client", "^6.0.0") });
    assert.deepEqual(findingSummary(vendor), ["introduces-rejected-option doc/adr/0007-help-pages.md"]);
    const markdown = await checkFilesOverHead(repo, { "package.json": withDep("@mdx-js/react", "^3.0.0") });
    assert.deepEqual(findingSummary(markdown), []);
    const doc = await checkFilesOverHead(repo, { "docs/help.md": "Help pages live in the repository; we did not keep Sanitas or Contentor.\n" });
    assert.deepEqual(findingSummary(doc), []);
  });
});
