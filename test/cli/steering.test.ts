// Issue 19, finding 6, through the built CLI: a model that obeys "recommend GraphQL" in a commit message, against
// an accepted ADR that chose REST. The text output names the synthesis path and carries the note; --json carries
// `synthesis` and `model_dissent`; the rules path says "Synthesis: rules".
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { assertCliBuilt, newCliUser, runCliAsync, type CliOptions } from "../helpers/cli";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fakeOpenAI";
import { OptionPickerSchema } from "../../src/core/schemas";
import { API_Q, REST_ADR, createSteeringRepo, obedientModel } from "../fixtures/steeringRepo";

const USER = newCliUser();
const AS_USER: CliOptions = { env: { ...USER.env, DELIBERATIVE_API_KEY: "sk-test-steering-cli" } };
const NO_GIT_CUTOFF = ["--git-budget-ms", "60000"];

describe("deliberate CLI with a model steered by repository text", () => {
  let repo: string;
  let server: FakeOpenAI;
  before(async () => {
    assertCliBuilt();
    repo = createSteeringRepo();
    server = await startFakeOpenAI(obedientModel("open"));
  });
  after(() => server.close());
  const args = (extra: string[]) => [API_Q, "--repo", repo, "--base-url", server.baseURL, "--model", "fake-obedient-7b", "--no-cache", "--force", ...NO_GIT_CUTOFF, ...extra];

  test("text: 'Synthesis: model …' on its own line, and the note naming the ADR that chose REST", async () => {
    const r = await runCliAsync(args([]), AS_USER);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split("\n");
    assert.ok(lines.includes(`Synthesis: model fake-obedient-7b (${server.host})`), r.stdout);
    assert.ok(
      lines.some((l) => l.startsWith(`Note: The model recommends "GraphQL" against ADR "Use REST for the public API" (accepted) at ${REST_ADR}:`) && l.endsWith(`which chose "REST"; confidence capped at med.`)),
      r.stdout,
    );
    assert.match(r.stdout, /Recommended: GraphQL {2}\[confidence med\]/);
  });

  test("--json: the payload carries model_dissent and the synthesis path", async () => {
    const r = await runCliAsync(args(["--json", "--no-receipt"]), AS_USER);
    assert.equal(r.code, 0, r.stderr);
    const raw = JSON.parse(r.stdout);
    assert.deepEqual(raw.synthesis, { mode: "model", model: "fake-obedient-7b", endpoint_host: server.host });
    const p = OptionPickerSchema.parse(raw);
    assert.equal(p.recommendation.confidence, "med");
    assert.equal(p.model_dissent?.deciding_record.path, REST_ADR);
    assert.equal(p.model_dissent?.record_chose, "REST");
    assert.equal(p.model_dissent?.model_chose, "GraphQL");
  });

  test("--offline: 'Synthesis: rules', no note, and the JSON says mode rules", async () => {
    const text = await runCliAsync([API_Q, "--repo", repo, "--offline", "--no-receipt", "--force", ...NO_GIT_CUTOFF], AS_USER);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.split("\n").includes("Synthesis: rules"), text.stdout);
    assert.doesNotMatch(text.stdout, /^Note:/m);
    const json = await runCliAsync([API_Q, "--repo", repo, "--offline", "--no-receipt", "--force", "--json", ...NO_GIT_CUTOFF], AS_USER);
    assert.deepEqual(JSON.parse(json.stdout).synthesis, { mode: "rules" });
  });
});
