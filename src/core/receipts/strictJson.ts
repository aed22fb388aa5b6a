// Object keys a signed JSON file must not hold, found in one pass over its text. JSON.parse keeps the last of two
// equal keys, so a first `"operator_pick"` placed before the signed one is invisible to the signature yet read by
// other tools and by people; and a `"__proto__"` member is dropped by plain JavaScript objects. A reviver sees
// neither. The scan is linear and iterative (a 3M-deep array must not overflow the stack); it runs only on text
// JSON.parse already accepted, so it need not re-check the grammar.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Growable typed stacks: a 3M-deep array costs 3M bytes here, not 3M slots of a generic array. */
class Stack {
  kind = new Uint8Array(64);
  index = new Uint32Array(64);
  grow(depth: number): void {
    if (depth < this.kind.length) return;
    const kind = new Uint8Array(this.kind.length * 2);
    kind.set(this.kind);
    const index = new Uint32Array(this.index.length * 2);
    index.set(this.index);
    this.kind = kind;
    this.index = index;
  }
}

const OBJECT = 1;

/** `stages`, `payload.citations[3]`: where the container at `depth` sits, for a one-line reason. */
function pathOf(stack: Stack, keys: string[], depth: number): string {
  let out = "";
  let k = 0;
  for (let i = 0; i < depth && out.length < 200; i++) {
    if (stack.kind[i] !== OBJECT) out += `[${stack.index[i]}]`;
    else {
      const key = keys[k++];
      out += /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key.slice(0, 60))}]`;
    }
  }
  return out ? `in ${out.replace(/^\./, "").slice(0, 200)}` : "at the top level";
}

/** Index of the quote closing the string that opens at `start`, and whether it holds an escape. */
function stringEnd(text: string, start: number): { end: number; escaped: boolean } {
  let j = start + 1;
  let escaped = false;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) {
      escaped = true;
      j += 2;
    } else if (c === QUOTE || Number.isNaN(c)) return { end: j, escaped };
    else j++;
  }
}

/** Records `key` in the innermost object; the reason it may not be there, if any. */
function addKey(seen: (string | Set<string> | undefined)[], keys: string[], obj: number, key: string, where: () => string): string | undefined {
  if (key === "__proto__") return `a "__proto__" key ${where()} (JavaScript reads it as the prototype, not as a member)`;
  const known = seen[obj];
  if (known === key || (known instanceof Set && known.has(key))) return `duplicate key ${JSON.stringify(key.slice(0, 60))} ${where()} (JSON readers disagree on which one counts)`;
  if (known === undefined) seen[obj] = key;
  else if (known instanceof Set) known.add(key);
  else seen[obj] = new Set([known, key]);
  keys[obj] = key;
  return undefined;
}

/**
 * Why `text` (valid JSON) is not acceptable as a signed file: a `__proto__` key, or the same key twice in one
 * object (escapes decoded, so `"\u005f_proto__"` counts). Undefined when neither occurs.
 */
export function unsafeJsonKey(text: string): string | undefined {
  const stack = new Stack();
  // Per open object (not per array): the keys seen so far (a Set only from the second key on) and the current key.
  const seen: (string | Set<string> | undefined)[] = [];
  const keys: string[] = [];
  let depth = 0;
  let objects = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const { end, escaped } = stringEnd(text, i);
      if (expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        const at = depth - 1;
        const problem = addKey(seen, keys, objects - 1, key, () => pathOf(stack, keys, at));
        if (problem) return problem;
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.grow(depth);
      stack.kind[depth] = c === 0x7b ? OBJECT : 0;
      stack.index[depth] = 0;
      depth++;
      if (c === 0x7b) seen[objects++] = undefined;
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      if (stack.kind[depth] === OBJECT) seen[--objects] = undefined;
      expectKey = false;
    } else if (c === 0x2c /* , */ && depth > 0) {
      if (stack.kind[depth - 1] === OBJECT) expectKey = true;
      else stack.index[depth - 1]++;
    }
  }
  return undefined;
}
