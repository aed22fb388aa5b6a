import { createHash } from "node:crypto";

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** JSON with object keys sorted recursively: the byte form that hashes and signatures are computed over. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      // `out["__proto__"] = v` would set the prototype: the member would be left out of the canonical bytes and of
      // every signature over them. defineProperty makes it an own member (only for that key: it is slower).
      if (key === "__proto__") Object.defineProperty(out, key, { value: sortKeys(v), enumerable: true, writable: true, configurable: true });
      else out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * Stable evidence id: the same evidence (kind, location, commit) under the same config version always gets the
 * same id, so payloads diff cleanly from one turn to the next.
 */
export function evidenceId(parts: {
  kind: string;
  path_or_url: string;
  line_range?: { start: number; end: number };
  commit?: string;
  configVersion?: string;
}): string {
  const key = [
    parts.kind,
    parts.path_or_url,
    parts.line_range ? `${parts.line_range.start}-${parts.line_range.end}` : "",
    parts.commit ?? "",
    parts.configVersion ?? "",
  ].join("\u0000");
  return `ev-${sha256(key).slice(0, 12)}`;
}
