// One offline deliberation over a test repository, and the option it recommends: shared by the synthesizer tests
// that ask real git repositories questions.
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import type { OptionPicker } from "../../src/core/schemas";

const key = generateSigningKey();

/** Deliberates offline with no cache and no receipt; fails the test unless it deliberated. */
export async function askOffline(repo: string, question: string): Promise<OptionPicker> {
  const out = await deliberate({ repo, question, signingKey: key, force: true, useCache: false, writeReceipt: false, config: { offline: true } });
  if (out.kind !== "deliberated") throw new Error(`not deliberated: ${out.kind}`);
  return out.payload;
}

/** The option the payload recommends (undefined for "undecidable"). */
export function recommendedOption(p: OptionPicker): OptionPicker["options"][number] | undefined {
  return p.options.find((o) => o.id === p.recommendation.option_id);
}
