// Stands in for the SDK's Ajv-based JSON Schema validator in dist/heavyBundle.js (scripts/build.mjs swaps it in).
// The SDK's Server uses that validator only to check a client's answer to an elicitation, and this server never
// elicits; leaving Ajv out keeps about 130 KB (minified) out of the .vsix. The CLI bundle keeps the real one.
export class AjvJsonSchemaValidator {
  getValidator(): never {
    throw new Error("JSON Schema validation is not bundled with this server (it never elicits)");
  }
}
