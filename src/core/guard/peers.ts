// A rule that names what to use for a purpose ("**JSON**: ZIO JSON for serialization", "Use JSpecify annotations",
// "Use dependency injection (manual DI or Dagger)") names a closed set: for that purpose, the named libraries and no
// others. Which others? The well-known libraries that serve the same purpose, listed here by purpose. A rule turns
// them down only when it names a member as the one to use, says what for (the purpose's words), and is phrased as a
// choice ("use", "only", "prefer", a "Label: value" line); the members it names stay allowed. Rules only: a record's
// chosen option is not read as excluding every peer. Linear: fixed keys matched against the rule's tokens.
import type { LineRange } from "../schemas";
import type { DecidedThing, GuardDecision } from "./decisions";
import { findName, isVendor, tokensOf, type NameKeys } from "./names";
import { overAChannel } from "../channels";

interface Member {
  name: string;
  keys: NameKeys[];
}

interface Purpose {
  /** What the rule must say it is for. */
  about: RegExp;
  members: Member[];
}

const tok = (...tokens: string[]): NameKeys => ({ display: tokens[0], tokens });
const exact = (...parts: string[]): NameKeys => ({ display: parts.join("."), exact: parts, tokens: [] });
const m = (name: string, ...keys: NameKeys[]): Member => ({ name, keys });

const PURPOSES: Purpose[] = [
  {
    about: /\bjson\b|\bseriali[sz]\w*/i,
    members: [
      m("ZIO JSON", exact("zio", "json")), m("circe", tok("circe")), m("Play JSON", exact("play", "json")), m("spray-json", exact("spray", "json")),
      m("json4s", tok("json4s")), m("uPickle", tok("upickle")), m("Jackson", tok("jackson")), m("Gson", tok("gson")), m("Moshi", tok("moshi")),
      m("jsoniter", tok("jsoniter")),
    ],
  },
  {
    about: /\btest(?:s|ing)?\b|\bspecs?\b/i,
    members: [
      m("ZIO Test", exact("zio", "test")), m("ScalaTest", tok("scalatest")), m("specs2", tok("specs2")), m("MUnit", tok("munit")), m("uTest", tok("utest")),
      m("JUnit", tok("junit")), m("TestNG", tok("testng")), m("Spock", tok("spock")), m("Jest", tok("jest")), m("Mocha", tok("mocha")),
      m("Vitest", tok("vitest")), m("Jasmine", tok("jasmine")), m("pytest", tok("pytest")), m("nose", tok("nose2")),
    ],
  },
  {
    about: /\bdependency injection\b|\binject(?:ion|or|ed)?\b|\bDI\b/,
    members: [
      m("Dagger", tok("dagger")), m("Guice", tok("guice"), exact("com", "google", "inject")), m("Spring", tok("springframework")), m("Koin", tok("koin")),
      m("HK2", exact("glassfish", "hk2")), m("MacWire", tok("macwire")), m("Kodein", tok("kodein")), m("PicoContainer", tok("picocontainer")),
      m("Toothpick", tok("toothpick")), m("ZIO layers", exact("zio", "zlayer"), tok("zlayer")),
    ],
  },
  {
    about: /\bnull(?:able|ness|ability)?\b|@Nullable|@NonNull/i,
    members: [
      m("JSpecify", tok("jspecify")), m("JetBrains annotations", exact("org", "jetbrains", "annotations")), m("JSR-305", exact("javax", "annotation", "nullable"), exact("javax", "annotation", "nonnull")),
      m("Checker Framework", exact("org", "checkerframework")), m("AndroidX annotations", exact("androidx", "annotation")), m("Lombok NonNull", exact("lombok", "nonnull")),
    ],
  },
  {
    about: /\b(?:ui|gui|user interface)\b/i,
    members: [m("JavaFX", tok("javafx")), m("Swing", exact("javax", "swing")), m("SWT", exact("org", "eclipse", "swt"))],
  },
  {
    about: /\blog(?:s|ging|ger)?\b/i,
    members: [
      m("SLF4J", tok("slf4j")), m("Log4j", tok("log4j")), m("Logback", tok("logback")), m("tinylog", tok("tinylog")), m("Commons Logging", exact("org", "apache", "commons", "logging")),
      m("java.util.logging", exact("java", "util", "logging")), m("winston", tok("winston")), m("pino", tok("pino")), m("bunyan", tok("bunyan")), m("log4js", tok("log4js")),
      m("loguru", tok("loguru")), m("structlog", tok("structlog")), m("Timber", exact("timber", "log")), m("kotlin-logging", exact("kotlin", "logging")), m("Napier", tok("napier")),
      m("Serilog", tok("serilog")), m("NLog", tok("nlog")), m("log4net", tok("log4net")), m("zap", exact("uber", "org", "zap")), m("logrus", tok("logrus")), m("zerolog", tok("zerolog")),
    ],
  },
  {
    about: /\bstyl(?:e|es|ing)\b|\bcss\b/i,
    members: [
      m("Emotion", exact("emotion", "react"), exact("emotion", "styled"), exact("emotion", "css")), m("styled-components", exact("styled", "components")),
      m("Styletron", tok("styletron")), m("JSS", exact("react", "jss")), m("Linaria", tok("linaria")), m("Stitches", exact("stitches", "react")),
      m("vanilla-extract", exact("vanilla", "extract")), m("Tailwind CSS", tok("tailwindcss")), m("Sass", tok("sass"), tok("scss")), m("Bootstrap", tok("bootstrap")),
    ],
  },
  {
    about: /\bdata[- ]fetching\b|\bfetch(?:es|ing)? (?:the |its )?data\b|\bserver[- ]state\b/i,
    members: [
      m("SWR", tok("swr")), m("TanStack Query", exact("tanstack", "react", "query"), exact("tanstack", "vue", "query"), exact("react", "query")), m("Apollo Client", exact("apollo", "client")),
      m("urql", tok("urql")), m("RTK Query", exact("reduxjs", "toolkit", "query")), m("Relay", exact("react", "relay")),
    ],
  },
  {
    about: /\bi18n\b|\binternationali[sz]ation\b|\blocali[sz]ation\b|\btranslat(?:e|es|ed|ing|ions?)\b/i,
    members: [
      m("Fluent", exact("fluent", "react"), exact("fluent", "bundle"), exact("fluent", "dom")), m("i18next", tok("i18next")), m("react-intl", exact("react", "intl"), tok("formatjs")),
      m("Lingui", exact("lingui", "core"), exact("lingui", "react")), m("vue-i18n", exact("vue", "i18n")),
    ],
  },
  {
    about: /\bdates?\b|\bdatetimes?\b|\btime ?zones?\b/i,
    members: [m("Moment", tok("moment")), m("date-fns", exact("date", "fns")), m("Day.js", tok("dayjs")), m("Luxon", tok("luxon")), m("js-joda", exact("js", "joda"))],
  },
  {
    about: /\bstate management\b|\b(?:global|app|application|client|shared)[- ]state\b/i,
    members: [
      m("Redux", tok("redux"), exact("reduxjs", "toolkit")), m("MobX", tok("mobx")), m("Zustand", tok("zustand")), m("Recoil", tok("recoil")), m("Jotai", tok("jotai")),
      m("Vuex", tok("vuex")), m("Pinia", tok("pinia")), m("XState", tok("xstate")), m("NgRx", tok("ngrx")),
    ],
  },
  {
    about: /\be2e\b|\bend[- ]to[- ]end\b|\bbrowser (?:tests?|testing|automation)\b/i,
    members: [
      m("Cypress", tok("cypress")), m("Playwright", tok("playwright")), m("Puppeteer", tok("puppeteer")), m("Selenium", tok("selenium")), m("WebdriverIO", tok("webdriverio"), tok("wdio")),
      m("TestCafe", tok("testcafe")), m("Nightwatch", tok("nightwatch")),
    ],
  },
  {
    about: /\bmock(?:s|ing|ed)?\b|\btest doubles?\b/i,
    members: [
      m("Mockito", tok("mockito")), m("MockK", tok("mockk")), m("EasyMock", tok("easymock")), m("JMockit", tok("jmockit")), m("PowerMock", tok("powermock")), m("Sinon", tok("sinon")),
      m("Moq", tok("moq")), m("NSubstitute", tok("nsubstitute")), m("FakeItEasy", tok("fakeiteasy")),
    ],
  },
  {
    about: /\borm\b|\bdatabase access\b|\bdata access\b|\bquery builder\b/i,
    members: [
      m("SQLAlchemy", tok("sqlalchemy")), m("Prisma", tok("prisma")), m("TypeORM", tok("typeorm")), m("Sequelize", tok("sequelize")), m("Knex", tok("knex")),
      m("Drizzle", exact("drizzle", "orm")), m("MikroORM", exact("mikro", "orm")), m("Hibernate", tok("hibernate")), m("jOOQ", tok("jooq")), m("MyBatis", tok("mybatis")),
      m("Exposed", exact("jetbrains", "exposed")), m("GORM", exact("gorm", "io")), m("Entity Framework", tok("entityframeworkcore")), m("Dapper", tok("dapper")),
    ],
  },
  {
    about: /\bmessag(?:e|es|ing)\b|\bqueues?\b|\bevent bus\b|\bbrokers?\b|\bpub ?\/? ?sub\b/i,
    members: [
      m("RabbitMQ", tok("rabbitmq"), tok("amqplib")), m("Kafka", tok("kafka"), tok("kafkajs")), m("Azure Service Bus", tok("servicebus")), m("NATS", tok("nats")),
      m("ActiveMQ", tok("activemq")), m("Pulsar", tok("pulsar")), m("Google Pub/Sub", exact("google", "cloud", "pubsub")),
    ],
  },
  {
    about: /\berrors?\b|\berror handling\b/i,
    members: [m("thiserror", tok("thiserror")), m("anyhow", tok("anyhow")), m("eyre", tok("eyre"), exact("color", "eyre")), m("snafu", tok("snafu")), m("failure", exact("failure", "derive"))],
  },
  {
    about: /\bbackground (?:tasks?|jobs?|work(?:ers?)?|processing)\b|\b(?:job|task|work) queues?\b|\bjob (?:processing|scheduling|runners?)\b|\basync(?:hronous)? (?:jobs?|tasks?)\b/i,
    members: [
      m("Bull", tok("bull"), tok("bullmq")), m("Agenda", tok("agenda")), m("Bee-Queue", exact("bee", "queue")), m("Kue", tok("kue")), m("pg-boss", exact("pg", "boss")),
      m("Graphile Worker", exact("graphile", "worker")), m("Sidekiq", tok("sidekiq")), m("Resque", tok("resque")), m("Delayed Job", exact("delayed", "job")),
      m("GoodJob", exact("good", "job")), m("Celery", tok("celery")), m("RQ", tok("rq")), m("Dramatiq", tok("dramatiq")), m("Huey", tok("huey")),
      m("Hangfire", tok("hangfire")), m("Asynq", tok("asynq")), m("Faktory", tok("faktory")),
    ],
  },
  {
    about: /\bgit\b/i,
    members: [
      m("dugite", tok("dugite")), m("simple-git", exact("simple", "git")), m("NodeGit", tok("nodegit")), m("isomorphic-git", exact("isomorphic", "git")),
      m("GitPython", tok("gitpython")), m("pygit2", tok("pygit2")), m("Dulwich", tok("dulwich")), m("go-git", exact("go", "git")), m("JGit", tok("jgit")),
      m("libgit2", tok("libgit2"), tok("git2")), m("gitoxide", tok("gix")),
    ],
  },
  {
    about: /\bdatabases?\b|\bdata ?stores?\b|\bpersistence\b/i,
    members: [
      m("MongoDB", tok("mongodb"), tok("mongoose"), tok("pymongo"), tok("mongoid")),
      m("PostgreSQL", tok("postgresql"), tok("postgres"), tok("pg"), tok("psycopg"), tok("psycopg2"), tok("asyncpg"), tok("npgsql"), tok("pgx")),
      m("MySQL", tok("mysql"), tok("mysql2"), tok("pymysql"), tok("mysqlclient"), tok("mariadb")), m("SQLite", tok("sqlite"), tok("sqlite3")),
      m("SQL Server", tok("mssql"), tok("tedious")), m("Cassandra", tok("cassandra")), m("DynamoDB", tok("dynamodb")), m("CouchDB", tok("couchdb")),
      m("Oracle Database", tok("oracledb")),
    ],
  },
  {
    about: /\bauth(?:entication|n)?\b|\bidentity (?:providers?|management|services?)\b|\blog ?ins?\b|\bsign[- ]?ins?\b/i,
    members: [
      m("Auth0", tok("auth0")), m("Amazon Cognito", tok("cognito"), tok("cognitoidp")), m("Okta", tok("okta")), m("Keycloak", tok("keycloak")),
      m("Stormpath", tok("stormpath")), m("Firebase Authentication", exact("firebase", "auth")), m("MSAL", tok("msal")), m("FusionAuth", tok("fusionauth")),
      m("Ory Kratos", tok("kratos")),
    ],
  },
  {
    about: /\bcach(?:e|es|ing)\b/i,
    members: [
      m("PSR-6", exact("psr", "cache"), exact("psr", "6")), m("PSR-16", exact("psr", "simple", "cache"), exact("psr", "16")), m("Symfony Cache", exact("symfony", "cache")),
      m("Caffeine", exact("benmanes", "caffeine")), m("Ehcache", tok("ehcache")), m("node-cache", exact("node", "cache")), m("lru-cache", exact("lru", "cache")),
      m("cachetools", tok("cachetools")),
    ],
  },
  {
    // Server pushes and subscriptions: a record that chose SSE turns down the WebSocket transports, and so on.
    about: /\bsubscriptions?\b|\breal[- ]?time\b|\bpush(?:es|ing)? (?:updates|events|notifications)\b|\bwebsockets?\b|\bserver[- ]sent events\b|\bSSE\b/i,
    members: [
      m("Server-sent events", tok("sse"), exact("server", "sent", "events"), tok("eventsource")), m("graphql-ws", exact("graphql", "ws")),
      m("subscriptions-transport-ws", exact("subscriptions", "transport", "ws")), m("Socket.IO", exact("socket", "io")), m("SockJS", tok("sockjs")),
      m("Pusher", tok("pusher")), m("Ably", tok("ably")), m("SignalR", tok("signalr")), m("Action Cable", tok("actioncable")),
    ],
  },
  {
    about: /\bhttp client\b|\bhttp requests?\b|\bhttp calls?\b|\bapi calls?\b|\brest client\b/i,
    members: [
      m("axios", tok("axios")), m("got", exact("got")), m("node-fetch", exact("node", "fetch")), m("superagent", tok("superagent")), m("ky", exact("ky")),
      m("Requests", exact("requests")), m("HTTPX", tok("httpx")), m("aiohttp", tok("aiohttp")), m("OkHttp", tok("okhttp")), m("Retrofit", tok("retrofit")),
      m("Apache HttpClient", exact("apache", "httpcomponents")), m("Faraday", tok("faraday")), m("HTTParty", tok("httparty")), m("Guzzle", tok("guzzle")),
    ],
  },
  {
    // Frameworks a Python web API is built with: a record that builds its API with one turns the others down.
    about: /\b(?:rest(?:ful)?\s+)?apis?\b/i,
    members: [
      m("Django REST framework", tok("djangorestframework"), exact("rest", "framework")), m("Django Ninja", exact("django", "ninja"), tok("ninja")),
      m("FastAPI", tok("fastapi")), m("Flask-RESTful", exact("flask", "restful")), m("Flask-RESTX", exact("flask", "restx")), m("Falcon", tok("falcon")),
      m("Connexion", tok("connexion")),
    ],
  },
  {
    about: /\bsearch(?:es|ing)?\b|\bfull[- ]text\b/i,
    members: [
      m("Lunr", tok("lunr")), m("Fuse.js", exact("fuse", "js")), m("FlexSearch", tok("flexsearch")), m("MiniSearch", tok("minisearch")), m("Algolia", tok("algoliasearch")),
      m("Elasticsearch", tok("elasticsearch")), m("OpenSearch", tok("opensearch")), m("Meilisearch", tok("meilisearch")), m("Typesense", tok("typesense")), m("Solr", tok("solr")),
    ],
  },
  {
    about: /\bvalidat(?:e|es|ing|ion|ors?)\b|\bschemas? validation\b/i,
    members: [
      m("Zod", exact("zod")), m("Yup", exact("yup")), m("Joi", exact("joi"), exact("hapi", "joi")), m("Ajv", tok("ajv")), m("class-validator", exact("class", "validator")),
      m("Valibot", tok("valibot")), m("io-ts", exact("io", "ts")), m("Pydantic", tok("pydantic")), m("marshmallow", tok("marshmallow")), m("Cerberus", tok("cerberus")),
    ],
  },
  {
    about: /\btemplat(?:e|es|ing)\b/i,
    members: [
      m("Handlebars", tok("handlebars")), m("EJS", exact("ejs")), m("Pug", exact("pug")), m("Nunjucks", tok("nunjucks")), m("Mustache", tok("mustache")), m("Liquid", tok("liquidjs")),
      m("Jinja", tok("jinja2")), m("Mako", exact("mako")), m("Thymeleaf", tok("thymeleaf")), m("FreeMarker", tok("freemarker")), m("Velocity", exact("apache", "velocity")),
    ],
  },
  {
    about: /\bbundl(?:e|es|er|ers|ing)\b|\bbuild tool(?:s|ing)?\b/i,
    members: [
      m("webpack", tok("webpack")), m("Rollup", tok("rollup")), m("Parcel", tok("parcel")), m("esbuild", tok("esbuild")), m("Vite", tok("vite")), m("Browserify", tok("browserify")),
      m("Turbopack", tok("turbopack")), m("Rspack", tok("rspack")), m("Create React App", exact("react", "scripts")),
    ],
  },
  {
    // Charts and custom data visualisations (not Helm charts: the purpose is said as visualisation or charting).
    about: /\bvisuali[sz]ations?\b|\bcharting\b|\b(?:chart|charts|plotting|graphing) librar(?:y|ies)\b|\bdata ?vi[sz]\b/i,
    members: [
      m("D3", tok("d3")), m("Recharts", tok("recharts")), m("Chart.js", exact("chart", "js"), tok("chartjs")), m("Highcharts", tok("highcharts")), m("ECharts", tok("echarts")),
      m("Plotly", tok("plotly")), m("Nivo", tok("nivo")), m("Victory", exact("victory")), m("visx", tok("visx")), m("Vega", exact("vega"), exact("vega", "lite")),
      m("ApexCharts", tok("apexcharts")), m("Bokeh", tok("bokeh")), m("Matplotlib", tok("matplotlib")),
    ],
  },
  {
    // A workshop to build UI components in isolation and show a design system.
    about: /\bcomponents? (?:development|explorer|workshop|sandbox|playground|catalog(?:ue)?)\b|\bdesign systems?\b|\bpattern librar(?:y|ies)\b/i,
    members: [
      m("Storybook", tok("storybook")), m("Styleguidist", tok("styleguidist")), m("Docz", tok("docz")), m("Ladle", exact("ladle", "react")),
      m("Histoire", tok("histoire")), m("React Cosmos", exact("react", "cosmos")),
    ],
  },
  {
    // Python code formatters: a record that chose one for "code formatting" turns the others down.
    about: /\bcode[- ]format(?:ting|ters?)?\b|\bformatters?\b|\bauto-?formatt?(?:ing|er)\b/i,
    members: [m("Black", exact("black")), m("YAPF", tok("yapf")), m("autopep8", tok("autopep8"))],
  },
  {
    // Reading a website's pages as a user would (a kind a record can turn down whole: "relies on webscraping").
    about: /\bweb ?scrap(?:e|es|ing|ers?)\b|\bscrap(?:e|es|ing|ers?)\s+(?:web|websites?|pages?|html)\b/i,
    members: [
      m("Beautiful Soup", tok("beautifulsoup4"), tok("beautifulsoup"), tok("bs4")), m("Scrapy", tok("scrapy")), m("MechanicalSoup", tok("mechanicalsoup")),
      m("PhantomJS", tok("phantomjs")), m("requests-html", exact("requests", "html")),
    ],
  },
  {
    // Driving a board's pins and buses (GPIO, I2C, SPI) from the host.
    about: /\bgpio\b|\bi2c\b/i,
    members: [
      m("RPi.GPIO", exact("rpi", "gpio")), m("gpiozero", tok("gpiozero")), m("pigpio", tok("pigpio")), m("smbus2", tok("smbus2"), exact("smbus")),
      m("spidev", tok("spidev")), m("Adafruit Blinka", exact("adafruit", "blinka")),
    ],
  },
  {
    about: /\bhttp\b|\bserver\b|\broutes?\b/i,
    members: [
      m("ZIO HTTP", exact("zio", "http")), m("Akka HTTP", exact("akka", "http")), m("Pekko HTTP", exact("pekko", "http")), m("http4s", tok("http4s")),
      m("Finch", tok("finch")),
    ],
  },
];

/** Words that, just before a name, turn it down rather than choose it. */
const NEGATING = new Set(["not", "never", "avoid", "no", "instead", "rather", "don", "dont", "without", "over", "replace", "replacing", "drop", "remove"]);
/** How many tokens before a name a negating word still applies to it ("do not add the winston"). */
const NEGATION_REACH = 4;

/** Whether the rule names the thing at least once without a negating word just before it. */
function namedToUse(tokens: string[], keys: NameKeys): boolean {
  const width = Math.max(3, keys.exact?.length ?? 0);
  for (let i = 0; i < tokens.length; i++) {
    // An occurrence starts at i when the shortest window from i that finds it finds nothing without token i (a wider
    // window could reach the next occurrence: "dugite over … dugite").
    let w = 1;
    while (w < width && !findName(tokens.slice(i, i + w), keys)) w++;
    if (!findName(tokens.slice(i, i + w), keys) || findName(tokens.slice(i + 1, i + w), keys)) continue;
    // "Subscriptions over SSE": "over" before a transport names what it runs on, not a rival it was preferred to.
    const negated = tokens.slice(Math.max(0, i - NEGATION_REACH), i).some((t, k, before) => NEGATING.has(t) && !(t === "over" && k === before.length - 1 && overAChannel(tokens[i], tokens[i + 1])));
    if (!negated) return true;
  }
  return false;
}

/**
 * A dotted type path in a code span, not turned down, whose type says the purpose (`…logging.Logger`): a project's own
 * logger is a logger; a helper in a testing package (`…testing.Fixtures`) is no test framework.
 */
function ownTypeFor(text: string, about: RegExp): string | undefined {
  for (const m of text.matchAll(/`([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*){2,7})`/g)) {
    const before = tokensOf(text.slice(0, m.index ?? 0)).slice(-NEGATION_REACH);
    if (about.test(m[1].split(".").pop()!) && !before.some((t) => NEGATING.has(t))) return m[1];
  }
  return undefined;
}

/** A rule phrased as a choice: "use", "only", "prefer", or a "Label: value" line ("**JSON**: ZIO JSON …"). */
const CHOICE = /\b(?:use|uses|using|only|always|prefer|prefers|preferred)\b|^\s*(?:\*\*[^*]{1,40}\*\*|__[^_]{1,40}__|[A-Z][\w /-]{0,30}):\s/i;

/** The peers a positive rule turns down, each a forbidden thing of the rule (with why). */
export function peerExclusions(text: string, range: LineRange): DecidedThing[] {
  if (!CHOICE.test(text)) return [];
  return peersTurnedDown(text, range, (chosen) => `the rule names ${chosen} for this`);
}

/**
 * The peers an in-force record's choice turns down: its title and chosen option are the choice itself ("Use Redis and
 * Bull for background tasks", "Database Selection - MongoDB"), so no choice wording is needed; what it is for must
 * still be said there (`purpose`: the whole title and the chosen option). Names count only in `choice`: the title
 * without the part it turns down ("Prefer dugite over raw git commands" names dugite for git).
 */
export function recordPeerExclusions(choice: string, purpose: string, range: LineRange): DecidedThing[] {
  return peersTurnedDown(choice, range, (chosen) => `the record chose ${chosen} for this`, purpose);
}

/** The members of every purpose `about` says, when `text` names one to use: the others, turned down. */
function peersTurnedDown(text: string, range: LineRange, reasonFor: (chosen: string) => string, about = text): DecidedThing[] {
  const tokens = tokensOf(text, 600);
  const out: DecidedThing[] = [];
  for (const [index, purpose] of PURPOSES.entries()) {
    if (!purpose.about.test(about)) continue;
    // A member the rule turns down ("do not add winston", "instead of Jest") is not the one it names to use.
    const named = purpose.members.filter((mem) => mem.keys.some((k) => namedToUse(tokens, k)));
    // "Use `net.thunderbird.core.logging.Logger` via dependency injection": the project's own type for the purpose,
    // named in code, is the choice as much as a well-known library would be.
    const own = named.length ? undefined : ownTypeFor(text, purpose.about);
    if (!named.length && !own) continue;
    const chosen = own ?? named.map((n) => n.name).join(" or ");
    for (const other of purpose.members) {
      if (named.includes(other)) continue;
      // Only a dependency or an import brings a peer in: a code line or a string that says "spring" or "jest" does not.
      for (const keys of other.keys) out.push({ name: other.name, keys: { ...keys, display: other.name }, range, reason: reasonFor(chosen), importsOnly: true, peer: { purpose: index, named: own ? [own] : named.map((n) => n.name) } });
    }
  }
  return out;
}

/**
 * Drops the peers one rule turns down that another rule of the same repository names as the one to use: a backend
 * guide's "Testing: pytest" and a frontend guide's "Testing: Jest" say each part has its own, not that Jest is turned
 * down everywhere. What no rule names stays turned down.
 */
export function withoutPeersNamedElsewhere(rules: GuardDecision[]): void {
  const named = new Map<number, Set<string>>();
  for (const d of rules) for (const f of d.forbidden) if (f.peer) for (const n of f.peer.named) named.set(f.peer.purpose, (named.get(f.peer.purpose) ?? new Set()).add(n));
  for (const d of rules) d.forbidden = d.forbidden.filter((f) => !f.peer || !named.get(f.peer.purpose)?.has(f.name));
}

/**
 * "provisioned EC2 databases": an option whose last word, a plural, says what the thing served as is turned down for that use.
 * The words that show the use in a change: the purpose's own word and its well-known members' names (a line about EC2
 * in a file that installs `mysql-server` is a database on EC2; one about an nginx proxy is not). Undefined when the
 * last word is no purpose of the table, or the keys already hold it.
 */
export function purposeEvidenceOf(name: string, keyTokens: string[]): string[] | undefined {
  const words = name.replace(/[`*_"“”()]/g, " ").trim().split(/\s+/);
  const last = (words.at(-1) ?? "").toLowerCase();
  // A plural names what things served as ("EC2 databases"); a singular is part of a name ("Google code style").
  if (words.length < 2 || !/^[a-z]{3,}s$/.test(last) || keyTokens.includes(last)) return undefined;
  const purpose = PURPOSES.find((p) => p.about.test(last));
  if (!purpose) return undefined;
  const own = [last, last.replace(/s$/, ""), last.replace(/es$/, "")];
  return [...new Set([...own, ...purpose.members.flatMap((mem) => mem.keys.flatMap((k) => [...k.tokens, ...(k.exact ?? [])]))])];
}

/** Every well-known member of the kinds a phrase names ("no message queue"), turned down in imports and dependencies. */
export function membersOfKind(kind: string, range: LineRange, reason: string): DecidedThing[] {
  const out: DecidedThing[] = [];
  for (const [index, purpose] of PURPOSES.entries()) {
    if (!purpose.about.test(kind)) continue;
    for (const mem of purpose.members) for (const keys of mem.keys) out.push({ name: mem.name, keys: { ...keys, display: mem.name }, range, reason, importsOnly: true, peer: { purpose: index, named: [] } });
  }
  return out;
}

/**
 * The packages a turned-down thing is published as, when it is a well-known member of a purpose written its own way
 * ("Microsoft SQLServer" is SQL Server: `mssql`, `tedious`): the vendor's word and spacing aside, the name is the
 * member's. Each is turned down in dependencies, imports and container images, with the option's reason. A name that only contains a
 * member's ("SQL Server Reporting Services") is another thing.
 */
export function knownPackagesOf(thing: DecidedThing): DecidedThing[] {
  const words = thing.name.replace(/[`*_"“”]/g, " ").trim().split(/\s+/).filter((w) => w && !isVendor(w));
  const compact = words.join("").toLowerCase().replace(/[^a-z0-9]/g, "");
  if (compact.length < 4 || words.length > 3) return [];
  const out: DecidedThing[] = [];
  for (const purpose of PURPOSES) {
    for (const mem of purpose.members) {
      if (mem.name.toLowerCase().replace(/[^a-z0-9]/g, "") !== compact) continue;
      for (const keys of mem.keys) {
        if (keys.tokens.some((k) => thing.keys.tokens.includes(k))) continue;
        out.push({ name: thing.name, keys: { ...keys, display: mem.name }, range: thing.range, ...(thing.reason ? { reason: thing.reason } : {}), importsOnly: true, imagesToo: true });
      }
    }
  }
  return out;
}
