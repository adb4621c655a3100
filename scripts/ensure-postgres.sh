#!/usr/bin/env bash
# Makes a local PostgreSQL ready for the server tests and prints its URL on stdout:
#   TEST_DATABASE_URL=$(bash scripts/ensure-postgres.sh) npx vitest run server
# Idempotent, run as root: installs Debian's `postgresql` with apt when missing, creates and
# starts a cluster (pg_ctlcluster), and creates the role and database `raidmap_test`.
# Progress goes to stderr; stdout carries only the postgres:// URL.
set -euo pipefail

NAME="${PG_TEST_NAME:-raidmap_test}"
PASSWORD="${PG_TEST_PASSWORD:-raidmap_test}"
log() { echo "ensure-postgres: $*" >&2; }
die() { log "$*"; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@";
  elif command -v sudo >/dev/null 2>&1; then sudo -n "$@";
  else die "needs root for: $*"; fi
}

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@";
  else sudo -n -u postgres "$@"; fi
}

# 1. Install the server when no PostgreSQL binaries exist.
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  log "installing postgresql with apt (waits for the dpkg lock if another install runs)"
  export DEBIAN_FRONTEND=noninteractive
  for attempt in 1 2 3; do
    if as_root apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 &&
       as_root apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends postgresql >&2; then
      break
    fi
    [ "$attempt" -eq 3 ] && die "apt-get install postgresql failed"
    log "apt failed (attempt $attempt); retrying in 10 s"
    sleep 10
  done
fi

VERSION="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
[ -n "$VERSION" ] || die "no PostgreSQL version found under /usr/lib/postgresql"

# 2. A cluster for that version (the package normally creates `main`), started.
CLUSTER="$(pg_lsclusters -h 2>/dev/null | awk -v v="$VERSION" '$1 == v { print $2; exit }')"
if [ -z "$CLUSTER" ]; then
  log "creating cluster $VERSION/main"
  as_root pg_createcluster "$VERSION" main >&2
  CLUSTER=main
fi
STATUS="$(pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c { print $4 }')"
if [ "$STATUS" != "online" ]; then
  log "starting cluster $VERSION/$CLUSTER"
  as_root pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi
PORT="$(pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c { print $3 }')"

# Wait until it accepts connections.
for _ in $(seq 1 30); do
  if as_postgres psql -p "$PORT" -tAc 'select 1' >/dev/null 2>&1; then break; fi
  sleep 1
done
as_postgres psql -p "$PORT" -tAc 'select 1' >/dev/null || die "PostgreSQL $VERSION/$CLUSTER does not answer on port $PORT"

# 3. Role and database (password login over TCP).
if [ "$(as_postgres psql -p "$PORT" -tAc "select 1 from pg_roles where rolname = '$NAME'")" != "1" ]; then
  log "creating role $NAME"
  as_postgres psql -p "$PORT" -q -v ON_ERROR_STOP=1 -c "create role \"$NAME\" login password '$PASSWORD'" >&2
fi
if [ "$(as_postgres psql -p "$PORT" -tAc "select 1 from pg_database where datname = '$NAME'")" != "1" ]; then
  log "creating database $NAME"
  as_postgres createdb -p "$PORT" -O "$NAME" "$NAME" >&2
fi

echo "postgres://$NAME:$PASSWORD@127.0.0.1:$PORT/$NAME"
