#!/usr/bin/env bash
# What `make test` needs beyond Python and Node.js, made ready or named exactly:
#   - Debian's chromium (the browser tests) and nginx (the cluster test);
#   - PostgreSQL answering at DATABASE_URL, Redis answering at REDIS_URL.
# As root with apt-get it installs the packages and starts the local services; otherwise it
# stops at once and prints the command to run. A missing tool must never turn tests into skips.
set -euo pipefail

DATABASE_URL="${DATABASE_URL:?DATABASE_URL is not set}"
REDIS_URL="${REDIS_URL:?REDIS_URL is not set}"

say() { printf 'test-machine: %s\n' "$*"; }
stop() {
    printf '\ntest-machine: %s\n' "$1" >&2
    printf 'Run this, then `make test` again:\n\n    %s\n\n' "$2" >&2
    exit 1
}
is_root() { [ "$(id -u)" -eq 0 ]; }

# --- Debian packages ---------------------------------------------------------------------
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ "${#missing[@]}" -gt 0 ]; then
    install="apt-get update && apt-get install -y ${missing[*]}"
    if is_root && command -v apt-get >/dev/null 2>&1; then
        say "installing ${missing[*]} with apt-get (browser and cluster tests)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null
        apt-get install -y -q "${missing[@]}" >/dev/null
        # The cluster test runs its own nginx: stop the service the package may have started.
        if [ -f /run/nginx.pid ]; then /usr/sbin/nginx -s quit || true; fi
    elif command -v apt-get >/dev/null 2>&1; then
        stop "missing ${missing[*]} (browser and cluster tests)" "sudo sh -c '$install'"
    else
        stop "missing ${missing[*]}, and this machine has no apt-get" \
            "install Debian's ${missing[*]} (or the same packages from your system's manager): /usr/bin/chromium and /usr/sbin/nginx"
    fi
fi

# --- PostgreSQL ----------------------------------------------------------------------------
host_port() {  # scheme://[user[:pass]@]host[:port]/... -> "host port"
    local rest="${1#*://}"
    rest="${rest##*@}"
    rest="${rest%%/*}"
    local host="${rest%%:*}" port="$2"
    [ "$rest" != "$host" ] && port="${rest##*:}"
    printf '%s %s' "${host:-127.0.0.1}" "$port"
}
answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

case "$DATABASE_URL" in
postgres://* | postgresql://*)
    read -r pg_host pg_port <<<"$(host_port "$DATABASE_URL" 5432)"
    if ! answers "$pg_host" "$pg_port"; then
        start="pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql | sort -V | tail -n 1) main start"
        if is_root && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
            say "PostgreSQL is not answering on $pg_host:$pg_port; starting it"
            eval "$start" || true
            for _ in $(seq 1 30); do answers "$pg_host" "$pg_port" && break; sleep 1; done
        fi
        answers "$pg_host" "$pg_port" ||
            stop "PostgreSQL does not answer on $pg_host:$pg_port (DATABASE_URL)" "sudo $start"
    fi
    ;;
*) say "DATABASE_URL is not PostgreSQL: a test marked postgres is skipped there, which fails the run (make test-sqlite leaves them out)" ;;
esac

# --- Redis ---------------------------------------------------------------------------------
read -r redis_host redis_port <<<"$(host_port "$REDIS_URL" 6379)"
if ! answers "$redis_host" "$redis_port"; then
    start="redis-server --daemonize yes --bind 127.0.0.1 --port $redis_port --save '' --appendonly no"
    if is_root && command -v redis-server >/dev/null 2>&1; then
        say "Redis is not answering on $redis_host:$redis_port; starting it"
        eval "$start" >/dev/null || true
        for _ in $(seq 1 10); do answers "$redis_host" "$redis_port" && break; sleep 1; done
    fi
    answers "$redis_host" "$redis_port" ||
        stop "Redis does not answer on $redis_host:$redis_port (REDIS_URL)" "$start"
fi

say "ready: chromium, nginx, ${DATABASE_URL%%://*} and Redis"
