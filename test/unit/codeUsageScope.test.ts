// The code-usage count without its work-tree walk (issue 20): the untracked and the ignored tracked files in scope
// are listed ahead of the count, and when no untracked file is in scope the count runs a plain `git grep` of the
// tracked files, minus the ignored ones, instead of `git grep --untracked`. Each case compares the count against the
// one `--untracked` gives on the same real repository: the figures, examples and skipped files must be identical.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countCodeUsage, MAX_IGNORED_TRACKED, untrackedSearchArgs, type CodeUsageReport } from "../../src/core/internal/codeUsage";
import { listUsageScope } from "../../src/core/internal/codeUsageScope";
import { createGitRepo, git, makeTempDir, writeFiles } from "../helpers/gitRepo";

const OPTIONS = [
  { id: "opt-jackson", title: "Keep Jackson", terms: ["jackson"] },
  { id: "opt-gson", title: "Move to Gson", terms: ["gson"] },
];

/** What must not change between the two searches (the time taken aside). */
function figures(r: CodeUsageReport): unknown {
  const { ms: _ms, ...rest } = r;
  return rest;
}

/** The count as `git grep --untracked` gives it (no scope) and as it runs with a listed scope. */
async function bothWays(repo: string, excludeDirs: string[] = [], maxLockBytes?: number): Promise<{ reference: CodeUsageReport; scoped: CodeUsageReport; plain: boolean }> {
  const limits = maxLockBytes === undefined ? {} : { maxLockBytes };
  const reference = await countCodeUsage(repo, OPTIONS, { excludeDirs, ...limits });
  const scope = await listUsageScope(repo, { excludeDirs });
  const scoped = await countCodeUsage(repo, OPTIONS, { excludeDirs, ...limits, scope: Promise.resolve(scope) });
  return { reference, scoped, plain: untrackedSearchArgs(scope).flags.length === 0 };
}

function baseRepo(): string {
  const repo = createGitRepo([
    {
      message: "service",
      files: {
        "pom.xml": "<project>\n  <dependency><artifactId>jackson-databind</artifactId></dependency>\n  <dependency><artifactId>gson</artifactId></dependency>\n</project>\n",
        "src/main/java/Api.java": "import com.fasterxml.jackson.databind.ObjectMapper;\nclass Api {}\n",
        "src/main/java/Legacy.java": "import com.google.gson.Gson;\nclass Legacy {}\n",
        "docs/adr/0001-json.md": "# Keep Jackson\n\nWe keep jackson over gson.\n",
        ".gitignore": "generated-sources/\n*.log\n",
      },
    },
  ]);
  // Tracked although ignored (added with -f): `--untracked` never searches it, a plain search would.
  writeFiles(repo, { "generated-sources/Model.java": "import com.google.gson.Gson;\nclass Model {}\n" });
  git(repo, ["add", "-f", "generated-sources/Model.java"]);
  git(repo, ["commit", "-q", "-m", "generated model"]);
  return repo;
}

describe("the code-usage scope, listed ahead of the count", () => {
  test("lists the untracked files in scope and the tracked files the excludes ignore, and nothing else", async () => {
    const repo = baseRepo();
    writeFiles(repo, {
      "src/main/java/New.java": "import com.google.gson.Gson;\n", // untracked, in scope
      "notes.txt": "gson everywhere\n", // untracked, not in scope
      "build.log": "gson\n", // ignored
      ".deliberations/q.java": "import com.google.gson.Gson;\n", // the receipts folder, never searched
    });
    const scope = await listUsageScope(repo, { excludeDirs: [".deliberations"] });
    assert.deepEqual(scope, { untracked: ["src/main/java/New.java"], ignoredTracked: ["generated-sources/Model.java"], locks: [] });
  });

  test("no untracked file in scope: the plain search runs and counts exactly what --untracked counts", async () => {
    const repo = baseRepo();
    writeFiles(repo, { "notes.txt": "import gson\n", "build.log": "import com.google.gson.Gson;\n" });
    const { reference, scoped, plain } = await bothWays(repo);
    assert.equal(plain, true, "the listing allowed the search without the walk");
    assert.deepEqual(figures(scoped), figures(reference));
    // The ignored tracked file stays out, as --untracked leaves it out: Gson is used by pom.xml and Legacy.java only.
    const gson = scoped.options.find((o) => o.id === "opt-gson")!;
    assert.equal(gson.files, 2);
    assert.ok(!gson.examples.some((e) => e.path.startsWith("generated-sources/")));
  });

  test("an untracked file in scope: the count searches with --untracked, and finds it", async () => {
    const repo = baseRepo();
    writeFiles(repo, { "src/main/java/New.java": "import com.google.gson.Gson;\n" });
    const { reference, scoped, plain } = await bothWays(repo);
    assert.equal(plain, false);
    assert.deepEqual(figures(scoped), figures(reference));
    assert.equal(scoped.options.find((o) => o.id === "opt-gson")!.files, 3);
  });

  test("the excluded folders are left out of the listing as they are of the search", async () => {
    const repo = baseRepo();
    writeFiles(repo, { ".deliberations/evidence/x.java": "import com.google.gson.Gson;\n" });
    const { reference, scoped, plain } = await bothWays(repo, [".deliberations"]);
    assert.equal(plain, true);
    assert.deepEqual(figures(scoped), figures(reference));
  });

  test("a repository folder below the work tree's root: full names in the listing, the same count", async () => {
    const root = createGitRepo([{ message: "root", files: { "README.md": "monorepo\n", ".gitignore": "out/\n" } }]);
    writeFiles(root, {
      "svc/pom.xml": "<project><artifactId>jackson-core</artifactId></project>\n",
      "svc/src/A.java": "import com.fasterxml.jackson.core.JsonParser;\n",
      "other/B.java": "import com.google.gson.Gson;\n",
    });
    git(root, ["add", "-A"]);
    writeFiles(root, { "svc/out/C.java": "import com.google.gson.Gson;\n" });
    git(root, ["add", "-f", "svc/out/C.java"]);
    git(root, ["commit", "-q", "-m", "service"]);
    const repo = join(root, "svc");
    const scope = await listUsageScope(repo);
    assert.deepEqual(scope, { untracked: [], ignoredTracked: ["svc/out/C.java"], locks: [] });
    const { reference, scoped, plain } = await bothWays(repo);
    assert.equal(plain, true);
    assert.deepEqual(figures(scoped), figures(reference));
    assert.equal(scoped.options.find((o) => o.id === "opt-gson")!.files, 0, "neither the ignored file nor one outside the folder counts");
  });

  test("many ignored tracked files, a failed listing or none at all: the count runs --untracked as before", async () => {
    const repo = baseRepo();
    mkdirSync(join(repo, "generated-sources", "many"), { recursive: true });
    for (let i = 0; i <= MAX_IGNORED_TRACKED; i++) writeFileSync(join(repo, "generated-sources", "many", `M${i}.java`), "import com.google.gson.Gson;\n");
    git(repo, ["add", "-f", "generated-sources"]);
    git(repo, ["commit", "-q", "-m", "more generated"]);
    const { reference, scoped, plain } = await bothWays(repo);
    assert.equal(plain, false);
    assert.deepEqual(figures(scoped), figures(reference));
    const failed = await countCodeUsage(repo, OPTIONS, { scope: Promise.reject(new Error("git went away")) });
    assert.deepEqual(figures(failed), figures(reference));
    assert.deepEqual(untrackedSearchArgs(undefined), { flags: ["--untracked"], excludes: [] });
  });

  test("tracked lock files are listed with the scope, and one over the limit is skipped as before", async () => {
    const repo = baseRepo();
    writeFiles(repo, {
      "gradle.lockfile": `com.google.code.gson:gson:2.10=runtimeClasspath\n${"# padding line\n".repeat(200)}`,
      "web/yarn.lock": `jackson-ui@1.0.0:\n  version "1.0.0"\n`,
    });
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "-m", "locks"]);
    const scope = await listUsageScope(repo);
    assert.deepEqual(scope?.locks, ["gradle.lockfile", "web/yarn.lock"]);
    const { reference, scoped, plain } = await bothWays(repo, [], 1024);
    assert.equal(plain, true);
    assert.deepEqual(figures(scoped), figures(reference));
    assert.ok(scoped.skipped.some((f) => f.path === "gradle.lockfile" && /lock file is/.test(f.reason)), JSON.stringify(scoped.skipped));
    assert.ok(!scoped.skipped.some((f) => f.path === "web/yarn.lock"), "a lock file under the limit is searched");
  });

  test("outside a git work tree there is no scope (the count walks the folder as before)", async () => {
    const dir = makeTempDir();
    writeFiles(dir, { "pom.xml": "<project><artifactId>gson</artifactId></project>\n" });
    assert.equal(await listUsageScope(dir), undefined);
  });

  test("a cancelled listing rejects", async () => {
    const repo = baseRepo();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await assert.rejects(listUsageScope(repo, { signal: controller.signal }));
  });
});
