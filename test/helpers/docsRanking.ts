// The docs expert's ranking over a repository a test writes: distinct documents in the order the expert returns them.
// The temporary repositories are removed by `cleanup`, which a test file registers with `after`.
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { createDocsExpert } from "../../src/core/internal/docsExpert";
import { buildRulesPlan } from "../../src/core/terms";
import type { ExpertContext } from "../../src/core/types";
import { createGitRepo } from "./gitRepo";

export function docsRanking(): { ranked: (files: Record<string, string>, question: string) => Promise<string[]>; cleanup: () => void } {
  const config = resolveConfig();
  const dirs: string[] = [];
  return {
    async ranked(files, question) {
      const dir = createGitRepo([{ message: "records", files }]);
      dirs.push(dir);
      const artifacts = await discoverArtifacts(dir, config);
      const ctx: ExpertContext = { repo: dir, question, plan: buildRulesPlan(question), config, artifacts, signal: new AbortController().signal, log: () => {} };
      return [...new Set((await createDocsExpert().run(ctx)).items.map((i) => i.path_or_url))];
    },
    cleanup() {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}
