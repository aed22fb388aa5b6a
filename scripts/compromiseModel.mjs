// compromise's part-of-speech model (its lexicon expanded with every inflection, the tagger's patterns) is computed
// when the module is first evaluated: ~0.2–0.3 s of CPU in every CLI process that reads a question. The result is
// plain data and depends on nothing but compromise's own sources, so the build computes it once and the bundle
// carries it serialized (V8's format); at run time it is only deserialized.
// Should V8 reject the data (a bundle built under a newer Node than the one running it), the module computes the
// model as compromise itself would: the original module is bundled too, evaluated only in that case.
import { serialize } from "node:v8";
import { pathToFileURL } from "node:url";

const MODEL = /compromise[\\/]src[\\/]2-two[\\/]preTagger[\\/]model[\\/]index\.js$/;

export const compromisePrecomputedModel = {
  name: "compromise-precomputed-model",
  setup(b) {
    let packed;
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
