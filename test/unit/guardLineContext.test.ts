// Lines that name a turned-down option without going against the record: an everyday word that is only what is left
// of the option's name once the words it shares with the chosen one are set aside ("Hub" of Docker Hub, "required" of
// "Required TLS"), a deny or ignore list that keeps the option out, and a test fixture's data. Each beside the change
// that does go against the record, so the guard stays able to fail. Real git, the working tree against HEAD.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { inPassing, keysOf, namesWhole } from "../../src/core/guard/names";
import { isFixturePath, keptOutAt } from "../../src/core/guard/lineContext";
import { createGitRepo, git, writeFiles } from "../helpers/gitRepo";
import { checkFilesOverHead, checkWorktree } from "../helpers/guardRepo";

const REGISTRY = `# 9. Container registry

## Status

Accepted

## Context and Problem Statement

The service is containerised with Docker. Where should its images be stored?

## Considered Options

- Azure Container Registry
- Docker Hub

## Decision Outcome

Chosen option: Azure Container Registry, as it sits next to the rest of the hosting.
`;

const TLS = `# 1. Use optional TLS for the incoming SMTP server

## Status

Accepted

## Considered Options

- Use optional TLS for incoming email
- Keep "Required TLS" for incoming email

## Decision Outcome

Chosen option: "Use optional TLS for incoming email", because senders without TLS lose mail otherwise.
`;

const LOGGING = `# 4. Use zap for logging

## Status

Accepted

## Considered Options

- zap
- logrus

## Decision Outcome

Chosen option: zap, because logrus is slow and in maintenance mode.
`;

const STYLE = `# 2. Use ESLint with the Airbnb code style

## Status

Accepted

## Considered Options

- ESLint with Airbnb code style
- ESLint with Google code style

## Decision Outcome

Chosen option: "ESLint with Airbnb code style", because most contributors know it.
`;

function repoWith(files: Record<string, string>): string {
  return createGitRepo([{ message: "init", files: { "docs/adr/0009-container-registry.md": REGISTRY, "docs/adr/0001-optional-tls.md": TLS, "docs/adr/0004-use-zap.md": LOGGING, "docs/adr/0002-code-style.md": STYLE, "README.md": "# svc\n", ...files } }]);
}

/** Findings as "severity file:line ← record", after writing `files` into a fresh clean tree. */
async function findingsFor(repo: string, files: Record<string, string>): Promise<string[]> {
  const report = await checkFilesOverHead(repo, files);
  return report.findings.map((f) => `${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

describe("guard: the word left of a turned-down option's name", () => {
  test("keys cut to one plain word, and two-word phrases, carry the whole name; acronyms and lists do not", () => {
    assert.deepEqual(keysOf("Docker Hub", new Set(["docker"]))?.whole, ["docker", "hub"]);
    assert.deepEqual(keysOf('Keep "Required TLS" for incoming email', new Set(["tls"]))?.whole, ["required", "tls"]);
    assert.equal(keysOf("RESTful API Modeling Language (RAML)", new Set(["modeling"]))?.whole, undefined, "two words left name it");
    assert.deepEqual(keysOf("Docker Hub")?.whole, ["docker", "hub"], "one phrase of two naming words is neither alone");
    assert.equal(keysOf("Selenium / specflow")?.whole, undefined, "a name that lists two things is either");
    assert.ok(namesWhole(["secrets", "dockerhub", "token"], ["docker", "hub"]), "run together");
    assert.ok(namesWhole(["eslintrc", "google"], ["eslint", "google"]), "the file's name holds the other word");
    assert.ok(!namesWhole(["public", "class", "notificationhub", "hub"], ["docker", "hub"]));
  });

  test("an everyday word is no finding in code or config; the whole name still is", async () => {
    const repo = repoWith({ "src/Hubs.cs": "namespace Svc;\n", "package.json": '{\n  "name": "svc",\n  "devDependencies": {\n    "eslint": "^8.0.0"\n  }\n}\n' });
    assert.deepEqual(await findingsFor(repo, { "src/Hubs.cs": "namespace Svc;\npublic class NotificationHub : Hub { }\n" }), []);
    assert.deepEqual(await findingsFor(repo, { "config/form.yml": "inputs:\n  email:\n    required: true\n" }), []);
    const push = await findingsFor(repo, { ".github/workflows/push.yml": "jobs:\n  push:\n    steps:\n      - run: echo ${{ secrets.DOCKERHUB_TOKEN }} | docker login -u me --password-stdin\n" });
    assert.ok(push.some((f) => /^(?:high|med) \.github\/workflows\/push\.yml:4 ← docs\/adr\/0009-container-registry\.md$/.test(f)), push.join("\n"));
    assert.deepEqual(await findingsFor(repo, { "config/smtp.yml": "smtp:\n  required_tls: true\n" }).then((f) => f.filter((x) => !x.startsWith("low"))), ["med config/smtp.yml:2 ← docs/adr/0001-optional-tls.md"]);
  });

  test("a tool's settings written as a script read as config: the rejected style in .eslintrc.js is flagged", async () => {
    const repo = repoWith({ ".eslintrc.js": 'module.exports = {\n  extends: [\n    "airbnb",\n  ],\n};\n' });
    const found = await findingsFor(repo, { ".eslintrc.js": 'module.exports = {\n  extends: [\n    "airbnb",\n    "google",\n  ],\n};\n' });
    assert.deepEqual(found, ["med .eslintrc.js:4 ← docs/adr/0002-code-style.md"]);
    assert.deepEqual(await findingsFor(repo, { "src/fonts.ts": 'export const fontHost = "google";\n' }).then((f) => f.filter((x) => !x.startsWith("low"))), []);
  });
});

describe("guard: lines that keep a turned-down option out", () => {
  test("keptOutAt reads the line and the keys it sits under, not its siblings", () => {
    const lines = (texts: string[]) => texts.map((text, i) => ({ line: i + 1, text }));
    const deny = lines(["deny:", '  - pkg: "github.com/sirupsen/logrus"']);
    assert.ok(keptOutAt(deny, deny[1], "logrus", false));
    const sibling = lines(["exclude:", "  - tests", "logger:", "  name: logrus"]);
    assert.ok(!keptOutAt(sibling, sibling[3], "logrus", false), "the exclude list above is a sibling's");
    const ignore = lines(['"ignoreDeps": ["logrus"]']);
    assert.ok(keptOutAt(ignore, ignore[0], "logrus", false));
    const pkg = lines(['"eslint-plugin-ban": "^1.0.0"']);
    assert.ok(!keptOutAt(pkg, pkg[0], "eslint-plugin-ban", true), "a dependency's own name says nothing");
  });

  test("a deny list, an ignore list and a restricted import are no findings; configuring it is", async () => {
    const repo = repoWith({ ".golangci.yml": "run:\n  timeout: 5m\n" });
    assert.deepEqual(await findingsFor(repo, { ".golangci.yml": 'run:\n  timeout: 5m\nlinters-settings:\n  depguard:\n    rules:\n      main:\n        deny:\n          - pkg: "github.com/sirupsen/logrus"\n' }), []);
    assert.deepEqual(await findingsFor(repo, { ".github/dependabot.yml": 'version: 2\nupdates:\n  - package-ecosystem: gomod\n    ignore:\n      - dependency-name: "github.com/sirupsen/logrus"\n' }), []);
    assert.deepEqual(await findingsFor(repo, { ".eslintrc.json": '{\n  "rules": {\n    "no-restricted-imports": ["error", "logrus"]\n  }\n}\n' }), []);
    assert.deepEqual(await findingsFor(repo, { "config/logging.yml": "logging:\n  library: logrus\n" }), ["med config/logging.yml:2 ← docs/adr/0004-use-zap.md"]);
  });
});

describe("guard: test fixtures", () => {
  test("a fixture's data naming the rejected option is a hint only", async () => {
    assert.ok(isFixturePath("internal/testdata/config.yaml") && isFixturePath("src/__fixtures__/a.json") && !isFixturePath("src/config.yaml"));
    const repo = repoWith({});
    assert.deepEqual(await findingsFor(repo, { "internal/testdata/legacy.yaml": "logger: logrus\n" }), ["low internal/testdata/legacy.yaml:1 ← docs/adr/0004-use-zap.md"]);
  });
});

const SCOPE = `# 28. Expand the scope of the platform

## Status

Accepted

## Considered Options

- Give AWS accounts directly to services teams
- Host every service on the shared platform

## Decision Outcome

Chosen option: "Host every service on the shared platform", because teams then share one way of working.

- Use directories for components instead of filenames
`;

describe("guard: a word that only opens a sentence, or is turned down in passing", () => {
  test("the keys say so: a capitalised first word of a sentence-like name; a lower-case word from prose", () => {
    assert.equal(keysOf("Give AWS accounts directly to services teams")?.leadOnly, true);
    assert.equal(keysOf("Retaining the current model")?.leadOnly, true);
    assert.equal(keysOf("Apache Kafka")?.leadOnly, undefined, "a product's name");
    assert.equal(keysOf("Docker images")?.leadOnly, undefined, "two words");
    assert.equal(inPassing({ display: "filenames", tokens: ["filenames"] }, "filenames").leadOnly, true);
    assert.equal(inPassing({ display: "Moment.js", tokens: ["moment"] }, "Moment.js").leadOnly, undefined);
  });

  test("such a word in code is no finding; as a package it is", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0028-expand-the-scope.md": SCOPE, "package.json": '{\n  "name": "svc",\n  "dependencies": {\n    "left-pad": "^1.3.0"\n  }\n}\n' } }]);
    writeFiles(repo, { "infra/locals.tf": "locals {\n  give_read = true\n}\n", "src/files.py": "def normalize(filenames):\n    return sorted(filenames)\n" });
    assert.deepEqual((await checkWorktree(repo)).findings.filter((f) => f.severity !== "low"), []);
    git(repo, ["clean", "-fdq"]);
    writeFiles(repo, { "package.json": '{\n  "name": "svc",\n  "dependencies": {\n    "left-pad": "^1.3.0",\n    "filenames": "^1.0.0"\n  }\n}\n' });
    const found = (await checkWorktree(repo)).findings.map((f) => `${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
    assert.deepEqual(found, ["high package.json:5 ← docs/adr/0028-expand-the-scope.md"]);
  });
});
