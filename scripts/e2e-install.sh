#!/bin/sh
# Installs what the offline end-to-end test needs (idempotent, cached outside the repo):
#   - Debian packages: chromium (browser driven by playwright-core), ripgrep (pre-seeds @vscode/ripgrep),
#     libkrb5-dev + build tools (native modules of code-server)
#   - code-server 4.100.3 (VS Code 1.100.3; the last line that runs on Node 20) into $E2E_CACHE/code-server
# Works with only the npm registry and Debian apt reachable. Never runs `npx playwright install`.
# usage: scripts/e2e-install.sh            (E2E_CACHE defaults to $HOME/.cache/deliberative-search-e2e)
set -eu
CACHE=${E2E_CACHE:-${HOME:-/tmp}/.cache/deliberative-search-e2e}
DEST="$CACHE/code-server"
CS_VERSION=4.100.3

need_apt=""
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need_apt="$need_apt chromium"
command -v rg >/dev/null 2>&1 || need_apt="$need_apt ripgrep"
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt="$need_apt libkrb5-dev"
command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || need_apt="$need_apt build-essential"
if [ -n "$need_apt" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "e2e-install: apt-get install -y$need_apt"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need_apt
  else
    echo "e2e-install: missing system packages:$need_apt (install them, e.g. sudo apt-get install$need_apt)" >&2
    exit 1
  fi
fi

if [ -f "$DEST/node_modules/code-server/out/node/entry.js" ] &&
   grep -q "\"version\": \"$CS_VERSION\"" "$DEST/node_modules/code-server/package.json"; then
  echo "e2e-install: code-server $CS_VERSION already in $DEST"
  exit 0
fi

mkdir -p "$DEST/tmp"
cd "$DEST"
[ -f package.json ] || echo '{"name":"cs-host","version":"1.0.0","private":true}' > package.json
# @vscode/ripgrep@1.15.11's postinstall downloads rg from api.github.com (unreachable): pre-seed its download
# cache ($TMPDIR/vscode-ripgrep-cache-<pkgver>/ripgrep-<rgver>-<target>.tar.gz) with Debian's rg.
C="$DEST/tmp/vscode-ripgrep-cache-1.15.11"
mkdir -p "$C/stage"
cp "$(command -v rg)" "$C/stage/rg"
tar czf "$C/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$C/stage" rg
rm -rf "$C/stage"
S=$(date +%s)
# unsafe_perm: code-server's postinstall refuses root otherwise; yes: node-pty's postinstall calls `npx node-gyp`;
# nodedir: native builds use Debian's Node headers instead of downloading them.
TMPDIR="$DEST/tmp" \
npm_config_unsafe_perm=true \
npm_config_yes=true \
npm_config_nodedir=/usr \
  npm install --no-audit --no-fund "code-server@$CS_VERSION"
echo "e2e-install: code-server $CS_VERSION installed in $DEST in $(( $(date +%s) - S ))s"
