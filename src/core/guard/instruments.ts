// Rules that say what to do rather than what not to: "wrap errors with `%w`", "use `t.TempDir()` in tests", "TLS
// verification must remain enabled by default". Such a rule names its instrument, not what it replaces, so the
// replaced thing is read from the instrument's own shape, never from a list of libraries:
//   - a format verb (`%w`) for an object ("errors"): a line that builds that object (a call named for it, `Errorf`)
//     from a value named for it (`err`) with other verbs and not this one;
//   - a call (`t.TempDir()`, `testing.TB.Context()`) in a scope the clause names ("in tests", "a test's …"): another
//     call that shares a word of its name (`os.MkdirTemp`), or a bare call of the package its name is
//     (`context.Background()`), in a file of that scope. Without a stated scope the rule is not read this way: a
//     call family is too wide a net for a whole code base;
//   - a call that runs a program (`GitProcess.exec` "even in tests"): a process call (`execSync`, `exec.Command`,
//     `subprocess.run`) whose command starts with that program, in that scope;
//   - a setting that must stay on ("X must remain enabled"): a line that sets a flag named for X off
//     (`InsecureSkipVerify: true`, `verifyTls = false`);
//   - a date pattern (`yyyy-mm-dd`): a date written in another order or with another separator (`%m/%d/%Y`);
//   - a way of running a command the rule forbids ("Never force push"): a command line that runs the command (`push`)
//     with the flag its first word names (`--force`, `--force-with-lease`).
// Rules in instruction files and the decision sentences of records are read this way; going against either is
// breaking the rule it sets (breaks-rule, med: the change does it in code, it does not name a dependency).
// Pure and linear: each clause and line is scanned once with patterns that do not backtrack on their input.
import type { LineRange } from "../schemas";
import { isTestPath } from "./determinism";

export interface Instrument {
  /** The instrument as the rule writes it (`%w`, `t.TempDir()`), or the setting's subject ("TLS verification"). */
  name: string;
  range: LineRange;
  shape: "verb" | "call" | "setting" | "date" | "flag";
  /** flag: "never force push" — a command (`push`) run with the flag the rule names (`--force`). */
  flag?: { flag: string; command: string };
  /** date: the order of its parts and its separator ("ymd-" for `yyyy-mm-dd`). */
  date?: string;
  /** verb: the verb itself ("%w"); the object's stem ("err") a line must build and pass. */
  verb?: string;
  noun?: string;
  /** call: the call's own name ("TempDir") and its words; the program it runs, when it runs one (`GitProcess.exec`: git). */
  call?: { name: string; words: string[]; tool?: string };
  /** setting: the subject's words that name it ("tls", "verification"). */
  words?: string[];
  /** Only test code is held to it ("in tests"). */
  testsOnly?: boolean;
}

/** The imperative that names an instrument: "use", "wrap … with", "call", "create … with", "prefer". */
const USE_CLAUSE = /\b(?:use|using|wrap|wrapping|call|prefer|create|build|construct|format|start|reach\s+for|rely\s+on|go\s+through)\b/i;
/** A clause's own scope: "in tests", "a test's initial context", "in test code", "for tests". */
const TEST_SCOPE = /\b(?:in|for|within)\s+(?:(?:unit|all|the|your)\s+)?tests?\b|\btest(?:'s|s'|\s+code|\s+files?|\s+helpers?)\b/i;
/** A printf verb written as the instrument: `%w`, `%v`. */
const VERB_SPAN = /^%[a-zA-Z]$/;
/** A call written as the instrument: `t.TempDir()`, `testing.TB.Context()`, `internal/utils.Apply()`, `GitProcess.exec`. */
const CALL_SPAN = /^((?:[\w/]+\.)*)([A-Za-z_]\w*)(\(\s*\))?$/;
/** Words that say a call runs a program as a process (`GitProcess.exec`, `runCommand`). */
const PROCESS_WORDS = new Set(["process", "exec", "spawn", "command", "shell", "run", "cmd"]);
/** The calls that run a program as a process, in the common languages (a fixed table, like the CI systems of newFiles.ts). */
const PROCESS_CALLS = new Set(["exec", "execsync", "execfile", "execfilesync", "spawn", "spawnsync", "execa", "command", "commandcontext", "system", "popen", "check_output", "check_call", "run", "call", "getoutput"]);
/** "X must remain enabled", "X must stay on", "X must not be disabled", "never disable X". */
const KEPT_ON = /\b(?:must|should|shall)\s+(?:remain|stay|be\s+kept|always\s+be)\s+(?:enabled|on|active|turned\s+on)\b|\b(?:must|should|shall)\s+(?:not|never)\s+be\s+(?:disabled|turned\s+off|skipped|bypassed)\b/i;
const KEPT_CUE = /remain|stay|kept|always\s+be|disabl|turn(?:ed)?\s+off|skip|bypass/i;
const NEVER_DISABLE = /\b(?:never|do\s+not|don['’]t|must\s+not)\s+(?:disable|turn\s+off|skip|bypass)\s+/i;
/** Words of a setting's subject that say nothing of which setting it is. */
const SETTING_FILLER = new Set(["the", "a", "an", "all", "any", "by", "default", "defaults", "always", "settings", "setting", "security", "must", "should", "be", "is", "are", "and", "or", "of", "for", "on", "in"]);

/** Camel-case and separator words of an identifier, lower-cased (`InsecureSkipVerify` → insecure, skip, verify). */
export function identifierWords(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** The clauses of a rule: sentences, and the comma- or semicolon-separated parts of a list of imperatives. */
function clausesOf(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let code = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "`") code = !code;
    // Outside a code span a comma, a semicolon or a sentence's period ends the clause (`t.TempDir` is in one).
    if (!code && (c === "," || c === ";" || (c === "." && (i + 1 === text.length || /\s/.test(text[i + 1]))))) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out.map((c) => c.replace(/\*+/g, " ").trim()).filter(Boolean);
}

/** The instruments a rule names, each with the shape that says what it replaces. */
export function instrumentsOf(text: string, range: LineRange): Instrument[] {
  const out: Instrument[] = [];
  // Every instrument but a kept setting is a code span: a rule without one is not split into clauses at all (an
  // instruction file is read block by block, so this runs thousands of times on a long one).
  // A date pattern is the one instrument whose shape names it without a code span ("the ISO 8601 format for dates:
  // yyyy-mm-dd"): nothing but a date is written as year, month and day letters between one separator.
  const plainDate = !text.includes("`") && PLAIN_DATE.test(text);
  const sentences = text.includes("`") || plainDate ? text.replace(/[*_]{2}/g, "").split(/(?<=[.;!?])\s+/) : [];
  const clauses = sentences.flatMap((sentence) => clausesOf(sentence).map((clause) => ({ clause, tests: TEST_SCOPE.test(sentence) })));
  for (const { clause, tests } of clauses) {
    const use = USE_CLAUSE.exec(clause);
    if (!use) continue;
    // A clause that forbids ("do not use `X`") names what not to use: decisions.ts reads those.
    if (/\b(?:not|never|no|avoid)\b/i.test(clause.slice(0, use.index))) continue;
    const after = clause.slice(use.index);
    if (plainDate) {
      for (const m of after.matchAll(PLAIN_DATE_ALL)) {
        const date = datePattern(m[0]);
        if (date) out.push({ name: m[0], range, shape: "date", date });
      }
      continue;
    }
    for (const m of after.matchAll(/`([^`]{1,80})`/g)) {
      const span = m[1].trim();
      if (VERB_SPAN.test(span)) {
        // "wrap errors with `%w`": the object is the noun after the verb.
        const noun = /^\w+\s+(?:(?:all|the|your|any|every|each|new|returned)\s+){0,2}([A-Za-z]{3,20})\b/.exec(after)?.[1]?.toLowerCase();
        if (!noun || noun === span.slice(1)) continue;
        out.push({ name: span, range, shape: "verb", verb: span, noun: noun.slice(0, 3) });
        continue;
      }
      // "use the ISO 8601 format for dates: `yyyy-mm-dd`": a date written another way goes against it.
      const date = datePattern(span);
      if (date) {
        out.push({ name: span, range, shape: "date", date });
        continue;
      }
      const call = CALL_SPAN.exec(span);
      // A call is written with its parentheses, or as a type's method (`GitProcess.exec`), never as a bare word.
      const receiver = call ? call[1].replace(/\.$/, "").split(/[./]/).pop() ?? "" : "";
      if (call && tests && (call[3] || /[A-Z]/.test(receiver))) {
        const words = identifierWords(call[2]).filter((w) => w.length >= 3);
        // A call that runs a program (`GitProcess.exec`): its receiver's other word names the program.
        const all = [...identifierWords(receiver), ...identifierWords(call[2])];
        const tool = all.some((w) => PROCESS_WORDS.has(w)) ? identifierWords(receiver).find((w) => !PROCESS_WORDS.has(w) && w.length >= 2) : undefined;
        if (words.length || tool) out.push({ name: span, range, shape: "call", call: { name: call[2], words, ...(tool ? { tool } : {}) }, testsOnly: true });
      }
    }
  }
  out.push(...keptSettings(text, range));
  out.push(...forbiddenFlags(text, range));
  const seen = new Set<string>();
  return out.filter((i) => (seen.has(`${i.shape}\0${i.name}`) ? false : (seen.add(`${i.shape}\0${i.name}`), true)));
}

/** "TLS verification must remain enabled by default": the subject, by its words that name the setting. */
function keptSettings(text: string, range: LineRange): Instrument[] {
  const out: Instrument[] = [];
  // Each of KEPT_ON and NEVER_DISABLE needs one of these words.
  if (!KEPT_CUE.test(text)) return out;
  for (const sentence of text.replace(/[*_]{2}/g, "").split(/(?<=[.;!?])\s+/)) {
    let subject: string | undefined;
    const kept = KEPT_ON.exec(sentence);
    if (kept) subject = sentence.slice(0, kept.index).split(/[:,(]/).at(-1);
    const never = kept ? undefined : NEVER_DISABLE.exec(sentence);
    if (never) subject = sentence.slice(never.index + never[0].length).split(/[,.;:(]/)[0];
    if (!subject) continue;
    const words = subject
      .replace(/[`*_]/g, "")
      .split(/[^A-Za-z0-9]+/)
      .map((w) => w.toLowerCase())
      .filter((w) => w.length >= 3 && !SETTING_FILLER.has(w));
    // One to three words name a setting; more is a sentence about something else.
    if (!words.length || words.length > 3) continue;
    out.push({ name: subject.replace(/[`*_]/g, "").trim(), range, shape: "setting", words });
  }
  return out;
}

/** "Never force push", "do not force-push": two words, the flag's and the command's, right after the prohibition. */
const NEVER_FLAG = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not)\s+([a-z]{3,12})[- ]([a-z]{3,12})\b/gi;

/** The forbidden ways to run a command a rule names ("Never force push" → `push` with `--force`). */
function forbiddenFlags(text: string, range: LineRange): Instrument[] {
  if (!/\b(?:never|not|don['’]t)\b/i.test(text)) return [];
  const out: Instrument[] = [];
  for (const m of text.replace(/[*_`]/g, "").slice(0, 4000).matchAll(NEVER_FLAG)) {
    const [flag, command] = [m[1].toLowerCase(), m[2].toLowerCase()];
    // "never use …", "do not edit …": an imperative and its object, not a flag and a command.
    if (SETTING_FILLER.has(flag) || /^(?:use|using|edit|make|add|run|call|write|commit|include|hand|manually|directly|ever)$/.test(flag)) continue;
    out.push({ name: `${command} --${flag}`, range, shape: "flag", flag: { flag, command } });
  }
  return out;
}

/** A date pattern written as plain words (`yyyy-mm-dd`, `DD/MM/YYYY`): a four-letter year, so "mm-dd" alone is no date. */
const PLAIN_DATE = /\b(?:yyyy|YYYY)([-/.])(?:mm|MM|dd|DD)\1(?:mm|MM|dd|DD)\b|\b(?:mm|MM|dd|DD)([-/.])(?:mm|MM|dd|DD)\2(?:yyyy|YYYY)\b/;
const PLAIN_DATE_ALL = new RegExp(PLAIN_DATE.source, "g");

/** A date pattern written with letters (`yyyy-mm-dd`, `DD/MM/YYYY`): its parts' order and separator ("ymd-"). */
function datePattern(span: string): string | undefined {
  const m = /^(y{2,4}|m{1,2}|d{1,2})([-/. ])(y{2,4}|m{1,2}|d{1,2})\2(y{2,4}|m{1,2}|d{1,2})$/i.exec(span);
  if (!m) return undefined;
  const order = [m[1], m[3], m[4]].map((p) => p[0].toLowerCase()).join("");
  return new Set(order).size === 3 ? `${order}${m[2]}` : undefined;
}

/** The dates a line formats: strftime's (`%m/%d/%Y`, `%F`) and letter patterns (`MM/dd/yyyy`), as order and separator. */
function datesIn(text: string): { written: string; date: string }[] {
  const out: { written: string; date: string }[] = [];
  for (const m of text.matchAll(/%([YymdeF])(?:([-/. ])%([Yymde])\2%([Yymde]))?/g)) {
    if (m[1] === "F") out.push({ written: m[0], date: "ymd-" });
    else if (m[2]) {
      const order = [m[1], m[3], m[4]].map((p) => (p === "Y" || p === "y" ? "y" : p === "e" ? "d" : p)).join("");
      if (new Set(order).size === 3) out.push({ written: m[0], date: `${order}${m[2]}` });
    }
  }
  for (const m of text.matchAll(/\b(?:y{2,4}|m{1,2}|d{1,2})([-/.])(?:y{2,4}|m{1,2}|d{1,2})\1(?:y{2,4}|m{1,2}|d{1,2})\b/gi)) {
    const date = datePattern(m[0]);
    if (date) out.push({ written: m[0], date });
  }
  return out;
}

/** Whether two words are one ("verify" and "verification" share their first five letters; short words are whole). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  return a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5);
}

/** Words that turn a flag named for a setting into one that turns it off. */
const OFF_WORDS = new Set(["insecure", "skip", "disable", "disabled", "no", "without", "ignore", "bypass", "unsafe"]);

/** What a changed code line does against an instrument, as the change wrote it; undefined when nothing. */
export function againstInstrument(inst: Instrument, path: string, code: string, strings: string): string | undefined {
  if (inst.testsOnly && !isTestPath(path)) return undefined;
  if (inst.shape === "verb") {
    // Builds the object (`fmt.Errorf`) from a value named for it (`err`) with verbs, none of them the instrument.
    const verbs = strings.match(/%[a-zA-Z]/g);
    if (!verbs || verbs.includes(inst.verb!)) return undefined;
    const calls = [...code.matchAll(/([A-Za-z_][\w.]*)\s*\(/g)].map((m) => m[1]);
    const builder = calls.find((c) => (c.split(".").pop() ?? c).toLowerCase().includes(inst.noun!));
    if (!builder) return undefined;
    const args = code.slice(code.indexOf(builder) + builder.length);
    const passed = [...args.matchAll(/\b([A-Za-z_]\w*)\b/g)].some((m) => m[1].toLowerCase().startsWith(inst.noun!) && !calls.includes(m[1]));
    return passed ? `${builder}(… ${verbs.at(-1)} …)` : undefined;
  }
  if (inst.shape === "flag") {
    // The command as a word of the line, then the flag as an option after it (`git push --force origin`).
    const line = `${code} ${strings}`;
    const at = line.search(new RegExp(`(?:^|[\\s"'\`(])${inst.flag!.command}(?=[\\s"'\`)]|$)`));
    if (at < 0) return undefined;
    const opt = new RegExp(`\\s(--${inst.flag!.flag}(?:-[a-z-]+)?)(?=[\\s=;"'\`)]|$)`).exec(line.slice(at));
    return opt ? `${inst.flag!.command} ${opt[1]}` : undefined;
  }
  if (inst.shape === "date") {
    const other = datesIn(`${code} ${strings}`).find((d) => d.date !== inst.date);
    return other?.written;
  }
  if (inst.shape === "call") {
    const own = inst.call!;
    // The program run another way: a process call whose command starts with it (`execSync(\`git init\`)`).
    if (own.tool && !code.includes(`${own.name}(`)) {
      const runs = [...code.matchAll(/([A-Za-z_]\w*)\s*\(/g)].find((m) => PROCESS_CALLS.has(m[1].toLowerCase()));
      if (runs && new RegExp(`^\\s*\\[?\\s*${own.tool}\\b`, "i").test(strings)) return `${runs[1]}(${own.tool} …)`;
    }
    for (const m of code.matchAll(/\b((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)\s*\((\s*\))?/g)) {
      const name = m[2];
      const receiver = m[1].replace(/\.$/, "").split(".").pop()?.toLowerCase() ?? "";
      if (name === own.name) continue;
      // Another call of the same family: a word of its name is the instrument's (`MkdirTemp` and `TempDir`).
      const words = identifierWords(name).filter((w) => w.length >= 4);
      const family = own.words.length > 1 && words.some((w) => own.words.includes(w));
      // (`own.words` keeps three-letter words, `Dir`, so that a name of two words is known as two.)
      // A bare call of the package the instrument's name is (`context.Background()` where `t.Context()` is the rule).
      const packaged = !!m[3] && own.words.length === 1 && receiver === own.words[0];
      if (family || packaged) return `${m[1]}${name}()`;
    }
    return undefined;
  }
  // A flag named for the setting, set so that it is off.
  for (const m of code.matchAll(/([A-Za-z_][\w-]*)["']?\s*(?::|=|:=)\s*(true|false|0|1|off|on|yes|no)\b/gi)) {
    const words = identifierWords(m[1]);
    if (!inst.words!.some((w) => words.some((x) => sameWord(w, x)))) continue;
    const off = words.some((w) => OFF_WORDS.has(w));
    const value = /^(?:true|1|on|yes)$/i.test(m[2]);
    if (off === value) return `${m[1]}: ${m[2]}`;
  }
  return undefined;
}
