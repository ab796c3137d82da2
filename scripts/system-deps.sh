#!/usr/bin/env bash
# Installs the Debian packages the test suite and the benchmarks drive for real:
# - chromium: the web UI's end-to-end tests (Playwright);
# - systemd: `systemd-analyze verify` checks deploy/pipit.service;
# - wrk: the HTTP load generator of `npm run bench`;
# - mosquitto: the MQTT broker that the mqtt plugin's tests and benchmark start on free ports;
# - redis-server: the shared bus of several instances (test/cluster/, bench/cluster.ts start it
#   on a free loopback port with a data dir of their own);
# - faketime: libfaketime, which test/cluster/clock.test.ts preloads to start an instance whose
#   clock is two minutes slow;
# - mpd: the music.mpd plugin's tests start a real MPD with a null audio output;
# - postgresql: the db plugin's tests start a PostgreSQL server in a data directory of their own
#   (initdb + postgres from /usr/lib/postgresql/<version>/bin, run as the postgres user under root).
# Needs root (or sudo). Installs only what is missing.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v mpd >/dev/null 2>&1 || [ -x /usr/bin/mpd ] || need+=(mpd)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || command -v faketime >/dev/null 2>&1 || need+=(faketime)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing ${need[*]} with apt-get"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
