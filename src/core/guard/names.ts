// How a decided thing's name ("Tailwind CSS", "@vscode/webview-ui-toolkit", "innerHTML") is recognised in a change:
// the words of the name that say which thing it is (not "CSS", "library", "keep"), its words run together
// ("tailwindcss"), or a package-shaped name as a whole. Matching is by whole tokens of the changed text, so "React"
// matches `react` and `reactjs` but never `reactive`. Linear: texts are split once, no backtracking patterns.

/** Words that never identify a technology on their own: what option names share ("Plain CSS", "Keep the current API"). */
const GENERIC = new Set(
  (
    "a an the and or of to in on for with by as at is are be it its we our us use used using uses usage option options approach approaches solution solutions " +
    "alternative alternatives keep keeping current currently existing status quo do nothing none no not new old plain simple custom own inhouse house manual " +
    "manually single multiple one two three separate shared common central centralized centralised local remote global based driven first third party library " +
    "libraries lib libs framework frameworks tool tools tooling service services server servers client clients api apis rest http https json yaml yml xml " +
    "html css js javascript typescript ts code file files folder folders directory directories module modules package packages component components system " +
    "systems data database databases db store stores storage cache caching queue queues message messages messaging event events stream streams log logs " +
    "logging test tests testing build builds deploy deployment deployments config configuration configs settings setting via through more less only all " +
    "any each every some same other another per also layer layers pattern patterns model models state management manager handler handlers style styles " +
    "styling sheet sheets utility utilities util utils helper helpers native vanilla standard default write writing implement implementation implemented " +
    "support supported add adding added remove removing removed replace replacing replaced switch switching migrate migrating migration move moving adopt " +
    "adopting introduce introducing create creating make making go going stay stick continue continuing wrapper wrappers their them they this that these " +
    "those there here when then than into over under after before without within between against about just still yet can could should would will may " +
    "might must need needs rather instead way ways kind type types level levels version versions project projects repo repository repositories app apps " +
    "application applications web site sites page pages ui ux front frontend back backend end full stack fullstack mobile desktop cloud managed self " +
    "hosted open source opensource proprietary commercial free paid language languages runtime runtimes engine engines platform platforms infrastructure " +
    "infra container containers image images cluster clusters network job jobs task tasks worker workers script scripts command commands query queries " +
    "schema schemas table tables index indexes key keys value values object objects class classes function functions method methods interface " +
    "interfaces sql nosql orm framework based first second better best good bad simple complex small large big fast slow light lightweight heavy " +
    "existing legacy modern classic generic general specific dedicated embedded external internal hybrid static dynamic async sync synchronous " +
    "asynchronous direct indirect explicit implicit automatic automated tests unit integration end e2e text string strings number numbers list lists " +
    "map maps set sets array arrays call calls request requests response responses file format formats protocol protocols document documents doc docs " +
    "record records decision decisions adr adrs hand written handwritten rolled homegrown home grown bespoke hoc ad scratch roll " +
    "write wrote built building everything something anything per whole part parts piece pieces step steps was were from time user " +
    "users see flow guide access connector driver adapter plugin plugins algorithm special com org net www java url urls uri id ids " +
    "name names license licence licensed mit gpl lgpl agpl mpl bsd template templates"
  ).split(/\s+/),
);

/** Purpose words too common to key a library by ("testing", "database", "styling"): every such word is generic. */
export const GENERIC_PURPOSES: ReadonlySet<string> = GENERIC;

/**
 * Suffixes a package adds to its project's name: `tailwind` → `tailwindcss`, `redux` → `reduxjs`, `postgres` →
 * `postgresql`; a queue's `mq` (`bull` → `bullmq`, `zero` → `zeromq`).
 */
const NAME_SUFFIXES = new Set(["js", "ts", "css", "db", "sql", "ql", "io", "orm", "cli", "kit", "lib", "py", "rs", "dom", "sdk", "ui", "go", "x", "s", "database", "jdbc", "driver", "client", "mq"]);

/** Vendors that prefix a product's name ("Amazon Cognito", "Apache SolR"): the product's own word identifies it. */
const VENDORS = new Set(["amazon", "aws", "google", "microsoft", "azure", "apache", "eclipse", "oracle", "ibm", "jetbrains", "facebook", "meta", "twitter", "alibaba", "hashicorp"]);

/** Whether a word is a vendor's ("AWS", "Azure"), which prefixes its products' names. */
export function isVendor(word: string): boolean {
  return VENDORS.has(word.toLowerCase());
}

/** A short name with a digit ("H2", "S3") still names a thing; other two-letter tokens do not. */
const SHORT_NAME = /^(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{2}$/;

/** The initials of a name of three or four capitalised words ("Java Native Access" → "jna"), else undefined. */
export function acronymOf(name: string): string | undefined {
  const words = name.replace(/[`*_"“”]/g, "").trim().split(/\s+/);
  if (words.length < 3 || words.length > 4 || !words.every((w) => /^[A-Z][a-z]+$/.test(w))) return undefined;
  return words.map((w) => w[0].toLowerCase()).join("");
}

/** A few client packages whose name does not contain the project's (`pg` is PostgreSQL, `ioredis` is Redis). */
const ALIASES: Record<string, string> = {
  pg: "postgres",
  psycopg: "postgres",
  psycopg2: "postgres",
  npgsql: "postgres",
  libpq: "postgres",
  pgx: "postgres",
  mongoose: "mongodb",
  pymongo: "mongodb",
  mongoid: "mongodb",
  ioredis: "redis",
  jedis: "redis",
  lettuce: "redis",
  "mysql2": "mysql",
  pymysql: "mysql",
  sqlite3: "sqlite",
};

export interface NameKeys {
  /** The name as the decision wrote it (shown in messages). */
  display: string;
  /** A package-shaped name matched as a whole ("@vscode/webview-ui-toolkit" → its tokens in a row). */
  exact?: string[];
  /** Tokens that each identify the thing ("tailwind"). */
  tokens: string[];
  /** All content tokens run together, when the name has two or three ("tailwindcss", "reactquery"). */
  compact?: string;
  /** Every token must be there (a name read from prose, "Cluster Auto Scaler", is not any line saying "auto"). */
  all?: boolean;
  /** Word stems a name starts with ("log" for `log`, `env_logger`): a thing named for its purpose (purposeRules.ts). */
  stems?: string[];
  /** Tokens that never match the stems (the library the rule chose for that purpose). */
  not?: string[];
  /** The chosen libraries' own keys: a line that names one of them is that library, not another for the purpose. */
  notNames?: NameKeys[];
  /**
   * Every naming word of the name, when the keys keep only some of them ("Docker Hub" keyed by `hub` beside a record
   * that runs Docker; "acquiring Sidekiq Pro" by `pro`): what is left tells the option apart from the chosen one, but
   * names the thing only where a line names a package. Elsewhere all of these must be there (or run together).
   */
  whole?: string[];
  /**
   * Only a package, an import or an image can name it: its one key is a plain word that is capitalised because it
   * opens a sentence-like name ("Give AWS accounts directly to teams", "Retaining the current model"), or a plain
   * lower-case word the record turned down in passing ("instead of filenames"). In a line of code or config such a
   * word is the word, not the option.
   */
  leadOnly?: boolean;
}

/** Lower-case alphanumeric runs of a text (at most `max` characters read). */
export function tokensOf(text: string, max = 4000): string[] {
  return text.slice(0, max).toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

const CODE_WORDS = new Set(["null", "nil", "none", "new", "this", "self", "true", "false", "void", "get", "set", "is", "has", "to", "of", "on", "by", "with", "for", "from", "as", "and", "or", "not"]);

/**
 * A changed text's tokens (tokensOf), each word with inner capitals followed by its parts ("StackExchangeRedis" →
 * "stackexchangeredis", "stack", "exchange", "redis"): a package names its project inside a compound word.
 */
export function changeTokensOf(text: string, max = 4000): string[] {
  const out: string[] = [];
  for (const w of text.slice(0, max).split(/[^A-Za-z0-9]+/)) {
    if (!w) continue;
    out.push(w.toLowerCase());
    if (/[a-z][A-Z]|[A-Z]{2}[a-z]/.test(w)) {
      const parts = w.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").toLowerCase().split(" ");
      // A language's own words inside a name ("NullMarked", "getValue") name no thing.
      if (parts.length > 1 && parts.length <= 5) out.push(...parts.filter((p) => !CODE_WORDS.has(p)));
    }
  }
  return out;
}

/**
 * A vendor's product whose own words the record also writes as ordinary words ("AWS Instance Scheduler" in a record
 * about scheduling instances): the vendor and every capitalised word of the product, all of them required.
 */
export function vendorProductKeys(name: string): { keys: NameKeys; product: string[] } | undefined {
  const words = name.slice(0, 200).split(/\s+/).map((w) => w.replace(/^[^\w]+|[^\w-]+$/g, ""));
  const at = words.findIndex((w) => VENDORS.has(w.toLowerCase()));
  if (at < 0) return undefined;
  const product: string[] = [];
  for (const w of words.slice(at + 1, at + 4)) {
    if (!/^[A-Z][\w-]*$/.test(w)) break;
    product.push(...tokensOf(w).filter((t) => t.length >= 2));
  }
  if (!product.length) return undefined;
  const tokens = [words[at].toLowerCase(), ...product];
  return { keys: { display: words.slice(at, at + 1 + product.length).join(" "), tokens: [...new Set(tokens)].sort(), all: true }, product };
}

/**
 * A run of two to four capitalised words that are each a common word ("Container Apps", "SQL Server", "Cloud Map"):
 * a product's name as a whole, matched only as those words in a row (`container-apps-deploy-action`, `SqlServer`).
 */
function titledRun(words: string[], exclude: ReadonlySet<string>, withVendor = false): string[] | undefined {
  let best: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > best.length) best = run;
    run = [];
  };
  for (const w of words) {
    const bare = w.replace(/^[^\w]+|[^\w]+$/g, "");
    if (/^[A-Z][A-Za-z]*$/.test(bare) && !(run.length === 0 && LEADING_WORDS.has(bare.toLowerCase())) && (withVendor || !VENDORS.has(bare.toLowerCase()))) run.push(bare.toLowerCase());
    else flush();
  }
  flush();
  // "H2 Database Engine" is H2: a name with a digit names its product there, not by its common words.
  // A run whose words the other side claims, but for ordinary words ("DID URLs" where "did" is a common word), is theirs.
  const claimed = best.some((t) => exclude.has(t)) && best.every((t) => exclude.has(t) || GENERIC.has(t));
  if (best.length < 2 || best.length > 4 || claimed || words.some((w) => /\d/.test(w))) return undefined;
  return best;
}

/** First words of an option that make it a phrase about doing something, not a name ("Offer getters", "Support ASCII"). */
export const LEADING_WORDS: ReadonlySet<string> = new Set<string>(
  ("use keep support offer create add implement store return convert replace wrap change handle check mark introduce adopt move switch migrate " +
    "remove allow make build write run provide rely stay do let only automatically when formulate localize separate test apply enable disable " +
    "define generate send publish read save load fetch parse split merge drop deprecate extend expose enforce require prefer avoid accept reject " +
    "manual manually always never no new one each every all both either neither custom plain simple single multiple shared dedicated global local " +
    "external internal inside alongside within via with without per special general basic full partial complete minimal standard status algorithm " +
    "option alternative approach solution do nothing continue leave delegate ignore treat wait skip put place rewrite refactor extract inline " +
    "pass include alter have handling normalize hardcode compare display show export import exporting importing fetching short long " +
    // Verbs an approach opens with ("Leverage ZOP Dependencies", "Expand X to cover Y"): the approach, not a name.
    "leverage leveraging utilize utilise utilizing employ expand expanding establish specify integrate consolidate").split(" "),
);

/** Verbs by which an option takes a thing ("Use X", "Adopt X", "Switch to X"), as against working on one ("Make X …"). */
const CHOOSING_VERBS = new Set("use using adopt adopting choose pick prefer keep stay stick continue switch migrate move go introduce introducing replace rely".split(" "));

/**
 * An option that works on a thing rather than takes it: "Make the OldEngine cwd option available to rules" names
 * OldEngine as the place it changes. Three words or more, opening with a verb that is not a choosing one.
 */
export function worksOnThing(display: string): boolean {
  const words = display.replace(/[`*_"]/g, "").trim().split(/\s+/).filter(Boolean);
  if (words.length < 3) return false;
  const first = words[0].toLowerCase();
  return LEADING_WORDS.has(first) && !CHOOSING_VERBS.has(first) && /^(?:[a-z]+)$/.test(first) && !/^(?:no|never|avoid|only|always)$/.test(first);
}

const PACKAGE_SHAPED = /^@?[A-Za-z0-9][\w.-]*(?:\/[\w.-]+)*$/;

/**
 * The keys of a decided thing's name; undefined when nothing in it identifies a thing ("Do nothing", "Plain CSS").
 * `exclude`: tokens that belong to the other side of the same decision (the chosen option's words are never keys
 * of a rejected one).
 */
export function keysOf(name: string, exclude: ReadonlySet<string> = new Set(), opts: { shortNames?: boolean } = {}): NameKeys | undefined {
  // One sentence of the name: "Keep the GitHub flow. See the guide" names the flow, not "See".
  // "e.g. GitHub Actions" goes on: an abbreviation's dot ends no sentence.
  const display = name.trim().slice(0, 200).split(/(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?:;]\s/i)[0].trim();
  if (!display) return undefined;
  // Code spans say exactly what is meant: `@vscode/webview-ui-toolkit`, `innerHTML`.
  const spans = [...display.matchAll(/`([^`]{1,100})`/g)].map((m) => m[1].trim()).filter(Boolean);
  const bare = display.replace(/[`*_"“”]/g, "").trim();
  const words = (spans.length ? spans.join(" ") : bare).split(/\s+/).filter(Boolean);
  // A package or module path in the name ("@vscode/webview-ui-toolkit", "io.methvin.watcher.DirectoryWatcher") is
  // matched as a whole: its parts ("java", "vscode") say nothing alone.
  // A version ("2.0", "MPL-2.0" aside) is no package: a package-shaped word has a letter in at least two of its parts.
  // "CI/CD", "I/O": capitals joined by a slash are an abbreviation, not a package.
  // "e.g.", "i.e.": single letters between dots are an abbreviation, not a package.
  const packaged = words.find((w) => PACKAGE_SHAPED.test(w) && !/^[A-Z0-9]{1,5}(?:\/[A-Z0-9]{1,5})+$/.test(w) && !/^(?:[a-z]\.)+[a-z]?\.?$/i.test(w) && tokensOf(w).filter((t) => /[a-z]/.test(t)).length >= 2 && !w.startsWith(".") && /[@/.]/.test(w.slice(1, -1)) && tokensOf(w).length >= 2 && tokensOf(w).length <= 6);
  if (packaged) {
    // A chosen "Name.js" is published bare as often as not (`lunr`): dropping the bare package drops it. Only for a
    // chosen option (a rejected "Node.js" keyed by `node` would match every runtime line).
    const parts = tokensOf(packaged);
    if (opts.shortNames && parts.length === 2 && (parts[1] === "js" || parts[1] === "ts") && parts[0].length >= 4 && !GENERIC.has(parts[0]) && !exclude.has(parts[0])) {
      return { display, tokens: [parts[0]], compact: parts.join("") };
    }
    // "GOV.UK Sign-in": the capitalised words beside the package-shaped one are part of the name.
    const beside = words.filter((w) => w !== packaged && /^[A-Z]/.test(w)).flatMap((w) => tokensOf(w));
    return withWhole({ display, exact: parts, tokens: [] }, [...parts, ...beside]);
  }
  // A path in a language's own separators (`std::thread::sleep`, `Psr\\Cache\\CacheItemPoolInterface`) is one name:
  // `tokio::time::sleep` shares its last word, not its path.
  const pathed = spans.find((w) => /^[A-Za-z_][\w]*(?:(?:::|\\)[A-Za-z_][\w]*)+(?:\(\))?$/.test(w) && tokensOf(w).length <= 6);
  if (pathed) return { display, exact: tokensOf(pathed), tokens: [] };
  // A command in one code span ("`snouty launch`", "`npm run build`") is those words in a row, not any one of them.
  if (spans.length === 1 && /\s/.test(spans[0]) && tokensOf(spans[0]).length >= 2 && tokensOf(spans[0]).length <= 6 && tokensOf(spans[0]).some((t) => !GENERIC.has(t))) {
    return { display, exact: tokensOf(spans[0]), tokens: [] };
  }
  if (words.length === 1 && PACKAGE_SHAPED.test(words[0]) && /-/.test(words[0]) && tokensOf(words[0]).length <= 6) return { display, exact: tokensOf(words[0]), tokens: [] };
  const tokens = new Set<string>();
  /** Every naming word, and whether the exclusions took some away (words another option or the record's context uses). */
  const naming: string[] = [];
  let cut = false;
  const keep = (w: string) => {
    if (w.startsWith(".")) return; // a file extension (".bib") is no thing of its own
    // "H2" and "S3" are names as written in capitals; "v2" and "from s3" are not.
    // Only for a chosen option (its drop is read from a removed dependency): as a rejected key "S3" would match every bucket.
    const short = !!opts.shortNames && /^[A-Z]\d$|^\d[A-Z]$/.test(w.replace(/[^\w]/g, ""));
    // "2D Canvas", "3D Chart": a dimension is what tells the thing apart from its siblings ("WebGL Canvas"); it keys
    // only with the rest of the name (see below).
    const dimension = words.length >= 2 && /^\d[A-Z]$/.test(w.replace(/[^\w]/g, ""));
    for (const t of tokensOf(w)) {
      if (!((t.length >= 3 || ((short || dimension) && SHORT_NAME.test(t))) && !GENERIC.has(t) && !/^\d+$/.test(t))) continue;
      naming.push(t);
      if (exclude.has(t)) cut = true;
      else tokens.add(t);
    }
  };
  // A React hook named for its library's acronym ("useSWR") is that library's (`swr`) as well.
  for (const w of words) {
    const hook = /^use([A-Z][A-Z0-9]{2,5})$/.exec(w.replace(/[^\w]/g, ""));
    if (hook && !exclude.has(hook[1].toLowerCase())) tokens.add(hook[1].toLowerCase());
  }
  if (words.length === 1) keep(words[0]);
  else {
    // Only the words that name something: a code span, a word with inner capitals, capitals, digits or package
    // punctuation ("RTK", "SLF4J", "GitHub", "Node.js"), a capitalised word after the first, and a capitalised first
    // word that is not the verb or qualifier of a phrase ("Redux with RTK", but not "Offer getters").
    words.forEach((w, i) => {
      const named = spans.length > 0 || /[a-z][A-Z]|[A-Z]{2}|\d|[.@/+#]/.test(w.slice(1)) || /^\d[A-Z]$/.test(w) || (i > 0 && /^[A-Z]/.test(w)) || (i === 0 && /^[A-Z]/.test(w) && !LEADING_WORDS.has(w.toLowerCase()));
      if (named) keep(w);
    });
  }
  // "Open Policy Agent (OPA)": the words an acronym spells out are its name together, never one by one ("policy").
  for (const m of bare.matchAll(/((?:\b[A-Z][a-z]+\s+){2,5})\(([A-Z]{2,6})\)/g)) {
    const spelled = m[1].trim().split(/\s+/).slice(-m[2].length);
    if (spelled.length !== m[2].length || spelled.map((w) => w[0]).join("") !== m[2]) continue;
    for (const w of spelled) tokens.delete(w.toLowerCase());
    if (!exclude.has(m[2].toLowerCase())) tokens.add(m[2].toLowerCase());
  }
  // A dimension left alone ("2D" of "2D Canvas" once "Canvas" is the chosen option's) names nothing.
  if (!opts.shortNames && [...tokens].every((t) => /^\d[a-z]$/.test(t))) tokens.clear();
  if (tokens.size === 0) {
    const run = titledRun(words, exclude);
    return run ? { display, exact: run, tokens: [] } : undefined;
  }
  // "Amazon Cognito" is Cognito: a vendor's word alone would match every product of that vendor.
  if ([...tokens].some((t) => !VENDORS.has(t))) {
    for (const t of [...tokens]) if (VENDORS.has(t)) tokens.delete(t);
  } else if (words.length > 1 && !onlyTheVendorDiffers(words, exclude)) {
    // "Apache 2.0", "AWS (sharding)": a vendor and a qualifier name no product. "AWS Systems Manager": a vendor and a
    // product of common words names it by all those words in a row, the vendor's too.
    const run = titledRun(words, exclude, true);
    return run && run.length >= 3 ? { display, exact: run, tokens: [] } : undefined;
  }
  const all = words.flatMap((w) => tokensOf(w)).filter((t) => !["a", "an", "the", "and", "or", "of", "with", "use", "using"].includes(t));
  // One long word is its own compact form: "Proptypes" is `prop-types` too (the package splits what the record joins).
  const compact = all.length >= 2 && all.length <= 3 ? all.join("") : all.length === 1 && tokens.has(all[0]) && all[0].length >= 6 ? all[0] : undefined;
  const keys: NameKeys = { display, tokens: [...tokens].sort(), ...(compact && !exclude.has(compact) ? { compact } : {}) };
  // Only one plain word left ("Hub", "Pro", "Required"): an acronym, a word with inner capitals or digits ("RAML",
  // "StandardJS") names its thing alone, and two words left are a name of their own.
  const plain = keys.tokens.length === 1 && words.some((w) => tokensOf(w).includes(keys.tokens[0]) && /^[A-Z]?[a-z]+$/.test(w.replace(/[^\w]/g, "")));
  if (cut && plain) return withWhole(keys, naming);
  // Prose that runs into a term ("rather than deploying a custom Catalog source"): the capitalised word is one half of a
  // compound whose other half is a kind of thing ("source", "server"), and alone it is an ordinary word.
  const compound = plain && !cut ? compoundPartner(words, keys.tokens[0]) : undefined;
  if (compound) return { ...keys, whole: [keys.tokens[0], compound] };
  // "Retaining the current model", "Give AWS accounts directly to services teams": the one key is the word that
  // opens a sentence of three words or more, capitalised only for that.
  const lead = words.length >= 3 && keys.tokens.length === 1 && /^[A-Z][a-z]+$/.test(words[0]) && tokensOf(words[0])[0] === keys.tokens[0];
  if (lead) return { ...keys, leadOnly: true };
  // "Docker Hub", "Redux Saga": one phrase of two naming words is neither word alone ("docker", "saga"); a name that
  // lists its spellings or parts ("Selenium / specflow", "PostgreSQL (Postgres)") is any of them.
  const phrase = keys.tokens.length >= 2 && (!/[/,()|&+]|\b(?:or|and)\b/i.test(display) || keys.tokens.some((t) => /^\d[a-z]$/.test(t)));
  return phrase ? { ...keys, whole: [...keys.tokens] } : keys;
}

/**
 * The generic noun that follows a name's one key in running prose (a name that opens lower-case, as a fragment of a
 * sentence does): "deploying a custom Catalog source" → "source". Undefined for a listed option's name.
 */
function compoundPartner(words: string[], key: string): string | undefined {
  if (words.length < 3 || !/^[a-z]/.test(words[0])) return undefined;
  const at = words.findIndex((w, i) => i > 0 && /^[A-Z][a-z]+$/.test(w.replace(/[^\w]/g, "")) && w.replace(/[^\w]/g, "").toLowerCase() === key);
  const next = at > 0 ? words[at + 1]?.replace(/[^\w]/g, "") : undefined;
  return next && /^[a-z]{4,}$/.test(next) && GENERIC.has(next) && !FUNCTION_WORDS.has(next) ? next : undefined;
}

/** Generic words that are no kind of thing: they never make a compound with a name. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  ("than into over under after before without within between against about just still could should would might must rather instead when then " +
    "their them they this that these those there here from were also only more less some same other another each every through using based " +
    "used uses usage first second better best good simple small large fast slow").split(" "),
);

/** The keys with `whole` set when the name has naming words (tokens) its keys leave out. */
function withWhole(keys: NameKeys, naming: string[]): NameKeys {
  const whole = [...new Set(naming.filter((t) => t.length >= 3 && !GENERIC.has(t) && !/^\d+$/.test(t)))];
  const kept = new Set([...(keys.exact ?? []), ...keys.tokens]);
  return whole.some((t) => !kept.has(t)) ? { ...keys, whole } : keys;
}

/**
 * Keys of a thing a record turned down in passing, in its prose ("use directories instead of filenames"): one plain
 * lower-case word there is an ordinary word as often as a package, so it names a package at most. A listed option
 * ("- logrus") is an option whatever its case.
 */
export function inPassing(keys: NameKeys, name: string): NameKeys {
  return /^[a-z]{3,}$/.test(name.trim()) && keys.tokens.length === 1 ? { ...keys, leadOnly: true } : keys;
}

/** Whether a line's tokens (with its file's path) hold every word of a name, each as written or run together. */
export function namesWhole(tokens: readonly string[], whole: readonly string[]): boolean {
  // A file's name runs a word into a suffix of its own (`.eslintrc` holds "eslint").
  if (whole.every((w) => tokens.some((t) => tokenMatches(t, w) || (w.length >= 4 && t.startsWith(w))))) return true;
  const compact = whole.join("");
  return tokens.some((t) => t.startsWith(compact));
}

/**
 * "ESLint with Google code style" beside a chosen "ESLint with Airbnb code style": every word but the vendor's is the
 * chosen option's or a common one, so the vendor's word is what tells this option apart, and keys it.
 */
function onlyTheVendorDiffers(words: string[], exclude: ReadonlySet<string>): boolean {
  const rest = words.flatMap((w) => tokensOf(w)).filter((t) => !VENDORS.has(t) && !["a", "an", "the", "and", "or", "of", "with", "in", "by"].includes(t));
  return rest.some((t) => exclude.has(t)) && rest.every((t) => exclude.has(t) || GENERIC.has(t));
}

/** Whether a token of the change is the key or the key plus a package suffix (`tailwindcss` for `tailwind`). */
function tokenMatches(tok: string, key: string): boolean {
  if (tok === key) return true;
  if (ALIASES[tok] === key || (ALIASES[tok] && key.startsWith(ALIASES[tok]) && NAME_SUFFIXES.has(key.slice(ALIASES[tok].length)))) return true;
  if ((key.length >= 4 || SHORT_NAME.test(key)) && tok.startsWith(key)) {
    const rest = tok.slice(key.length);
    return NAME_SUFFIXES.has(rest) || /^\d{1,2}$/.test(rest);
  }
  if (tok.length >= 5 && key.startsWith(tok)) return NAME_SUFFIXES.has(key.slice(tok.length));
  return false;
}

/** A word without a plural "s" ("modules" → "module"; "class" and "ss" words kept). */
function singular(word: string): string {
  return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/**
 * "acces" for "access", "adress" for "address": the same word of five letters or more but for a doubled letter
 * written once, the commonest slip in a record's code spans. Only after the first word of a name of several words in
 * a row, where that word pins it down (and `mayName` still looks up the first word as written).
 */
function sameButDoubled(a: string, b: string): boolean {
  if (a.length < 5 || b.length < 5 || Math.abs(a.length - b.length) !== 1) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 1; i < long.length; i++) {
    if (long[i] === long[i - 1] && long.slice(0, i) + long.slice(i + 1) === short) return true;
  }
  return false;
}

/**
 * Where a text (a dependency name, a module path, a changed line) names the thing: the matched run of the text, or
 * undefined. `tokens` are the text's tokens (tokensOf), computed once per line by the caller.
 */
export function findName(tokens: string[], keys: NameKeys): string | undefined {
  if (keys.stems) {
    if (keys.notNames?.some((k) => findName(tokens, k))) return undefined;
    for (const t of tokens) if (!keys.not?.includes(t) && keys.stems.some((s) => t.startsWith(s))) return t;
    return undefined;
  }
  if (keys.exact) {
    const n = keys.exact.length;
    for (let i = 0; i + n <= tokens.length; i++) {
      let ok = true;
      // The last part may differ by a plural "s" (`vuex-smart-module` for "vuex-smart-modules").
      for (let j = 0; j < n && ok; j++) ok = tokens[i + j] === keys.exact[j] || (j === n - 1 && j > 0 && singular(tokens[i + j]) === singular(keys.exact[j])) || (j > 0 && sameButDoubled(tokens[i + j], keys.exact[j]));
      if (ok) return tokens.slice(i, i + n).join("-");
    }
    return undefined;
  }
  if (keys.all && keys.tokens.length > 1) {
    const hits = keys.tokens.map((k) => tokens.find((t) => tokenMatches(t, k)));
    if (hits.every(Boolean)) return hits.join(" ");
  }
  const single = !(keys.all && keys.tokens.length > 1);
  // "Type Extensions" is one `TypeExtension` in code: a plural compact form, run together from two or more tokens,
  // matches in the singular too (never one token alone: "extension" is no type extension).
  const one = keys.compact && keys.compact.length >= 8 && /[^s]s$/.test(keys.compact) ? keys.compact.slice(0, -1) : undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (single) for (const k of keys.tokens) if (tokenMatches(t, k)) return t;
    if (keys.compact) {
      let run = t;
      for (let j = i + 1; j < Math.min(tokens.length, i + 3) && run.length < keys.compact.length; j++) {
        run += tokens[j];
        if (run === keys.compact || run === one) return tokens.slice(i, j + 1).join(" ");
      }
      if (t === keys.compact) return t;
    }
  }
  return undefined;
}

/**
 * A text's tokens as sets, for `mayName`: each token (and the project an alias names: `pg` → `postgres`), the
 * first one to four letters of each, and the first four letters of each run of three tokens.
 */
export interface TokenIndex {
  full: Set<string>;
  /** Every prefix of up to four letters of each token (and alias). */
  pre: Set<string>;
  /** First four letters of tokens i, i+1, i+2 run together: where a compact form ("tailwindcss") can start. */
  run4: Set<string>;
}

export function indexTokens(tokens: string[]): TokenIndex {
  const full = new Set<string>();
  const pre = new Set<string>();
  for (const t of tokens) {
    // Own keys only: a token such as "constructor" must not find Object's.
    for (const w of Object.hasOwn(ALIASES, t) ? [t, ALIASES[t]] : [t]) {
      full.add(w);
      for (let n = 1; n <= Math.min(4, w.length); n++) pre.add(w.slice(0, n));
    }
  }
  const run4 = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const run = tokens[i] + (tokens[i + 1] ?? "") + (tokens[i + 2] ?? "");
    if (run.length >= 4) run4.add(run.slice(0, 4));
  }
  return { full, pre, run4 };
}

/**
 * False only when `findName` cannot find `keys` in the indexed tokens, in a few set lookups: every way a token
 * names a key (equal, an alias, a token that starts like the key, a key that starts with a token of four letters or
 * more, a run of tokens spelling the compact form) needs one of these. Matching a change asks this first for each
 * line and decided thing. A new way of matching in tokenMatches/findName must keep this true (guardNameIndex.test.ts).
 */
export function mayName(ix: TokenIndex, keys: NameKeys): boolean {
  // A token starting with a stem of three or four letters has that stem among its prefixes.
  if (keys.stems) return keys.stems.some((s) => ix.pre.has(s.slice(0, 4)));
  if (keys.exact) return keys.exact.length > 0 && ix.full.has(keys.exact[0]);
  // A token starting like the key: its first four letters, or the whole of a shorter key ("h2" in "h2database").
  for (const k of keys.tokens) if (ix.full.has(k) || ix.pre.has(k.slice(0, 4))) return true;
  const c = keys.compact;
  if (!c) return false;
  // findName joins at most three tokens, so a compact form it finds starts like some run of three.
  return c.length >= 4 ? ix.run4.has(c.slice(0, 4)) : true;
}

/** Entries of a TokenIndex by set: `mayName` answers true only when the index holds one of them. */
export interface NameTriggers {
  pre: string[];
  full: string[];
  run4: string[];
}

/**
 * The entries of a TokenIndex one of which `mayName` needs to answer true; "any" when it may answer true for any text
 * (a compact form shorter than four letters). A decided thing is tried only on lines holding one of them
 * (thingIndex.ts), so this must follow `mayName` (guardNameIndex.test.ts and hardeningRound16Matching.test.ts check it).
 */
export function nameTriggers(keys: NameKeys): NameTriggers | "any" {
  if (keys.stems) return { pre: keys.stems.map((s) => s.slice(0, 4)), full: [], run4: [] };
  if (keys.exact) return { pre: [], full: keys.exact.slice(0, 1), run4: [] };
  // `ix.full.has(k)` implies `ix.pre.has(k.slice(0, 4))`: every token's prefixes of up to four letters are in `pre`.
  const pre = keys.tokens.map((k) => k.slice(0, 4));
  const c = keys.compact;
  if (!c) return { pre, full: [], run4: [] };
  return c.length >= 4 ? { pre, full: [], run4: [c.slice(0, 4)] } : "any";
}

/** Every token a set of names uses: what a decision's other side must not claim. */
export function tokenSet(names: string[]): Set<string> {
  return new Set(names.flatMap((n) => tokensOf(n)).filter((t) => !GENERIC.has(t)));
}
