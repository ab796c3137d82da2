#!/usr/bin/env bash
# Performs the Dockerfile's steps without Docker, in a temporary directory, and checks the result:
#
#   deps     COPY package.json package-lock.json, npm ci --ignore-scripts, remove the `node` package
#   builder  COPY . .  (the files .dockerignore lets through), npm run build, build:web, npm prune
#   runtime  the runtime stage's COPYs, nothing else (the builder is deleted before the start)
#   run      `node bin/pipit.js start` with deploy/docker-config.yaml (its workdir, port and bind
#            address swapped for a temporary directory, port 0 and 127.0.0.1), as an unprivileged
#            user (nobody) when run as root, with an environment as empty as a container's
#   check    the Dockerfile's HEALTHCHECK command passes; SIGTERM ends Pipit with status 0; the
#            health check fails once Pipit is gone
#
# Usage: scripts/docker-steps.sh                 (KEEP=1 keeps the temporary directory)
#        scripts/docker-steps.sh --list-copies   (what the runtime stage copies, for the tests)
#
# Needs npm and the registry (or npm's cache), and a Node.js 24: `node` on PATH, else the one a
# checkout's `npm ci` installed (node_modules/node).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The runtime stage's `COPY --from=builder /src/<path> ./<path>` lines, and the file it copies
# from the build context as /etc/pipit/config.yaml. test/deploy/deploy.test.ts compares these
# with the Dockerfile.
RUNTIME_COPIES=(package.json node_modules bin dist web/dist)
CONFIG_SOURCE=deploy/docker-config.yaml

if [ "${1-}" = "--list-copies" ]; then
  printf 'builder %s\n' "${RUNTIME_COPIES[@]}"
  printf 'context %s /etc/pipit/config.yaml\n' "$CONFIG_SOURCE"
  exit 0
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--list-copies]" >&2
  exit 2
fi

started=$SECONDS
step() { printf '\n=== [%3ss] %s\n' "$((SECONDS - started))" "$*"; }
fail() {
  printf '\ndocker-steps: FAILED: %s\n' "$*" >&2
  exit 1
}

# --- Node.js 24 (the image's `node`) ----------------------------------------------------------
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
NODE=$(command -v node || true)
if [ -z "$NODE" ] || [ "$(node_major "$NODE")" -lt 24 ]; then
  NODE="$REPO/node_modules/node/bin/node"
  [ -x "$NODE" ] && [ "$(node_major "$NODE")" -ge 24 ] ||
    fail "no Node.js 24: install it, or run npm ci in $REPO (it installs one in node_modules/node)"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pipit-docker-steps.XXXXXX")
BUILDER="$WORK/src"
RUNTIME="$WORK/opt/pipit"
ETC="$WORK/etc/pipit"
DATA="$WORK/var/lib/pipit"
LOG="$WORK/pipit.log"
PID=""
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID" 2>/dev/null || true; fi
  if [ "${KEEP-}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
# `node` (and npm's `#!/usr/bin/env node`) is this Node 24 in every step, as in the image.
mkdir -p "$WORK/node-bin"
ln -s "$NODE" "$WORK/node-bin/node"
export PATH="$WORK/node-bin:$PATH"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
echo "node $(node --version) ($NODE), npm $(npm --version), in $WORK"

# --- deps -------------------------------------------------------------------------------------
step "deps: COPY package.json package-lock.json; RUN npm ci --ignore-scripts; remove the node package"
mkdir -p "$BUILDER"
cp "$REPO/package.json" "$REPO/package-lock.json" "$BUILDER/"
(cd "$BUILDER" && npm ci --ignore-scripts --no-audit --no-fund && rm -rf node_modules/node node_modules/.bin/node)
[ -d "$BUILDER/node_modules/typescript" ] || fail "npm ci did not install the dev dependencies"

# --- builder ----------------------------------------------------------------------------------
step "builder: COPY . .  (the build context: $REPO without what .dockerignore excludes)"
# Docker's .dockerignore rules: patterns relative to the context's root, `*` and `?` within one
# path segment, `**` across segments, a pattern matching a directory excludes all below it, and
# the last matching line wins (`!pattern` re-includes).
node - "$REPO" >"$WORK/context.list" <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const root = process.argv[2];
const ignoreFile = path.join(root, '.dockerignore');
const lines = fs.existsSync(ignoreFile) ? fs.readFileSync(ignoreFile, 'utf8').split('\n') : [];
const toRegExp = (glob) => {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') { i++; re += '(?:.*/)?'; } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
};
const rules = lines
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => {
    const negate = l.startsWith('!');
    const glob = path.posix.normalize(negate ? l.slice(1).trim() : l).replace(/^\/+|\/+$/g, '');
    return { negate, re: toRegExp(glob) };
  });
const hasExceptions = rules.some((r) => r.negate);
const excluded = (rel) => {
  const parts = rel.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let out = false;
  for (const r of rules) if (prefixes.some((p) => r.re.test(p))) out = !r.negate;
  return out;
};
const walk = (rel) => {
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    const out = excluded(child);
    if (entry.isDirectory()) {
      if (!out || hasExceptions) walk(child);
    } else if (!out) process.stdout.write(`${child}\0`);
  }
};
walk('');
EOF
tar -C "$REPO" --null --no-recursion -T "$WORK/context.list" -cf - | tar -C "$BUILDER" -xf -
echo "$(tr -cd '\0' <"$WORK/context.list" | wc -c) files"
[ -f "$BUILDER/package-lock.json" ] || fail "package-lock.json is not in the build context"

step "builder: RUN npm run build && npm run build:web && npm prune --omit=dev; remove the node package"
(cd "$BUILDER" && npm run build --silent && npm run build:web --silent)
[ -f "$BUILDER/dist/cli/main.js" ] || fail "the build did not write dist/cli/main.js"
[ -f "$BUILDER/web/dist/index.html" ] || fail "the build did not write web/dist/index.html"
(cd "$BUILDER" && npm prune --omit=dev --ignore-scripts --no-audit --no-fund && rm -rf node_modules/node node_modules/.bin/node)
[ ! -e "$BUILDER/node_modules/typescript" ] || fail "npm prune left the dev dependencies"
[ ! -e "$BUILDER/node_modules/node" ] || fail "the node package (a second Node.js) is still in node_modules"

# --- runtime ----------------------------------------------------------------------------------
step "runtime: COPY --from=builder ${RUNTIME_COPIES[*]}; COPY $CONFIG_SOURCE /etc/pipit/config.yaml"
mkdir -p "$RUNTIME" "$ETC"
# The builder is discarded after this step, so each copy is a move (instant on one file system).
for item in "${RUNTIME_COPIES[@]}"; do
  [ -e "$BUILDER/$item" ] || fail "the builder has no $item to copy"
  mkdir -p "$(dirname "$RUNTIME/$item")"
  mv "$BUILDER/$item" "$RUNTIME/$item"
done
# The builder stage is gone in the image: nothing may still point into it.
rm -rf "$BUILDER"
# The image's file, with what cannot be used here swapped: its workdir, its port (0: the system
# picks a free one) and its bind address (loopback only).
sed -e "s|^workdir: /var/lib/pipit\\b|workdir: $DATA|" \
  -e 's|^  port: 8008\b|  port: 0|' \
  -e 's|^  bind_address: 0\.0\.0\.0\b|  bind_address: 127.0.0.1|' \
  "$REPO/$CONFIG_SOURCE" >"$ETC/config.yaml"
for expected in "workdir: $DATA" "  port: 0" "  bind_address: 127.0.0.1"; do
  grep -q "^$expected" "$ETC/config.yaml" ||
    fail "$CONFIG_SOURCE changed: could not set \"$expected\" in it (update this script)"
done
diff -u "$REPO/$CONFIG_SOURCE" "$ETC/config.yaml" || true

# USER pipit: root runs Pipit (and the health check) as nobody; the workdir is that user's, like
# the image's /var/lib/pipit (install -d -o pipit -m 0700).
mkdir -p "$DATA"
chmod 0700 "$DATA"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  chown "$(id -u nobody):$(id -g nobody)" "$DATA"
  chmod 0755 "$WORK" "$WORK/etc" "$WORK/opt" "$WORK/var" "$WORK/var/lib"
  as_user=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups --no-new-privs)
  echo "running as root: Pipit runs as nobody"
else
  echo "not root: Pipit runs as $(id -un) (the image runs it as its own user, pipit)"
fi
# A container's environment: PATH and HOME, nothing inherited (no PIPIT_* from this shell).
container_env=(env -i "PATH=$WORK/node-bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "HOME=$DATA")

# --- run --------------------------------------------------------------------------------------
step "run: ENTRYPOINT + CMD  (node bin/pipit.js start --config $ETC/config.yaml)"
(cd "$RUNTIME" && exec "${as_user[@]}" "${container_env[@]}" node bin/pipit.js start --config "$ETC/config.yaml") >"$LOG" 2>&1 &
PID=$!
url=""
deadline=$((SECONDS + 60))
while [ -z "$url" ]; do
  url=$(grep -o 'Pipit listening on http://[^" ]*' "$LOG" | head -n1 | sed 's/^Pipit listening on //') || true
  [ -n "$url" ] && break
  kill -0 "$PID" 2>/dev/null || { cat "$LOG"; fail "Pipit exited before listening"; }
  [ "$SECONDS" -lt "$deadline" ] || { cat "$LOG"; fail "Pipit did not listen within 60 s"; }
  sleep 0.1
done
echo "Pipit (PID $PID) listening on $url"

step "check: the Dockerfile's HEALTHCHECK command, against $url/readyz"
# The one thing read from the Dockerfile: the health check's exec-form command.
mapfile -d '' health < <(node - "$REPO/Dockerfile" <<'EOF'
const text = require('node:fs').readFileSync(process.argv[2], 'utf8').replace(/\\\r?\n/g, ' ');
const line = text.split('\n').find((l) => /^\s*HEALTHCHECK\s/i.test(l));
const cmd = line && /\sCMD\s+(\[.*\])\s*$/i.exec(line);
if (!cmd) throw new Error('no HEALTHCHECK ... CMD ["..."] line in the Dockerfile');
for (const arg of JSON.parse(cmd[1])) process.stdout.write(`${arg}\0`);
EOF
)
[ "${#health[@]}" -gt 0 ] || fail "could not read the HEALTHCHECK command from the Dockerfile"
health_check() {
  (cd "$RUNTIME" && exec "${as_user[@]}" "${container_env[@]}" "PIPIT_HEALTH_URL=$url/readyz" timeout 5 "${health[@]}")
}
health_check || fail "the health check failed against a running Pipit"
echo "healthy"

step "stop: SIGTERM (STOPSIGNAL), expecting exit status 0"
kill -TERM "$PID"
deadline=$((SECONDS + 30))
while kill -0 "$PID" 2>/dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || { cat "$LOG"; fail "Pipit still running 30 s after SIGTERM"; }
  sleep 0.1
done
status=0
wait "$PID" || status=$?
PID=""
[ "$status" -eq 0 ] || { cat "$LOG"; fail "Pipit exited with status $status after SIGTERM"; }
grep -q 'Pipit stopped' "$LOG" || { cat "$LOG"; fail "no \"Pipit stopped\" in the log"; }
for file in pipit.db jwt.key; do
  [ -f "$DATA/$file" ] || fail "no $file in the workdir"
  [ "$(stat -c %a "$DATA/$file")" = 600 ] || fail "$file is not mode 0600"
  [ "$(stat -c %u "$DATA/$file")" = "$(stat -c %u "$DATA")" ] || fail "$file is not the workdir owner's"
done
echo "exit status 0; pipit.db and jwt.key in the workdir, mode 0600, owned by $(stat -c %U "$DATA")"
if health_check 2>/dev/null; then fail "the health check passed with Pipit stopped"; fi
echo "the health check fails with Pipit stopped, as it must"

step "docker-steps: OK"
