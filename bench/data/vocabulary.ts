// The generator's tables: the vocabulary, sentence banks, commit-message templates and fixed files that
// bench/generate.ts draws from (seeded) to build the synthetic repositories. Data only; changing anything here
// changes the generated content, so bump GENERATOR_VERSION in generate.ts with it.

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary: technology areas, services, authors

export interface Area {
  id: string;
  noun: string;
  module: string;
  techs: string[];
}

export const AREAS: Area[] = [
  { id: "queue", noun: "event bus", module: "events", techs: ["RabbitMQ", "Kafka", "NATS", "Pulsar", "SQS"] },
  { id: "db", noun: "primary database", module: "repository", techs: ["MySQL", "PostgreSQL", "MongoDB", "CockroachDB", "DynamoDB"] },
  { id: "cache", noun: "read cache", module: "cache", techs: ["Memcached", "Redis", "Hazelcast", "Varnish"] },
  { id: "logging", noun: "structured logging", module: "logger", techs: ["winston", "pino", "bunyan", "log4js"] },
  { id: "state", noun: "client state", module: "store", techs: ["Redux", "Zustand", "MobX", "Jotai", "Recoil"] },
  { id: "api", noun: "public API", module: "routes", techs: ["REST", "GraphQL", "gRPC", "tRPC"] },
  { id: "test", noun: "unit tests", module: "spec", techs: ["Jest", "Vitest", "Mocha", "AVA"] },
  { id: "bundler", noun: "frontend build", module: "build", techs: ["webpack", "esbuild", "Vite", "Rollup", "Parcel"] },
  { id: "orm", noun: "data access layer", module: "models", techs: ["Sequelize", "TypeORM", "Prisma", "Drizzle", "Knex"] },
  { id: "search", noun: "full-text search", module: "search", techs: ["Elasticsearch", "OpenSearch", "Meilisearch", "Typesense", "Solr"] },
  { id: "flags", noun: "feature flags", module: "flags", techs: ["LaunchDarkly", "Unleash", "Flagsmith", "GrowthBook"] },
  { id: "tracing", noun: "distributed tracing", module: "tracing", techs: ["Zipkin", "Jaeger", "OpenTelemetry", "Honeycomb"] },
  { id: "metrics", noun: "service metrics", module: "metrics", techs: ["StatsD", "Prometheus", "Datadog", "InfluxDB"] },
  { id: "ci", noun: "CI pipeline", module: "ci", techs: ["Jenkins", "CircleCI", "Buildkite", "Drone", "TeamCity"] },
  { id: "orchestration", noun: "container orchestration", module: "deploy", techs: ["Nomad", "Kubernetes", "ECS", "Swarm"] },
  { id: "validation", noun: "input validation", module: "validate", techs: ["Joi", "Yup", "Zod", "Ajv", "Valibot"] },
  { id: "http", noun: "HTTP client", module: "client", techs: ["axios", "needle", "undici", "superagent", "ky"] },
  { id: "dates", noun: "date handling", module: "dates", techs: ["Moment", "Luxon", "dayjs", "date-fns"] },
  { id: "secrets", noun: "secrets management", module: "secrets", techs: ["Vault", "Doppler", "SOPS", "Infisical"] },
  { id: "auth", noun: "login flow", module: "auth", techs: ["Keycloak", "Auth0", "Ory", "Cognito"] },
  { id: "jobs", noun: "background jobs", module: "jobs", techs: ["Bull", "Agenda", "Temporal", "BullMQ", "Bree"] },
  { id: "i18n", noun: "translations", module: "i18n", techs: ["i18next", "FormatJS", "Lingui", "Polyglot"] },
  { id: "email", noun: "transactional email", module: "mailer", techs: ["SendGrid", "Mailgun", "Postmark", "SES"] },
];

export const COMPONENTS = (
  "orders payments billing inventory shipping catalog checkout notifications accounts identity pricing promotions " +
  "reviews recommendations analytics reporting gateway storefront admin warehouse returns subscriptions invoicing " +
  "ledger fraud media loyalty support onboarding scheduling delivery fulfilment procurement tax compliance audit " +
  "partners marketplace auctions bookings rentals payroll vendors quotes contracts refunds wallet coupons carts " +
  "wishlist ratings sellers logistics routing dispatch fleet drivers customers leads campaigns newsletters surveys " +
  "feedback tickets chat calendar documents uploads exports imports settlement treasury forecasting insurance claims"
).split(" ");

export const AUTHORS = [
  "Ada Byrne", "Bo Lindqvist", "Chen Wei", "Dara Okafor", "Elif Yilmaz", "Femi Adeyemi", "Greta Novak", "Hiro Tanaka",
  "Ines Duarte", "Jonas Weber", "Kavya Rao", "Liam Walsh", "Mira Petrova", "Nils Berg", "Omar Haddad", "Priya Nair",
  "Quinn Murphy", "Rosa Jimenez", "Sami Korhonen", "Tara Singh", "Uma Costa", "Vik Sharma", "Wen Li", "Yara Aziz",
];

// ---------------------------------------------------------------------------------------------------------------
// ADR content: why a decision was made, what was wrong with the old choice, MADR drivers and pros/cons

export const REASONS = [
  "it has the lowest operational overhead of the options we tried",
  "it performed best in our load test at three times peak traffic",
  "the team already runs it elsewhere and knows its failure modes",
  "it integrates with our deployment and monitoring tooling out of the box",
  "it has first-class TypeScript support and a stable API",
  "the managed offering removes a whole class of on-call pages",
];
export const PROBLEMS = [
  "has become the bottleneck at peak load",
  "costs the team several on-call pages a month",
  "is no longer actively maintained upstream",
  "lacks features we now depend on",
  "makes local development slow and fragile",
];
export const DRIVERS = ["Operational overhead", "Throughput under peak load", "Team familiarity", "Cost at our scale", "Ecosystem and tooling", "Tail latency"];
export const GOOD = ["it is well documented", "it scales horizontally", "it is cheap to operate", "it has a large community", "it is fast in our benchmarks", "it needs little configuration"];
export const BAD = ["it adds another moving part", "it has a learning curve", "its managed offering is expensive", "upgrades have been painful elsewhere", "its client libraries are uneven", "it is harder to debug locally"];
export const TEAMS = ["platform team", "web team", "data team", "payments guild", "core services team", "SRE"];

// ---------------------------------------------------------------------------------------------------------------
// Other docs: sentence banks ({c} service, {n} noun, {t} technology, {T} capitalised, {o} older one, {k} number)

export const RUNBOOK = [
  "If the {c} {n} stops responding, check the {t} dashboards first.",
  "Restart the {c} workers one at a time; the {t} client reconnects on its own.",
  "Alerts for {c} fire when {t} latency stays above 300 ms for ten minutes.",
  "Legacy {o} settings are still present in older {c} deployments; ignore them.",
  "Escalate to the platform team when the {c} error rate stays above 1%.",
  "Roll back the last {c} deploy before touching the {t} configuration.",
  "The {c} on-call owns the {n}; page them through the usual rotation.",
  "Capture a heap snapshot before restarting {c} if memory keeps growing.",
  "Most {n} incidents on {c} clear after the connection pool is recycled.",
];
export const GUIDE = [
  "This guide explains how the {c} service uses {t} for its {n}.",
  "Local development runs {t} in a container; run make dev in the {c} folder.",
  "Configuration for the {n} lives next to the {c} code and is reviewed like code.",
  "When you add a new endpoint to {c}, update the contract tests as well.",
  "{T} is configured with conservative timeouts in {c}.",
  "Some teams still compare {t} with {o}; the trade-offs are written down in the decision records.",
  "Keep pull requests small; reviewers on {c} aim to respond within a day.",
  "The {c} {n} is covered by the nightly integration suite.",
];
export const POSTMORTEM = [
  "The {c} service degraded for {k} minutes during the evening peak.",
  "The root cause was a misconfigured {t} client in {c}.",
  "Action item: add an alert on {t} saturation for {c}.",
  "Customers saw stale data because the {n} lagged behind the writes.",
  "We did not roll back soon enough; the {c} deploy checklist now says when to.",
  "A retry storm from {c} amplified the {t} outage.",
];
export const NOTE = [
  "Notes from the {c} sync: the {n} backlog is mostly cleanup.",
  "Open question from last week: do we still need the {o} fallback in {c}?",
  "Benchmarks of {t} on the {c} staging cluster are in the shared drive.",
  "Reminder: the {c} freeze starts before the holiday season.",
  "We agreed to keep the {c} {n} boring and well understood.",
];
export const FILLER = [
  "Check the dashboard before and after every deploy.",
  "Document anything surprising in the team channel.",
  "Ask in the support channel if something here is out of date.",
  "Prefer small, reversible changes.",
  "Write down what you tried, even when it did not work.",
  "Links to dashboards are in the team wiki.",
];
export const HEADINGS: Record<"runbook" | "guide" | "postmortem" | "note" | "readme", string[]> = {
  runbook: ["Symptoms", "Diagnosis", "Mitigation", "Escalation"],
  guide: ["Overview", "Local setup", "Configuration", "Testing"],
  postmortem: ["Summary", "Timeline", "Root cause", "Action items"],
  note: ["Notes", "Follow-ups"],
  readme: ["About", "Running locally", "Ownership"],
};

// ---------------------------------------------------------------------------------------------------------------
// Commit messages ({c} service, {t} technology, {n} noun, {m} module, {p} package)

export const NOISE = [
  "Fix lint errors",
  "Update CI configuration",
  "Tidy up imports",
  "Improve error messages",
  "Bump dev dependencies",
  "Fix typo in comment",
  "Remove dead code",
  "Add missing test",
  "Speed up test suite",
];
export const CODE_MSG = [
  "{c}: bump {p} client",
  "Fix flaky {t} test in {c}",
  "{c}: handle {t} timeouts",
  "Refactor {c} {m}",
  "Tune {t} settings for {c}",
  "Add metrics to {c} {m}",
  "{c}: retry {t} calls with backoff",
  "{c}: clean up {n} code",
  "Fix {c} {m} edge case",
];

// ---------------------------------------------------------------------------------------------------------------
// Files every repository starts with

export const AGENTS_MD = `# Agent instructions

These rules apply to every change in this repository.

## Decisions

- Before proposing a new library or service, read the decision records in doc/adr, docs/decisions and docs/adr.
- A superseded decision record is history, not guidance: follow the record that superseded it.
- Record every new architectural decision as a decision record in the same change.

## Code

- Keep each service's code under src/<service>/ and its docs under services/<service>/.
- Run the unit tests of every service you touch before pushing.
`;

export const CONTRIBUTING_MD = `# Contributing

## Pull requests

- Keep pull requests small and focused on one service.
- Describe how you tested the change.

## Reviews

- Every change needs one approving review from the owning team.
`;
