"""The loopback cluster's preparation: what `make cluster` does before honcho starts
deploy/Procfile.cluster (nginx in front of two gunicorn app servers, one PostgreSQL database,
one Redis db).

    python scripts/cluster.py prepare --run-dir DIR   # database, static files, nginx.conf, env
    python scripts/cluster.py check                   # would these settings keep state in one
                                                      # app server?

`prepare` creates the database when missing (migrated, demo data when empty), empties the Redis
db, collects the static files nginx serves, chooses the ports, renders
deploy/nginx/cluster.conf.template into DIR/nginx.conf and writes DIR/cluster.env for honcho.
tests/test_cluster.py prepares the same way (scripts/servers.py runs the processes).
"""

import argparse
import json
import os
import secrets
import socket
import string
import subprocess
import sys
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.servers import ROOT, create_database, free_port, manage

TEMPLATE = ROOT / "deploy" / "nginx" / "cluster.conf.template"
STATIC_ROOT = ROOT / "staticfiles"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/shop_cluster"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/12"


def port_or_free(preferred: int) -> int:
    """`preferred` when it is free on loopback, else any free port."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", preferred))
        except OSError:
            return free_port()
    return preferred


def prepare(
    run_dir: Path,
    *,
    port: int = 8080,
    database_url: str = DEFAULT_DATABASE_URL,
    redis_url: str = DEFAULT_REDIS_URL,
    workers: int | None = None,
    fresh: bool = False,
    quiet: bool = False,
    settings: dict[str, str] | None = None,
) -> dict[str, str]:
    """Everything the Procfile's processes need; returns their environment (also written to
    run_dir/cluster.env). `settings`: more of the shop's variables, for a test's needs."""
    env = {
        # Production settings (DEBUG off), plain HTTP on loopback, shared database and cache.
        "DJANGO_SETTINGS_MODULE": "shop.settings",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        # nginx is one proxy in front: client addresses come from its X-Forwarded-For.
        "TRUSTED_PROXY_COUNT": "1",
        **({"WEB_CONCURRENCY": str(workers)} if workers else {}),
        **(settings or {}),
    }
    full_env = {**os.environ, **env}
    check = [sys.executable, __file__, "check", "--json"]
    problems = json.loads(subprocess.check_output(check, cwd=ROOT, env=full_env, text=True))
    if problems:
        raise SystemExit("cluster: state would stay in one process: " + "; ".join(problems))

    create_database(database_url, fresh=fresh)
    # The cache holds nothing that matters (sessions are in the database too); a fresh one
    # cannot serve fragments of a database that was re-created meanwhile.
    redis.Redis.from_url(redis_url, socket_timeout=5).flushdb()
    manage("migrate", "--noinput", "-v", "0", env=full_env)
    seeded = manage("seed_demo", "--if-empty", env=full_env)
    manage("collectstatic", "--noinput", "-v", "0", env=full_env)
    if not quiet:
        print(seeded, end="")

    run_dir.mkdir(parents=True, exist_ok=True)
    # nginx's workers (an unprivileged user when started by root) write temp files here.
    run_dir.chmod(0o755)
    (run_dir / "temp").mkdir(exist_ok=True)
    # Uploaded part images: both app servers write here, nginx serves /media/ from it.
    media_root = Path(env.get("MEDIA_ROOT") or run_dir / "media")
    media_root.mkdir(parents=True, exist_ok=True)
    media_root.chmod(0o755)
    env |= {
        "MEDIA_ROOT": str(media_root),
        "CLUSTER_RUN": str(run_dir),
        "CLUSTER_PORT": str(port_or_free(port) if port else free_port()),
        "APP_A_PORT": str(free_port()),
        "APP_B_PORT": str(free_port()),
    }
    # The address shoppers reach the cluster at: nginx's, for links in pages and mail.
    env.setdefault("SITE_URL", f"http://127.0.0.1:{env['CLUSTER_PORT']}")
    nginx_conf = string.Template(TEMPLATE.read_text()).safe_substitute(
        run=run_dir,
        port=env["CLUSTER_PORT"],
        app_a_port=env["APP_A_PORT"],
        app_b_port=env["APP_B_PORT"],
        static_root=STATIC_ROOT,
        media_root=env["MEDIA_ROOT"],
        # nginx answers these host names only (any other Host: no answer, 444).
        SHOP_SERVER_NAMES=" ".join(name.strip() for name in env["ALLOWED_HOSTS"].split(",")),
    )
    (run_dir / "nginx.conf").write_text(nginx_conf)
    env_file = run_dir / "cluster.env"
    env_file.write_text("".join(f"{key}={value}\n" for key, value in env.items()))
    env_file.chmod(0o600)  # it holds the secret key
    return env


def shared_state_problems() -> list[str]:
    """What, under the settings this environment gives, would live in one app server's memory
    (or disk): a local-memory or file cache, file sessions. Several app servers need none.
    The process's copies of values kept under versions ("local", "pages": core/caching) are
    no such state: their keys name versions read from the shared cache, so none goes stale."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import caches
    from django.core.cache.backends.filebased import FileBasedCache
    from django.core.cache.backends.locmem import LocMemCache

    from core.caching.pages import PAGES
    from core.caching.versions import LOCAL

    problems = []
    for alias in settings.CACHES.keys() - {LOCAL, PAGES}:
        backend = type(caches[alias])
        if issubclass(backend, LocMemCache | FileBasedCache):
            problems.append(f"cache {alias!r} is {backend.__name__}: one per process")
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.file":
        problems.append("sessions are files on one server's disk")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    start = commands.add_parser("prepare", help="database, static files, nginx.conf, env file")
    start.add_argument("--run-dir", type=Path, required=True)
    start.add_argument("--port", type=int, default=int(os.environ.get("CLUSTER_PORT", "8080")))
    start.add_argument(
        "--database-url", default=os.environ.get("CLUSTER_DATABASE_URL", DEFAULT_DATABASE_URL)
    )
    start.add_argument(
        "--redis-url", default=os.environ.get("CLUSTER_REDIS_URL", DEFAULT_REDIS_URL)
    )
    start.add_argument("--workers", type=int, help="per app server (default: gunicorn.conf.py)")
    check = commands.add_parser("check", help="does any state live in one process?")
    check.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    if args.command == "check":
        problems = shared_state_problems()
        if args.json:
            print(json.dumps(problems))
            return 0
        print("\n".join(problems) or "Nothing lives in one process: app servers can be added.")
        return 1 if problems else 0

    env = prepare(
        args.run_dir.resolve(),
        port=args.port,
        database_url=args.database_url,
        redis_url=args.redis_url,
        workers=args.workers,
    )
    if env["CLUSTER_PORT"] != str(args.port):
        print(f"Port {args.port} is taken: nginx listens on {env['CLUSTER_PORT']} instead.")
    print(f"\nDatabase {env['DATABASE_URL']}, cache {env['REDIS_URL']}")
    print(f"The shop, through nginx: http://127.0.0.1:{env['CLUSTER_PORT']}")
    print(f"  app_a (gunicorn): http://127.0.0.1:{env['APP_A_PORT']}")
    print(f"  app_b (gunicorn): http://127.0.0.1:{env['APP_B_PORT']}")
    print(f"  nginx's logs and the pid files: {args.run_dir}/")
    print("honcho starts them now; Ctrl-C stops everything.\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
