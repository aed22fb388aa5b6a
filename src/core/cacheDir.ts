// The user's cache folder for everything this tool may rebuild at will (history indexes, the CLI's compiled code):
// $XDG_CACHE_HOME/deliberative-search, else %LOCALAPPDATA% on Windows, else ~/.cache. Never inside a repository.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : process.platform === "win32" && env.LOCALAPPDATA ? env.LOCALAPPDATA : join(homedir(), ".cache");
  return join(base, "deliberative-search");
}
