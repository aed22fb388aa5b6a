// The language-model tool's input, as an agent sends it: checked with zod before anything runs (an agent's
// arguments are untrusted input like any other boundary). Bundled into the heavy bundle (heavyBundle.ts) and
// reached through loadHeavyBundle(), so zod stays off the activation path.
import { z } from "zod";
import { formatZodError } from "../core/schemas";

/** Mirrors `contributes.languageModelTools[0].inputSchema` in package.json. */
export const AgentToolInputSchema = z
  .object({
    question: z.string().trim().min(1, "the question is empty").max(4096),
    context: z
      .object({
        path: z.string().max(4096).optional(),
        text: z.string().max(64 * 1024).optional(),
      })
      .strict()
      .optional(),
    offline: z.boolean().optional(),
    force: z.boolean().optional(),
  })
  .strict();
export type AgentToolInput = z.infer<typeof AgentToolInputSchema>;

/** The validated input, or one line saying what is wrong with it. */
export function parseAgentToolInput(raw: unknown): { ok: true; input: AgentToolInput } | { ok: false; error: string } {
  const r = AgentToolInputSchema.safeParse(raw);
  return r.success ? { ok: true, input: r.data } : { ok: false, error: formatZodError(r.error) };
}
