// Dependencies whose versions a project keeps in one place: a Gradle version catalog (`libs.versions.toml`), a Cargo
// workspace (`[workspace.dependencies]`, `dep = { workspace = true }`), NuGet central package management
// (`Directory.Packages.props`). A record or rule that chose that place is bypassed by a module's build file that
// pins a dependency's version itself, whatever the library: `implementation("g:a:1.0")`, `serde = "1"`,
// `<PackageReference Include="X" Version="1.0" />`. Line patterns only, each anchored and bounded.
import { posix } from "node:path";

export type VersionScheme = "gradle-catalog" | "cargo-workspace" | "nuget-central";

const SCHEMES: { scheme: VersionScheme; said: RegExp }[] = [
  { scheme: "gradle-catalog", said: /\b(?:gradle\s+)?version\s+catalogs?\b|libs\.versions\.toml/i },
  { scheme: "cargo-workspace", said: /\[workspace\.dependencies\]|\{\s*workspace\s*=\s*true\s*\}|\bworkspace\s+dependenc(?:y|ies)\b/i },
  { scheme: "nuget-central", said: /Directory\.Packages\.props|ManagePackageVersionsCentrally|\bcentral(?:ly)?\s+(?:managed\s+)?package\s+(?:version\s+)?management\b/i },
];

/** A prescriptive cue: the text asks for the central place rather than describing it. */
const PRESCRIBES = /\b(?:use|using|utiliz\w+|utilis\w+|prefer|reference|must|should|always|centrally|centraliz\w+|centralis\w+|manage[sd]?|declare[sd]?|keep)\b/i;

/** The version schemes a decision's text chooses, in a stable order. */
export function schemesChosenIn(text: string): VersionScheme[] {
  const head = text.slice(0, 100_000);
  return SCHEMES.filter((s) => s.said.test(head) && PRESCRIBES.test(head)).map((s) => s.scheme);
}

/** The scheme a manifest line bypasses by pinning a version itself, or undefined. */
export function pinnedVersionBypasses(path: string, text: string): VersionScheme | undefined {
  const base = posix.basename(path).toLowerCase();
  const line = text.slice(0, 500);
  if (base === "build.gradle" || base === "build.gradle.kts") {
    // A coordinate with its version ("group:artifact:1.2.3"); a catalog accessor (libs.x) or a project is not one.
    if (/^\s*(?:implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|androidTestImplementation|debugImplementation|kapt|ksp)\s*\(\s*["'][\w.-]+:[\w.-]+:[\w.+-]+["']\s*\)/.test(line)) return "gradle-catalog";
    return undefined;
  }
  // A member crate's manifest: the workspace root's own Cargo.toml declares the versions.
  if (base === "cargo.toml" && path.includes("/")) {
    if (/^\s*[A-Za-z0-9][\w-]*\s*=\s*"[^"]*\d[^"]*"\s*$/.test(line) || (/^\s*[A-Za-z0-9][\w-]*\s*=\s*\{[^}]*\bversion\s*=/.test(line) && !/\bworkspace\s*=\s*true\b/.test(line))) return "cargo-workspace";
    return undefined;
  }
  if (/\.(csproj|fsproj|vbproj)$/.test(base)) {
    if (/<PackageReference\s+Include\s*=\s*"[\w.-]+"\s+Version\s*=\s*"[^"]+"/i.test(line)) return "nuget-central";
  }
  return undefined;
}
