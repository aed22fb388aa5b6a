// The guard on the dev11 batch's kinds (issue 22): a rule that turns a code shape down by example (`!!someVariable`),
// an option that is the absence of a thing, a title that swaps or deprecates, a folder the project already had that a
// rejected option's word names, a folder named with a version number, a hook named for its library, a chosen name's
// other versions, a well-known thing written its own way, an option that uses a thing for a purpose, and a plural
// phrase written in code in the singular. Each has an innocent look-alike. Real git repositories, records written
// for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { shapeOf } from "../../src/core/guard/shapes";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";

const PKG = '{\n  "name": "shop",\n  "dependencies": {\n    "react": "^18.0.0",\n    "fetchy": "2.4.2"\n  }\n}\n';

const AGENTS = `# Agent instructions

## Coding Standards

Instead of \`!!someVariable\` prefer \`Boolean(someVariable)\`.
`;

const TABLES_ADR = `---
title: "ADR: Handling grids"
---

## Background

We need to handle grid state on different pages. Some pages do client side grid handling while others offload work to the server.

Grid handling consists of 3 parts:
* API call and **server side data handling**
* column definitions and **client side data handling** (handled either by react-table or custom code)
* Material-UI rendering components

### Options

For pages with no server data handling we need \`react-table\` for client side data handling.
For pages with server data handling we considered two options that we implemented in a spike:
* not using \`react-table\` and writing minimal custom code for column visibility, data mapping and row selection.
Not much else is required since server side is doing sorting/pagination/searching/filtering
* using \`react-table\` with the extra cost of the library magic and writing connectors from backend data to \`react-table\` structures

The tradeoff is between simplicity of the pages that support server side data handling and the consistency
between the definitions of the client side and server side powered grids.

## Decision

We have decided to **favor consistency over one-off simplicity**.
Using \`react-table\` comes at a cost but allows to change between client and server side data handling with lesser effort.
`;

const SWAP_ADR = `# Swapping JS Bundler Packrat for Zippy

Date: 2024-02-01

## Status

Accepted

## Context

Our bundles take minutes to build.

## Decision

We will build the front end with Zippy from now on.
`;

const DEPRECATE_ADR = `---
title: "ADR: Use of conditionals in JSX (deprecation of \`<ShowWhen />\`)"
---

## Background

The \`<ShowWhen />\` component renders its child when a condition holds, but types poorly.

## Decision

Use the ternary operator for conditional rendering.
`;

const FETCH_ADR = `---
title: "ADR: Preferred data fetching method"
---

## Background

We need one way to fetch data.

## Decision

We have decided to fetch all of our data via a third party library called \`useFETCHY\` (a cache strategy).
`;

const INFRA_ADR = `# 14. Launch config change propagation

Date: 2017-09-01

## Status

Accepted

## Context

Changing a launch configuration does not replace running instances.

## Decision

We considered the following options:

- Embedding Gizmoform in Terraform to more tightly manage instance life-cycle
- Creating a new group for every launch config

We will replace instances by hand after a change.
`;

const PROXY_ADR = `# 22. Remove the Searchlight proxy

Date: 2017-10-01

## Status

Accepted

## Context

Each search node ran a local proxy in front of Searchlight.

## Decision

We will remove the proxy and accept the load balancers as its replacement.
`;

const WEBGL_ADR = `# 6. Use Rendergl1 for the browser window

Date: 2018-08-31

## Status

Accepted

## Context

We weighed three technologies for the bottom layer. Browsers do not yet support Rendergl2 reliably, so Rendergl1 is chosen.

## Decision

Use Rendergl1.
`;

const DB_ADR = `# 3. Prefer open source software

Date: 2021-03-01

## Status

Accepted

## Context

The case viewer needs a database.

## Decision

We will use PostgreSQL instead of Microsoft SQLServer.
`;

const COVERAGE_ADR = `# Feature Coverage in API

* Status: accepted
* Date: 2020-03-03

## Context and Problem Statement

We want our API to cover all the functionalities that are currently implemented in the UI.

## Considered Options

### Using Behat for the feature coverage

* Good, because we can track the coverage easily

### Using PHPUnit for the feature coverage

* Bad, because it is not easy to track features covered with API compared with Behat

## Decision Outcome

Chosen *Using Behat for the feature coverage*, because it's the only option that meets all the decision drivers.
`;

const COMPOSER = '{\n    "name": "acme/shop",\n    "require-dev": {\n        "behat/behat": "^3.14"\n    }\n}\n';

const FORMS_ADR = `# Use Separate Base Form Types Instead of Type Extensions

* Status: Accepted
* Date: 2024-05-15

## Context and Problem Statement

Form extensions work globally, which prevents us from reusing a form type in different contexts.

## Considered Options

### Use Separate Form Types

* Good, because it separates admin and shop form types.

### Continue Using Type Extensions

* Bad, because extensions affect all contexts globally.

## Decision Outcome

Chosen option: "Use Separate Form Types", because it provides a clear way to customize form types per context.
`;

describe("guard: the dev11 batch's kinds (round 31)", () => {
  test("a code shape a rule turns down by example is found with any name; the preferred form and strings are not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": AGENTS, "package.json": PKG, "src/flags.ts": "export const flags = {};\n" } }]);
    const bad = await checkFilesOverHead(repo, { "src/links.ts": "export const hasLinks = (links?: string[]): boolean => !!links?.length;\n" });
    assert.deepEqual(findingSummary(bad), ["breaks-rule AGENTS.md"]);
    const good = await checkFilesOverHead(repo, { "src/links.ts": "export const hasLinks = (links?: string[]): boolean => Boolean(links?.length);\n" });
    assert.deepEqual(findingSummary(good), []);
    const quoted = await checkFilesOverHead(repo, { "src/links.ts": "export const help = \"write !!value to coerce\"; // not !!here either\n" });
    assert.deepEqual(findingSummary(quoted), []);
    // Only an example with a stand-in name and an operator around it is a shape.
    assert.ok(shapeOf("!!someVariable")?.test("x = !!a.b"));
    assert.equal(shapeOf("!!someVariable")?.test("x = !!!a"), false);
    assert.equal(shapeOf("someFunction"), undefined);
    assert.equal(shapeOf("lodash"), undefined);
  });

  test("an option that is the absence of a thing turns that thing down no more; the decision keeps it", async () => {
    const repo = createGitRepo([{ message: "init", files: { "contributing/ADRs/front-end/handling-grids.md": TABLES_ADR, "package.json": PKG } }]);
    const used = await checkFilesOverHead(repo, { "src/grid.ts": "import { useGrid } from 'react-table';\n\nexport const grid = useGrid;\n" });
    assert.deepEqual(findingSummary(used), []);
  });

  test("a title that swaps X for Y turns X down and keeps Y", async () => {
    const repo = createGitRepo([{ message: "init", files: { "ADR/ADR033-swapping-bundler.md": SWAP_ADR, "README.md": "# shop\n" } }]);
    const swapped = await checkFilesOverHead(repo, { "admin/package.json": '{\n  "name": "admin",\n  "devDependencies": {\n    "packrat": "^3.0.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(swapped), ["introduces-rejected-option ADR/ADR033-swapping-bundler.md"]);
    const chosen = await checkFilesOverHead(repo, { "admin/package.json": '{\n  "name": "admin",\n  "devDependencies": {\n    "zippy": "^1.0.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(chosen), []);
  });

  test("what a title deprecates is turned down; the way it asks for is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "contributing/ADRs/jsx-conditionals.md": DEPRECATE_ADR, "package.json": PKG } }]);
    const deprecated = await checkFilesOverHead(repo, {
      "src/Empty.tsx": "import { ShowWhen } from 'component/common/ShowWhen/ShowWhen';\n\nexport const Empty = ({ n }: { n: number }) => <ShowWhen condition={n === 0} show={<p>None</p>} />;\n",
    });
    assert.deepEqual([...new Set(findingSummary(deprecated))], ["introduces-rejected-option contributing/ADRs/jsx-conditionals.md"]);
    const ternary = await checkFilesOverHead(repo, { "src/Empty.tsx": "export const Empty = ({ n }: { n: number }) => (n === 0 ? <p>None</p> : null);\n" });
    assert.deepEqual(findingSummary(ternary), []);
  });

  test("a hook named for its library's acronym keeps the library: dropping the package drops the choice", async () => {
    const repo = createGitRepo([{ message: "init", files: { "contributing/ADRs/data-fetching.md": FETCH_ADR, "package.json": PKG } }]);
    const dropped = await checkFilesOverHead(repo, { "package.json": '{\n  "name": "shop",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(dropped), ["removes-chosen-option contributing/ADRs/data-fetching.md"]);
    const bumped = await checkFilesOverHead(repo, { "package.json": '{\n  "name": "shop",\n  "dependencies": {\n    "react": "^18.0.0",\n    "fetchy": "2.5.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(bumped), []);
  });

  test("a folder the project already had names nothing a new config file brings in; a folder the change creates does", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0014-launch-config.md": INFRA_ADR, "terraform/projects/app-web/main.tf": 'resource "aws_s3_bucket" "web" {}\n' } }]);
    const own = await checkFilesOverHead(repo, { "terraform/projects/app-rds/main.tf": 'resource "aws_db_instance" "main" {\n  engine = "postgres"\n}\n' });
    assert.deepEqual(findingSummary(own), []);
    const created = await checkFilesOverHead(repo, { "gizmoform/stacks/instances.yaml": "Resources: {}\n" });
    assert.deepEqual(findingSummary(created), ["introduces-rejected-option docs/adr/0014-launch-config.md"]);
  });

  test("a folder named with a version number is the project's own name for the thing", async () => {
    const vars = 'variable "region" {\n  type = string\n}\n';
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0022-remove-the-searchlight-proxy.md": PROXY_ADR, "terraform/projects/app-searchlight6/variables.tf": vars, "terraform/projects/app-web/variables.tf": vars } }]);
    const variable = 'variable "node_count" {\n  type        = number\n  description = "The number of Searchlight data nodes"\n}\n';
    const own = await checkFilesOverHead(repo, { "terraform/projects/app-searchlight6/variables.tf": vars + variable });
    assert.deepEqual(findingSummary(own), []);
    const elsewhere = await checkFilesOverHead(repo, { "terraform/projects/app-web/variables.tf": vars + variable });
    assert.deepEqual(findingSummary(elsewhere), ["introduces-rejected-option docs/adr/0022-remove-the-searchlight-proxy.md"]);
  });
  test("a chosen name with its version sets aside the other versions the record writes, also as a call's one-word argument", async () => {
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0006-rendergl.md": WEBGL_ADR, "package.json": PKG } }]);
    const other = await checkFilesOverHead(repo, { "src/browser/view.ts": "export const gl = (c: HTMLCanvasElement) => c.getContext('rendergl2');\n" });
    assert.deepEqual(findingSummary(other), ["introduces-rejected-option doc/adr/0006-rendergl.md"]);
    const chosen = await checkFilesOverHead(repo, { "src/browser/view.ts": "export const gl = (c: HTMLCanvasElement) => c.getContext('rendergl1');\n" });
    assert.deepEqual(findingSummary(chosen), []);
    // A mention in a sentence-like string is still a mention.
    const said = await checkFilesOverHead(repo, { "src/browser/view.ts": "export const note = 'rendergl2 is not supported yet';\n" });
    assert.deepEqual(findingSummary(said), []);
  });

  test("a well-known thing the record writes its own way is turned down as its packages and images too", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/decisions/0003-prefer-open-source-software.md": DB_ADR, "package.json": PKG } }]);
    const driver = await checkFilesOverHead(repo, { "package.json": '{\n  "name": "shop",\n  "dependencies": {\n    "react": "^18.0.0",\n    "fetchy": "2.4.2",\n    "mssql": "^10.0.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(driver), ["introduces-rejected-option docs/decisions/0003-prefer-open-source-software.md"]);
    const image = await checkFilesOverHead(repo, { "docker-compose.yml": "services:\n  db:\n    image: mcr.microsoft.com/mssql/server:2019-latest\n" });
    assert.deepEqual(findingSummary(image), ["introduces-rejected-option docs/decisions/0003-prefer-open-source-software.md"]);
    const chosen = await checkFilesOverHead(repo, { "docker-compose.yml": "services:\n  db:\n    image: postgres:16\n" });
    assert.deepEqual(findingSummary(chosen), []);
  });
  test("an option that uses a thing for a purpose turns down a new dependency on it, not its use elsewhere", async () => {
    const repo = createGitRepo([{ message: "init", files: { "adr/2020_03_03_feature_coverage_in_api.md": COVERAGE_ADR, "composer.json": COMPOSER } }]);
    const unit = await checkFilesOverHead(repo, { "src/Admin/Tests/FormTest.php": "<?php\n\nnamespace Acme\\Admin\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class FormTest extends TestCase {}\n" });
    assert.deepEqual(findingSummary(unit), []);
    const added = await checkFilesOverHead(repo, { "composer.json": '{\n    "name": "acme/shop",\n    "require-dev": {\n        "behat/behat": "^3.14",\n        "phpunit/phpunit": "^10.5"\n    }\n}\n' });
    assert.deepEqual(findingSummary(added), ["introduces-rejected-option adr/2020_03_03_feature_coverage_in_api.md"]);
  });
  test("a plural option of two words is one of them in code, run together in the singular; the word alone is not", async () => {
    const old = "<?php\n\nnamespace Acme\\Admin\\Form\\Extension;\n\nfinal class OrderTypeExtension extends AbstractTypeExtension\n{\n}\n";
    const repo = createGitRepo([{ message: "init", files: { "adr/2024_05_15_use_separate_base_form_types.md": FORMS_ADR, "composer.json": COMPOSER, "src/Admin/Form/Extension/OrderTypeExtension.php": old } }]);
    const ext = "<?php\n\nnamespace Acme\\Admin\\Form\\Extension;\n\nfinal class VariantTypeExtension extends AbstractTypeExtension\n{\n}\n";
    const extension = await checkFilesOverHead(repo, { "src/Admin/Form/Extension/VariantTypeExtension.php": ext });
    assert.deepEqual([...new Set(findingSummary(extension))], ["introduces-rejected-option adr/2024_05_15_use_separate_base_form_types.md"]);
    const own = "<?php\n\nnamespace Acme\\Admin\\Form\\Extension;\n\nfinal class FileNames\n{\n    public function ext(\\SplFileInfo $f): string { return $f->getExtension(); }\n}\n";
    const other = await checkFilesOverHead(repo, { "src/Admin/Form/Extension/FileNames.php": own });
    assert.deepEqual(findingSummary(other), []);
  });
});
