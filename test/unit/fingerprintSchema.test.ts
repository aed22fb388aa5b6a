// The stat fingerprint's schema checks its large records in place (issue 20: zod copying thousands of entries cost a
// fresh process ~50 ms). It must accept and refuse exactly what the plain zod records it replaced did, and hand back
// the same data, since the discovery snapshot, the turn cache and the guard's basis all trust what it lets through.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { FingerprintSchema } from "../../src/core/fingerprint";

/** The schema as it was written before: zod records all the way down. */
const FileStat = z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable();
const Reference = z.object({
  taken_at: z.number(),
  files: z.record(z.string(), FileStat),
  dirs: z.record(z.string(), z.number()),
  outside: z.record(z.string(), FileStat).optional(),
  sizes: z.record(z.string(), z.number().nullable()).optional(),
  listings: z.record(z.string(), z.object({ without: z.array(z.string()), hash: z.string() })).optional(),
});

const good = {
  taken_at: 1_796_000_000_000,
  files: { "docs/adr/0001-queues.md": [2048, 1_795_000_000_123.5, 1_795_000_000_200, 991], "docs/adr/0002-gone.md": null },
  dirs: { "": 1_795_000_000_000, "docs/adr": 1_795_000_000_100.25 },
  outside: { "/repo/.git/info/exclude": [240, 1, 2, 3] },
  sizes: { ".git/index": 88_120, ".git/missing": null },
  listings: { "": { without: [".deliberations"], hash: "ab12" } },
};

const cases: [string, unknown][] = [
  ["a complete fingerprint", good],
  ["no optional parts", { taken_at: 1, files: {}, dirs: {} }],
  ["NaN as a folder's mtime", { ...good, dirs: { a: Number.NaN } }],
  ["Infinity in a file's stat", { ...good, files: { a: [1, Number.POSITIVE_INFINITY, 2, 3] } }],
  ["a stat of three numbers", { ...good, files: { a: [1, 2, 3] } }],
  ["a stat of five numbers", { ...good, files: { a: [1, 2, 3, 4, 5] } }],
  ["a stat holding a string", { ...good, files: { a: [1, "2", 3, 4] } }],
  ["a missing folder recorded as null", { ...good, dirs: { a: null } }],
  ["a size as a string", { ...good, sizes: { ".git/index": "12" } }],
  ["folders as an array", { ...good, dirs: [1, 2] }],
  ["folders as a Map", { ...good, dirs: new Map([["a", 1]]) }],
  ["folders as a class instance", { ...good, dirs: new (class Dirs {})() }],
  ["files as null", { ...good, files: null }],
  ["no files at all", { taken_at: 1, dirs: {} }],
  ["an outside stat that is an object", { ...good, outside: { "/x": { size: 1 } } }],
  ["taken_at as a string", { ...good, taken_at: "now" }],
];

describe("the fingerprint schema", () => {
  for (const [name, value] of cases) {
    test(`${name}: the same verdict and data as plain zod records`, () => {
      const ours = FingerprintSchema.safeParse(value);
      const reference = Reference.safeParse(value);
      assert.equal(ours.success, reference.success);
      if (ours.success && reference.success) assert.deepEqual(ours.data, reference.data);
    });
  }

  test("an object without a prototype is a record, as for zod", () => {
    const dirs = Object.assign(Object.create(null) as Record<string, number>, { a: 1 });
    const value = { taken_at: 1, files: {}, dirs };
    assert.equal(FingerprintSchema.safeParse(value).success, Reference.safeParse(value).success);
  });
});
