// Plan-first retrieval: ONE model call drafts a short answer and names the entities and relations it mentions;
// keywords derived from them are merged with the rules plan's terms to drive retrieval. The draft only steers the
// search: ranking and synthesis stay anchored to the original question. Any failure yields the rules plan with a
// classified fallback; only cancellation throws.
import { buildRulesPlan, contentWords, expandTerms } from "../terms";
import type { QueryPlan } from "../schemas";
import type { QueryPlanner, QueryPlannerInput, QueryPlanResult } from "../types";
import { callForJson } from "./call";
import type { ChatModel } from "./client";
import { abortError } from "./errors";
import { MODEL_PLAN_JSON_SCHEMA, ModelPlanSchema, buildPlanPrompt, type ModelPlan } from "./prompt";

export interface ModelPlannerOptions {
  /** Output token limit for the plan call. Default 700. */
  maxTokens?: number;
  /** Most keywords merged into the terms. Default 24. */
  maxKeywords?: number;
  /** Editor context (the code around the question) is not sent. */
  keepInternalLocal?: boolean;
}

const MAX_DRAFT_CHARS = 1500;
const MAX_ENTITIES = 20;

function clean(s: string, max = 80): string {
  return s.replace(/\s+/g, " ").trim().slice(0, max);
}

/**
 * Keywords from the model's own keyword list, its entities, and the subjects/objects of its relations — in that
 * order, as the same lower-case content words the rules planner produces, without the question's own terms.
 */
export function deriveKeywords(plan: ModelPlan, have: Iterable<string> = [], max = 24): string[] {
  const seen = new Set(have);
  const out: string[] = [];
  const sources = [
    ...plan.keywords,
    ...plan.entities,
    ...plan.relations.flatMap((r) => [r.subject, r.object]),
  ];
  for (const source of sources) {
    for (const word of contentWords(clean(source, 120))) {
      if (out.length >= max) return out;
      if (word.length > 40 || seen.has(word)) continue;
      seen.add(word);
      out.push(word);
    }
  }
  return out;
}

/** The rules plan with the model's keywords merged into its terms, and the vocabulary expansion redone over both. */
export function mergePlan(rules: QueryPlan, plan: ModelPlan, maxKeywords = 24): QueryPlan {
  const keywords = deriveKeywords(plan, [], maxKeywords);
  const terms = [...rules.terms];
  for (const k of keywords) if (!terms.includes(k)) terms.push(k);
  const expansions = [...rules.expansions];
  for (const x of expandTerms(terms)) if (!expansions.includes(x) && !terms.includes(x)) expansions.push(x);
  return {
    mode: "model",
    terms,
    expansions: expansions.filter((x) => !terms.includes(x)),
    draft: clean(plan.draft, MAX_DRAFT_CHARS),
    entities: [...new Set(plan.entities.map((e) => clean(e)).filter(Boolean))].slice(0, MAX_ENTITIES),
    keywords,
  };
}

export function createModelPlanner(model: ChatModel, opts: ModelPlannerOptions = {}): QueryPlanner {
  return {
    name: `model:${model.id}${model.endpointHost ? `@${model.endpointHost}` : ""}${opts.keepInternalLocal ? "+keep-internal-local" : ""}`,
    async plan(input: QueryPlannerInput): Promise<QueryPlanResult> {
      const rules = buildRulesPlan(input.question, input.context);
      if (input.signal.aborted) throw abortError(input.signal);
      const prompt = buildPlanPrompt({ question: input.question, context: input.context, keepInternalLocal: opts.keepInternalLocal });
      const res = await callForJson(
        model,
        { system: prompt.system, user: prompt.user, jsonSchema: MODEL_PLAN_JSON_SCHEMA, maxTokens: opts.maxTokens ?? 700, signal: input.signal },
        ModelPlanSchema,
        "plan",
      );
      if (!res.ok) {
        if (res.error.kind === "aborted") throw abortError(input.signal);
        return { plan: rules, calls: res.error.extra.notCalled ? [] : [res.call], fallback: { kind: res.error.kind, detail: res.error.detail } };
      }
      const plan = mergePlan(rules, res.value, opts.maxKeywords);
      const added = plan.keywords?.filter((k) => !rules.terms.includes(k)).length ?? 0;
      res.call.outcome = `${res.call.outcome} · ${added} keyword(s) added to the terms`;
      return { plan, calls: [res.call] };
    },
  };
}
