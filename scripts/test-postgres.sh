#!/usr/bin/env bash
# A throw-away PostgreSQL server for the tests (issue 39), from Debian's `postgresql` packages.
#
#   eval "$(scripts/test-postgres.sh start)"   # prints `export CASEFILE_TEST_DATABASE_URL=...` lines
#   scripts/test-postgres.sh stop [DIR]        # DIR defaults to $CASEFILE_TEST_POSTGRES_DIR
#
# start: installs `postgresql` when initdb/pg_ctl are missing (apt-get as root, sudo otherwise),
# runs initdb into a new temporary folder and pg_ctl start on a free port bound to 127.0.0.1, as
# the `postgres` OS user when run as root (PostgreSQL refuses root), else as the current user.
# Trust authentication for the superuser `casefile`; nothing listens beyond loopback.
# stop: stops that server and removes its folder. Messages go to stderr; stdout is only the exports.
set -euo pipefail

log() { echo "test-postgres: $*" >&2; }

# The directory holding initdb and pg_ctl: $PATH first, then Debian's versioned folders (newest first).
find_bin_dir() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return 0
  fi
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

install_postgres() {
  log "installing Debian postgresql (initdb/pg_ctl not found)"
  local sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  # The package's own cluster may fail to start in a container without an init system; we do not use it.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}

# Runs a command as the server's OS user (the `postgres` user when we are root).
as_owner() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

start() {
  local bin
  if ! bin=$(find_bin_dir); then
    install_postgres
    bin=$(find_bin_dir) || { log "postgresql installed but initdb/pg_ctl still not found"; exit 1; }
  fi
  if [ "$(id -u)" = "0" ] && ! id postgres >/dev/null 2>&1; then
    log "running as root and the OS user 'postgres' does not exist (install Debian's postgresql, or run as a non-root user)"
    exit 1
  fi
  local dir port
  dir=$(mktemp -d "${TMPDIR:-/tmp}/casefile-test-postgres.XXXXXX")
  chmod 700 "$dir"
  if [ "$(id -u)" = "0" ]; then chown postgres: "$dir"; fi
  port=$(free_port)
  # cd into the folder: the server's user may not be able to read the caller's working directory.
  (cd "$dir" && as_owner "$bin/initdb" -D "$dir/data" -U casefile --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1) \
    || { log "initdb failed:"; cat "$dir/initdb.log" >&2; exit 1; }
  (cd "$dir" && as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off -c synchronous_commit=off" start >&2) \
    || { log "pg_ctl start failed:"; cat "$dir/server.log" >&2; exit 1; }
  log "PostgreSQL $("$bin/pg_ctl" --version | grep -oE '[0-9]+(\.[0-9]+)?' | head -1) on 127.0.0.1:$port, data in $dir"
  echo "export CASEFILE_TEST_DATABASE_URL=postgres://casefile@127.0.0.1:$port/postgres"
  echo "export CASEFILE_TEST_POSTGRES_DIR=$dir"
}

stop() {
  local dir="${1:-${CASEFILE_TEST_POSTGRES_DIR:-}}"
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    log "nothing to stop (no folder given and CASEFILE_TEST_POSTGRES_DIR unset or gone)"
    return 0
  fi
  case "$(basename "$dir")" in
    casefile-test-postgres.*) ;;
    *) log "refusing to stop and remove $dir: not a folder made by this script"; exit 1 ;;
  esac
  local bin
  bin=$(find_bin_dir) || { log "pg_ctl not found"; exit 1; }
  if [ -f "$dir/data/postmaster.pid" ]; then
    (cd "$dir" && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2) || log "pg_ctl stop failed (see $dir/server.log)"
  fi
  rm -rf "$dir"
  log "stopped and removed $dir"
}

case "${1:-}" in
  start) start ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 start | stop [DIR]" >&2; exit 2 ;;
esac
