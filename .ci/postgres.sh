# Sourced by .ci/run (and usable by hand: `source .ci/postgres.sh && pg_start`): a
# throw-away PostgreSQL on loopback for the tests of the team store.
#
# pg_start: finds initdb (installing PostgreSQL with apt-get when it is missing and we are
# root), initialises a cluster in a temporary folder owned by a non-root user, starts it on a
# random free port of 127.0.0.1 with its socket in that folder, and exports
# EVALTALLY_TEST_PG_URL. pg_stop stops it and removes the folder.

pg_bindir() {
    if command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return
    fi
    local d
    for d in /usr/lib/postgresql/*/bin; do
        if [ -x "$d/initdb" ]; then
            echo "$d"
            return
        fi
    done
}

pg_start() {
    local bin
    bin="$(pg_bindir)"
    if [ -z "$bin" ] && [ "$(id -u)" = 0 ]; then
        echo ".ci/run: installing postgresql" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >&2
        bin="$(pg_bindir)"
    fi
    if [ -z "$bin" ]; then
        echo ".ci/run: warning: no PostgreSQL found; the team store tests will fail under CI=true" >&2
        return 0
    fi
    PG_TMP="$(mktemp -d /tmp/evaltally-pg.XXXXXX)"
    local as=()
    if [ "$(id -u)" = 0 ]; then
        # initdb refuses to run as root.
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
        chown postgres "$PG_TMP"
        as=(runuser -u postgres --)
    fi
    local port
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # Connections over TCP need the password (the tests check a wrong one is refused).
    echo "evaltally-ci-secret" >"$PG_TMP/pw"
    [ "$(id -u)" = 0 ] && chown postgres "$PG_TMP/pw"
    "${as[@]}" "$bin/initdb" -D "$PG_TMP/data" -U evaltally --pwfile="$PG_TMP/pw" \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --no-locale >/dev/null
    "${as[@]}" "$bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/log" -w -o \
        "-c listen_addresses=127.0.0.1 -p $port -k $PG_TMP -c fsync=off -c max_connections=200" start >/dev/null
    PG_CTL=("${as[@]}" "$bin/pg_ctl")
    export EVALTALLY_TEST_PG_URL="postgres://evaltally:evaltally-ci-secret@127.0.0.1:$port/postgres"
    echo ".ci/run: PostgreSQL on 127.0.0.1:$port" >&2
}

pg_stop() {
    if [ -n "${PG_TMP:-}" ] && [ -d "$PG_TMP/data" ]; then
        "${PG_CTL[@]}" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$PG_TMP"
    fi
}
