// The HTML parser and the article extractor, imported in exactly one place. Only ./extract.ts requires this module,
// on first use: an offline question never reads a web page, and evaluating linkedom and htmlparser2 costs every
// process tens of milliseconds.
export { Readability } from "@mozilla/readability";
export { parseHTML } from "linkedom";
