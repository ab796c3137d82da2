# syntax=docker/dockerfile:1
# Pipit's container image (README, "Operating Pipit" > "With Docker").
#
#   docker build -t pipit .
#   docker run -d --name pipit --init --stop-timeout 30 -p 8008:8008 -v pipit-data:/var/lib/pipit pipit
#
# scripts/docker-steps.sh performs these steps without Docker, and test/deploy/deploy.test.ts checks
# that it copies the same files into the runtime stage: change both together.

# --- deps: the dependencies alone, from the lock file ----------------------------------------
# Only package.json and the lock file are copied before `npm ci`, so this layer (the slow one) is
# reused until the dependencies change: a source change rebuilds from the builder stage on.
FROM node:24-bookworm-slim AS deps
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: the sources are not here yet, so the "prepare" build cannot run. The only
# dependency with an install script is the `node` package, a second Node.js 24 for machines whose
# own Node is older; the image has Node.js 24, so it is removed before anything runs.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/node node_modules/.bin/node

# --- builder: the sources, the build, then only the production dependencies -----------------
# npm prune puts back what the lock file lists, the `node` package included: it is removed again.
FROM deps AS builder
COPY . .
RUN npm run build --silent \
 && npm run build:web --silent \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/node node_modules/.bin/node

# --- runtime -----------------------------------------------------------------------------------
FROM node:24-bookworm-slim

# A fixed, unprivileged user. It owns only the workdir: the application files stay root's.
RUN groupadd --system --gid 10001 pipit \
 && useradd --system --uid 10001 --gid pipit --home-dir /var/lib/pipit --no-create-home \
      --shell /usr/sbin/nologin pipit \
 && install -d -o pipit -g pipit -m 0700 /var/lib/pipit

WORKDIR /opt/pipit
COPY --from=builder /src/package.json ./package.json
COPY --from=builder /src/node_modules ./node_modules
COPY --from=builder /src/bin ./bin
COPY --from=builder /src/dist ./dist
COPY --from=builder /src/web/dist ./web/dist
COPY deploy/docker-config.yaml /etc/pipit/config.yaml

USER pipit
# The workdir: pipit.db (with -wal/-shm) and jwt.key. Keep it on a named volume or a host
# directory owned by UID 10001.
VOLUME /var/lib/pipit
EXPOSE 8008

# The slim image has no curl: Node asks. GET /readyz answers 200 without credentials once the
# database is writable (503 otherwise). With another port, set PIPIT_HEALTH_URL.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.PIPIT_HEALTH_URL || 'http://127.0.0.1:8008/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# SIGTERM (docker stop): in-flight requests get backend.http.shutdown_grace_seconds (10 s) to
# finish, then Pipit exits 0. docker stop waits only 10 s before SIGKILL: run with --stop-timeout 30.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/pipit.js"]
CMD ["start", "--config", "/etc/pipit/config.yaml"]
