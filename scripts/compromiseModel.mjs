// compromise's part-of-speech model (its lexicon expanded with every inflection, the tagger's patterns) is computed
// when the module is first evaluated: ~0.2–0.3 s of CPU in every CLI process that reads a question. The result is
// plain data and depends on nothing but compromise's own sources, so the build computes it once and the bundle
// carries it serialized (V8's format); at run time it is only deserialized.
// Should V8 reject the data (a bundle built under a newer Node than the one running it), the module computes the
// model as compromise itself would: the original module is bundled too, evaluated only in that case.
// Merging that model into compromise's world copies the lexicon's ~24,000 words one `Object.assign(model, { [key]: v })`
// at a time, a throw-away object each; the same assignment written `model[key] = v` (what Object.assign does for
// each key) costs a fraction. The rewrite applies only when compromise's source reads exactly as expected.
import { readFileSync } from "node:fs";
import { serialize } from "node:v8";
import { pathToFileURL } from "node:url";

const MODEL = /compromise[\\/]src[\\/]2-two[\\/]preTagger[\\/]model[\\/]index\.js$/;
const EXTEND = /compromise[\\/]src[\\/]API[\\/]extend\.js$/;
const MERGE_ASSIGNMENTS = [
  ["if (!model[key]) Object.assign(model, { [key]: {} })", "if (!model[key]) model[key] = {}"],
  ["Object.assign(model, { [key]: plugin[key] })", "model[key] = plugin[key]"],
];

/** compromise's mergeDeep with plain assignments, or undefined when its source is not the one this was written for. */
export function plainAssignmentMerge(source) {
  let out = source;
  for (const [from, to] of MERGE_ASSIGNMENTS) {
    if (out.split(from).length !== 2) return undefined;
    out = out.replace(from, to);
  }
  return out;
}

export const compromisePrecomputedModel = {
  name: "compromise-precomputed-model",
  setup(b) {
    let packed;
    b.onLoad({ filter: EXTEND }, (args) => {
      const contents = plainAssignmentMerge(readFileSync(args.path, "utf8"));
      return contents === undefined ? undefined : { contents, loader: "js" };
    });
    b.onLoad({ filter: MODEL }, async (args) => {
      if (args.suffix === "?computed") return undefined; // the fallback: compromise's own module, as published
      packed ??= serialize((await import(pathToFileURL(args.path).href)).default).toString("base64");
      return {
        contents: [
          `import { deserialize } from "node:v8";`,
          `let model;`,
          `try {`,
          `  model = deserialize(Buffer.from(${JSON.stringify(packed)}, "base64"));`,
          `} catch {`,
          `  model = require(${JSON.stringify(`${args.path}?computed`)}).default;`,
          `}`,
          `export default model;`,
        ].join("\n"),
        loader: "js",
        resolveDir: args.path.replace(/[\\/][^\\/]*$/, ""),
      };
    });
  },
};
