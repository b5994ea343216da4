"""gunicorn's production settings: `gunicorn -c deploy/gunicorn.conf.py shop.wsgi`.

The same file serves deploy/Procfile, `make cluster` (deploy/Procfile.cluster) and the Docker
image. Tune it from the environment:

  PORT               port to listen on, all interfaces (default 8000); BIND overrides the
                     whole address, e.g. BIND=127.0.0.1:8001
  WEB_CONCURRENCY    worker processes; default 2 × CPU cores + 1, at most 12
  GUNICORN_TIMEOUT   seconds a request may take before its worker is replaced (default 30)
  LOG_LEVEL          gunicorn's error log level (default info)

Sync workers: each handles one request at a time, and nginx in front buffers slow clients
(deploy/nginx/shop.conf), which is the set-up gunicorn's documentation recommends for them.
"""

import os


def cpu_count() -> int:
    """CPUs this process may run on (a container's CPU set, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# Each worker keeps one PostgreSQL connection open (CONN_MAX_AGE): the cap keeps a big host
# from running out of connections (two instances × 12 stay below PostgreSQL's 100).
MAX_DEFAULT_WORKERS = 12

wsgi_app = "shop.wsgi"
bind = os.environ.get("BIND") or f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or min(2 * cpu_count() + 1, MAX_DEFAULT_WORKERS))
worker_class = "sync"

# A request over `timeout` seconds gets its worker killed (nginx waits a little longer, see
# proxy_read_timeout). On SIGTERM, workers finish the requests they hold for up to
# `graceful_timeout` seconds before they are killed.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5

# The workers' heartbeat files in memory: a container's overlay disk can stall them.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# Two instances on one host would share gunicornc's default control socket path; the shop
# does not use gunicornc, so there is none.
control_socket_disable = True

proc_name = os.environ.get("GUNICORN_NAME", "shop")

# X-Forwarded-Proto (and its kin) make a request https only when a proxy is configured
# (TRUSTED_PROXY_COUNT, as SECURE_PROXY_SSL_HEADER in shop/settings/security.py): gunicorn would believe
# any loopback client otherwise. Which proxies: FORWARDED_ALLOW_IPS (gunicorn's; loopback).
if not int(os.environ.get("TRUSTED_PROXY_COUNT") or 0):
    secure_scheme_headers = {}

# Access log on stdout, error log on stderr: the process manager (Docker, systemd) keeps them.
# Peer (nginx), time, request, status, bytes, time taken, the client as nginx saw it
# (X-Forwarded-For) and nginx's request id (X-Request-ID), which its own log shows too.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
access_log_format = (
    '%(h)s %(t)s "%(r)s" %(s)s %(B)s %(M)sms '
    'for=%({x-forwarded-for}i)s req=%({x-request-id}i)s "%(a)s"'
)


def post_worker_init(worker):
    """The application is loaded: its long-lived objects (modules, settings, URL patterns)
    are moved out of the garbage collector's reach (gc.freeze), so its full collections walk
    only what requests leave behind."""
    import gc

    gc.freeze()
