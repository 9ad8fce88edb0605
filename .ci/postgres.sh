# Sourced by .ci/run (and usable by hand: `source .ci/postgres.sh && pg_start`): a
# throw-away PostgreSQL on loopback for the tests of the team store.
#
# pg_start: finds initdb (installing PostgreSQL with apt-get when it is missing and we are
# root), initialises a cluster in a temporary folder owned by a non-root user, starts it on a
# random free port of 127.0.0.1 with its socket in that folder, and exports
# EVALTALLY_TEST_PG_URL. The server also speaks TLS (ssl=on; plain connections are still
# accepted): pg_tls_certs makes a throw-away CA and a server certificate for the host name
# `localhost` (not for 127.0.0.1) with the openssl command, and EVALTALLY_TEST_PG_CA names the
# CA's certificate for the TLS tests. pg_stop stops the server and removes the folder.

# A CA and a server certificate signed by it, in folder $1 (EC P-256 keys, valid two days).
pg_tls_certs() {
    local d="$1"
    mkdir -p "$d"
    openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
        -subj "/CN=evaltally throw-away test CA" -keyout "$d/ca.key" -out "$d/ca.crt" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -subj "/CN=localhost" -keyout "$d/server.key" -out "$d/server.csr" 2>/dev/null
    printf '%s\n' "subjectAltName=DNS:localhost" "basicConstraints=CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$d/server.ext"
    openssl x509 -req -in "$d/server.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 2 \
        -extfile "$d/server.ext" -out "$d/server.crt" 2>/dev/null
    chmod 600 "$d/server.key"
}

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
    local ssl=""
    if command -v openssl >/dev/null 2>&1 && pg_tls_certs "$PG_TMP/tls"; then
        [ "$(id -u)" = 0 ] && chown -R postgres "$PG_TMP/tls"
        ssl="-c ssl=on -c ssl_cert_file=$PG_TMP/tls/server.crt -c ssl_key_file=$PG_TMP/tls/server.key"
        export EVALTALLY_TEST_PG_CA="$PG_TMP/tls/ca.crt"
    else
        echo ".ci/run: warning: no openssl; the server has no TLS and the TLS tests will fail under CI=true" >&2
    fi
    "${as[@]}" "$bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/log" -w -o \
        "-c listen_addresses=127.0.0.1 -p $port -k $PG_TMP -c fsync=off -c max_connections=200 $ssl" start >/dev/null
    PG_CTL=("${as[@]}" "$bin/pg_ctl")
    export EVALTALLY_TEST_PG_URL="postgres://evaltally:evaltally-ci-secret@127.0.0.1:$port/postgres"
    echo ".ci/run: PostgreSQL on 127.0.0.1:$port${ssl:+ (TLS too)}" >&2
}

pg_stop() {
    if [ -n "${PG_TMP:-}" ] && [ -d "$PG_TMP/data" ]; then
        "${PG_CTL[@]}" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$PG_TMP"
    fi
}
