// The MCP server's allowed roots (src/mcp/roots.ts) and its one-line argument errors, against real folders and
// symlinks in temp dirs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { AllowedRoots, RootError, rootUriToPath } from "../../src/mcp/roots";
import { describeArgsError } from "../../src/mcp/server";
import { DeliberateInput, DeliberateOutput, toolJsonSchema } from "../../src/mcp/toolSchemas";
import { makeTempDir } from "../helpers/gitRepo";

function folders(): { a: string; b: string; outside: string } {
  const base = realpathSync(makeTempDir("delib-roots-"));
  const a = join(base, "one", "app");
  const b = join(base, "two", "app");
  const outside = join(base, "outside");
  for (const d of [a, b, outside]) mkdirSync(d, { recursive: true });
  writeFileSync(join(a, "file.ts"), "x\n");
  writeFileSync(join(outside, "secret.md"), "x\n");
  symlinkSync(outside, join(a, "link"));
  return { a, b, outside };
}

test("repo: the first root by default, any folder inside a root, nothing outside (after realpath)", async () => {
  const { a, outside } = folders();
  const roots = await AllowedRoots.create([a]);
  assert.equal(await roots.resolveRepo(undefined), a);
  mkdirSync(join(a, "packages", "api"), { recursive: true });
  assert.equal(await roots.resolveRepo("packages/api"), join(a, "packages", "api"));
  await assert.rejects(roots.resolveRepo(outside), (e: Error) => e instanceof RootError && /outside the allowed roots/.test(e.message));
  await assert.rejects(roots.resolveRepo(join(a, "link")), /outside the allowed roots/);
  await assert.rejects(roots.resolveRepo(join(a, "..")), /outside the allowed roots/);
  await assert.rejects(roots.resolveRepo(join(a, "missing")), /not an existing folder/);
});

test("context.path: relative to the repository, refused through a symlink out of it", async () => {
  const { a } = folders();
  const roots = await AllowedRoots.create([a]);
  assert.equal(await roots.resolveContextPath(a, "file.ts"), "file.ts");
  assert.equal(await roots.resolveContextPath(a, join(a, "file.ts")), "file.ts");
  await assert.rejects(roots.resolveContextPath(a, "link/secret.md"), /context\.path link\/secret\.md is outside the allowed roots/);
  await assert.rejects(roots.resolveContextPath(a, "nope.ts"), /does not exist/);
});

test("client roots join the allowed roots, replace each other on refresh, and names stay unique", async () => {
  const { a, b } = folders();
  const roots = await AllowedRoots.create([a]);
  const logged: string[] = [];
  await roots.refreshClientRoots(async () => [pathToFileURL(b).href, "https://example.com/x", pathToFileURL(join(b, "gone")).href], (l) => logged.push(l));
  assert.deepEqual((await roots.list()).map((r) => [r.name, r.source]), [["app", "repo"], ["app-2", "client"]]);
  assert.equal((await roots.byName("app-2"))?.path, b);
  assert.equal(logged.length, 2, "the https root and the missing folder are logged and ignored");
  assert.equal(await roots.resolveRepo(b), b);
  // A context path picks the root that holds it when no repo is given.
  writeFileSync(join(b, "q.ts"), "x\n");
  assert.equal(await roots.resolveRepo(undefined, join(b, "q.ts")), b);
  await roots.refreshClientRoots(async () => [], () => undefined);
  await assert.rejects(roots.resolveRepo(b), /outside the allowed roots/);
  // A client that fails roots/list keeps the command-line roots.
  await roots.refreshClientRoots(async () => Promise.reject(new Error("Method not found")), (l) => logged.push(l));
  assert.match(logged.at(-1) ?? "", /could not read the client's roots: Method not found/);
  assert.equal(await roots.resolveRepo(undefined), a);
});

test("a client root of file:/// (or a symlink to /) is refused like --repo /", async () => {
  const { a, outside } = folders();
  symlinkSync("/", join(outside, "to-root"));
  const roots = await AllowedRoots.create([a, join(outside, "to-root")]);
  const logged: string[] = [];
  await roots.refreshClientRoots(async () => ["file:///", pathToFileURL(join(outside, "to-root")).href], (l) => logged.push(l));
  assert.deepEqual((await roots.list()).map((r) => r.path), [a], "neither / nor a link to it is a root");
  assert.equal(logged.filter((l) => /client root ignored \(the file-system root is never served\)/.test(l)).length, 2, logged.join("\n"));
  await assert.rejects(roots.resolveRepo("/etc"), /outside the allowed roots/);
});

test("errors for a path outside the roots read the same whether it exists or not", async () => {
  const { a, outside } = folders();
  const roots = await AllowedRoots.create([a]);
  /** The error, with the path the caller gave replaced: what it tells beyond the caller's own words. */
  const said = async (run: () => Promise<unknown>, given: string) => {
    const err = await run().then(
      () => assert.fail(`${given} was accepted`),
      (e: Error) => e,
    );
    assert.ok(err instanceof RootError, String(err));
    return err.message.replaceAll(given, "<path>");
  };
  const repoError = (p: string) => said(() => roots.resolveRepo(p), p);
  const contextError = (p: string) => said(() => roots.resolveContextPath(a, p), p);
  for (const [there, missing] of [
    [outside, join(outside, "missing")],
    [join(a, "link"), join(a, "link", "missing")],
    ["../outside", "../missing"],
  ]) {
    assert.equal(await repoError(missing), await repoError(there), `repo ${missing} vs ${there}`);
  }
  assert.match(await repoError(join(outside, "missing")), /outside the allowed roots/);
  for (const [there, missing] of [
    [join(outside, "secret.md"), join(outside, "nope.md")],
    ["link/secret.md", "link/nope.md"],
    ["../outside/secret.md", "../outside/nope.md"],
  ]) {
    assert.equal(await contextError(missing), await contextError(there), `context.path ${missing} vs ${there}`);
  }
  assert.match(await contextError("link/nope.md"), /is outside the allowed roots/);
  // Inside the roots, a missing path is still named as missing.
  await assert.rejects(roots.resolveRepo(join(a, "missing")), /not an existing folder/);
  await assert.rejects(roots.resolveContextPath(a, "nope.ts"), /context\.path does not exist: nope\.ts/);
});

test("root URIs: only file: URIs are local folders", () => {
  assert.equal(rootUriToPath("file:///tmp/x"), "/tmp/x");
  assert.equal(rootUriToPath("https://example.com/tmp"), undefined);
  assert.equal(rootUriToPath("not a uri"), undefined);
});

test("argument errors are one line with the argument's path", () => {
  const r = DeliberateInput.safeParse({ question: 1, shape: "table", extra: true });
  assert.equal(r.success, false);
  const line = describeArgsError("deliberate", r.error!);
  assert.doesNotMatch(line, /\n/);
  assert.match(line, /^invalid arguments for deliberate: /);
  assert.match(line, /question: /);
  assert.match(line, /\(and 1 more\)$/);
  assert.match(describeArgsError("deliberate", DeliberateInput.safeParse({}).error!), /question is required$/);
});

test("published schemas are objects at the root; the deliberate result lists its three shapes", () => {
  const input = toolJsonSchema(DeliberateInput, "input");
  assert.equal(input.type, "object");
  assert.equal(input.additionalProperties, false);
  assert.equal("$schema" in input, false);
  const output = toolJsonSchema(DeliberateOutput, "output");
  assert.equal(output.type, "object");
  assert.equal((output.anyOf as unknown[]).length, 3);
});
