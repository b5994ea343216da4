"""The shop as several app servers on loopback: nginx in front of two gunicorn instances
that share one PostgreSQL database and one Redis database.

    python scripts/cluster.py start    # `make cluster`: runs in the foreground, Ctrl-C stops all
    python scripts/cluster.py status   # from another terminal
    python scripts/cluster.py stop     # from another terminal
    python scripts/cluster.py check    # would these settings keep state in one app server?

Every piece uses the project's own production configuration: deploy/gunicorn.conf.py for the
app servers and deploy/nginx/shop.conf for nginx (its `listen`, upstream `server` and static
`alias` lines rewritten for loopback), the same files compose.yaml uses. nginx runs as a
child process with its own prefix in a temporary folder, never as the system's service.
tests/test_cluster.py drives the same Cluster class.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlsplit, urlunsplit
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parent.parent
SITE_CONF = ROOT / "deploy" / "nginx" / "shop.conf"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
STATIC_ROOT = ROOT / "staticfiles"
NGINX = Path("/usr/sbin/nginx")
MIME_TYPES = Path("/etc/nginx/mime.types")
STATE_FILE = Path(tempfile.gettempdir()) / "shop-cluster.json"

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/shop_cluster"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/12"
INSTANCES = ("a", "b")

# The main nginx.conf around deploy/nginx/shop.conf: foreground, and every file nginx writes
# under the run folder. The access log names the app server(s) each request went to.
NGINX_MAIN = """\
# Written by scripts/cluster.py.
daemon off;
worker_processes 1;
pid {run}/nginx.pid;
error_log {run}/nginx-error.log warn;
events {{
    worker_connections 512;
}}
http {{
    include {mime_types};
    default_type application/octet-stream;
    sendfile on;
    log_format cluster '$remote_addr "$request" $status $body_bytes_sent ${{request_time}}s '
                       'upstream=$upstream_addr status=$upstream_status req=$request_id';
    access_log {run}/nginx-access.log cluster;
    client_body_temp_path {run}/temp/body;
    proxy_temp_path {run}/temp/proxy;
    fastcgi_temp_path {run}/temp/fastcgi;
    uwsgi_temp_path {run}/temp/uwsgi;
    scgi_temp_path {run}/temp/scgi;
    include {run}/shop.conf;
}}
"""


class ClusterError(RuntimeError):
    """The cluster cannot start or run; the message says why."""


def free_port(preferred: int = 0) -> int:
    """`preferred` when it is free on loopback, else any free port."""
    for port in (preferred, 0) if preferred else (0,):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise ClusterError("no free port on 127.0.0.1")


def with_path(url: str, path: str) -> str:
    """`url` with its path replaced: another database or Redis db on the same server."""
    return urlunsplit(urlsplit(url)._replace(path=path))


def ensure_nginx() -> Path:
    """nginx's path; installs the Debian package `nginx` with apt-get when it is missing."""
    if NGINX.exists() and MIME_TYPES.exists():
        return NGINX
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise ClusterError(f"{NGINX} is missing; install it with `sudo apt-get install nginx`")
    print("nginx is missing: installing the Debian package `nginx` with apt-get", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "nginx"]
    for command in (install, ["apt-get", "update", "-q"], install):
        done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, check=False)
        if done.returncode == 0 and command is install and NGINX.exists():
            break
    if not NGINX.exists():
        raise ClusterError("apt-get could not install nginx")
    # Where nothing holds services back (no policy-rc.d), the package starts nginx as the
    # system's service on port 80. The cluster needs none of it: stop what the install started.
    if Path("/run/nginx.pid").exists():
        subprocess.run([str(NGINX), "-s", "quit"], stderr=subprocess.DEVNULL, check=False)
    return NGINX


def site_conf(*, port: int, app_ports: list[int], static_root: Path) -> str:
    """deploy/nginx/shop.conf for loopback: each of its three deployment lines rewritten."""
    text = SITE_CONF.read_text()

    def rewrite(pattern: str, replace) -> None:
        nonlocal text
        text, count = re.subn(pattern, replace, text, flags=re.MULTILINE)
        if count != 1:
            raise ClusterError(f"{SITE_CONF}: expected one line matching {pattern!r}")

    rewrite(r"^(\s*)listen 80;$", lambda m: f"{m[1]}listen 127.0.0.1:{port};")
    rewrite(
        r"^(\s*)server app:8000( [^;]*)?;$",
        lambda m: "\n".join(f"{m[1]}server 127.0.0.1:{p}{m[2] or ''};" for p in app_ports),
    )
    rewrite(r"^(\s*)alias /srv/shop/static/;$", lambda m: f'{m[1]}alias "{static_root}/";')
    return text


@dataclass
class Cluster:
    """nginx on `port` in front of one gunicorn instance per INSTANCES entry."""

    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str = DEFAULT_REDIS_URL
    port: int = 8080
    workers: int | None = None  # per instance; None: deploy/gunicorn.conf.py decides
    quiet: bool = False  # the set-up commands' output only when they fail
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    app_ports: list[int] = field(default_factory=list)
    run_dir: Path | None = None
    apps: list[subprocess.Popen | None] = field(default_factory=list)
    nginx: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def app_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.app_ports[index]}"

    def log(self, name: str) -> Path:
        return self.run_dir / f"{name}.log"

    def env(self, **extra: str) -> dict[str, str]:
        """Production settings (DEBUG off), plain HTTP on loopback, shared database and cache."""
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "shop.settings",
            "DEBUG": "0",
            "SECRET_KEY": self.secret_key,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            # nginx is one proxy in front: client addresses come from its X-Forwarded-For.
            "TRUSTED_PROXY_COUNT": "1",
            **extra,
        }
        if self.workers:
            env["WEB_CONCURRENCY"] = str(self.workers)
        return env

    def run(self, *args: str, show: bool = True) -> str:
        """A command in the project folder with the cluster's settings; its output."""
        done = subprocess.run(
            args, cwd=ROOT, env=self.env(), capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise ClusterError(f"{' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        if show and not self.quiet:
            print(done.stdout, end="", flush=True)
        return done.stdout

    def prepare(self, *, fresh: bool = False) -> None:
        """The database (created, or re-created when `fresh`), migrated, demo data when empty;
        an empty cache; static files collected for nginx."""
        import psycopg
        import redis
        from psycopg import sql

        problems = json.loads(self.run(sys.executable, __file__, "check", "--json", show=False))
        if problems:
            raise ClusterError("state would stay in one process: " + "; ".join(problems))
        name = urlsplit(self.database_url).path.lstrip("/")
        server = with_path(self.database_url, "/postgres")
        try:
            with psycopg.connect(server, autocommit=True, connect_timeout=5) as conn:
                if fresh:
                    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                    conn.execute(drop.format(sql.Identifier(name)))
                exists = "SELECT 1 FROM pg_database WHERE datname = %s"
                if not conn.execute(exists, [name]).fetchone():
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.Error as error:
            raise ClusterError(f"PostgreSQL at {server}: {error}") from error
        # The cache holds nothing that matters (sessions are in the database too); a fresh one
        # cannot serve fragments of a database that was re-created meanwhile.
        try:
            redis.Redis.from_url(self.redis_url, socket_timeout=5).flushdb()
        except redis.RedisError as error:
            raise ClusterError(f"Redis at {self.redis_url}: {error}") from error
        manage = (sys.executable, str(ROOT / "manage.py"))
        self.run(*manage, "migrate", "--noinput", "-v", "0")
        self.run(*manage, "seed_demo", "--if-empty")
        self.run(*manage, "collectstatic", "--noinput", "-v", "0")

    def start(self) -> None:
        """The app servers, then nginx; returns once nginx answers."""
        if self.run_dir is None:
            self.run_dir = Path(tempfile.mkdtemp(prefix="shop-cluster-"))
            # nginx's workers (an unprivileged user when started by root) write temp files here.
            self.run_dir.chmod(0o755)
        self.port = free_port(self.port)
        if not self.app_ports:
            self.app_ports = [free_port() for _ in INSTANCES]
        self.apps = [None] * len(INSTANCES)
        try:
            for index in range(len(INSTANCES)):  # all at once: each takes seconds to start
                self.spawn_app(index)
            for index in range(len(INSTANCES)):
                self.wait_app(index)
            self.start_nginx()
        except BaseException:
            self.stop(keep_logs=True)
            raise

    def start_app(self, index: int) -> None:
        """(Re)start one app server; returns once it answers."""
        self.spawn_app(index)
        self.wait_app(index)

    def spawn_app(self, index: int) -> None:
        name = f"app-{INSTANCES[index]}"
        env = self.env(BIND=f"127.0.0.1:{self.app_ports[index]}", GUNICORN_NAME=f"shop-{name}")
        with self.log(name).open("ab") as log:
            self.apps[index] = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C reaches this script, which stops them in order
            )

    def wait_app(self, index: int) -> None:
        name = f"app-{INSTANCES[index]}"
        wait_http(f"{self.app_url(index)}/", self.apps[index], self.log(name))

    def start_nginx(self) -> None:
        nginx = ensure_nginx()
        (self.run_dir / "temp").mkdir(exist_ok=True)
        conf = site_conf(port=self.port, app_ports=self.app_ports, static_root=STATIC_ROOT)
        (self.run_dir / "shop.conf").write_text(conf)
        main = NGINX_MAIN.format(run=self.run_dir, mime_types=MIME_TYPES)
        (self.run_dir / "nginx.conf").write_text(main)
        command = [str(nginx), "-p", str(self.run_dir), "-c", str(self.run_dir / "nginx.conf")]
        command += ["-e", str(self.log("nginx-error"))]
        test = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True, check=False)
        if test.returncode != 0:
            raise ClusterError(f"nginx refused its configuration:\n{test.stderr}")
        with self.log("nginx").open("ab") as log:
            self.nginx = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_http(f"{self.url}/", self.nginx, self.log("nginx-error"))

    def stop_app(self, index: int, sig: int = signal.SIGTERM) -> int:
        """Stop one app server (SIGTERM: gunicorn finishes the requests in hand); its exit code."""
        process = self.apps[index]
        if process is None:
            return 0
        if process.poll() is None:
            process.send_signal(sig)
        try:
            code = process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
        self.apps[index] = None
        return code

    def stop(self, *, keep_logs: bool = False) -> None:
        """nginx first (it finishes the requests in hand), then the app servers."""
        if self.nginx is not None:
            if self.nginx.poll() is None:
                self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()
            self.nginx = None
        for process in self.apps:  # all at once, then wait for each
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for index in range(len(self.apps)):
            self.stop_app(index)
        if self.run_dir and not keep_logs:
            shutil.rmtree(self.run_dir, ignore_errors=True)

    def processes(self) -> dict[str, subprocess.Popen | None]:
        named = {f"app-{INSTANCES[i]}": process for i, process in enumerate(self.apps)}
        return {**named, "nginx": self.nginx}


def wait_http(url: str, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    """Until `url` answers anything over HTTP; fails when `process` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ClusterError(f"exited with code {process.returncode} before answering; see {log}")
        try:
            urlopen(url, timeout=5).close()
            return
        except HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise ClusterError(f"{url} did not answer within {timeout:.0f} s; see {log}")


def shared_state_problems() -> list[str]:
    """What, under the settings this environment gives, would live in one app server's memory
    (or disk): a local-memory or file cache, file sessions. Several app servers need none."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import caches
    from django.core.cache.backends.filebased import FileBasedCache
    from django.core.cache.backends.locmem import LocMemCache

    problems = []
    for alias in settings.CACHES:
        backend = type(caches[alias])
        if issubclass(backend, LocMemCache | FileBasedCache):
            problems.append(f"cache {alias!r} is {backend.__name__}: one per process")
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.file":
        problems.append("sessions are files on one server's disk")
    return problems


# --- Command line ----------------------------------------------------------------------


def command_start(args: argparse.Namespace) -> int:
    cluster = Cluster(
        database_url=args.database_url,
        redis_url=args.redis_url,
        port=args.port,
        workers=args.workers,
    )
    # Ctrl-C even when started in the background (which ignores it); `stop` sends SIGTERM.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"Database {cluster.database_url}, cache {cluster.redis_url}", flush=True)
    try:
        cluster.prepare()
        cluster.start()
        if cluster.port != args.port:
            print(f"Port {args.port} is taken: nginx listens on {cluster.port} instead.")
        write_state(cluster)
        print(f"\nThe shop, through nginx: {cluster.url}")
        for index, name in enumerate(INSTANCES):
            print(f"  app server {name} (gunicorn): {cluster.app_url(index)}")
        print(f"  logs: {cluster.run_dir}/*.log")
        print("Ctrl-C (or `python scripts/cluster.py stop`) stops everything.\n", flush=True)
        supervise(cluster)
    except KeyboardInterrupt:
        print("\nStopping the cluster.")
    except ClusterError as error:
        print(f"cluster: {error}", file=sys.stderr)
        return 1
    finally:
        cluster.stop()
        STATE_FILE.unlink(missing_ok=True)
    return 0


def supervise(cluster: Cluster) -> None:
    """Until Ctrl-C; says when an app server exits (nginx sends its requests to the others),
    gives up when nginx or every app server is gone."""
    while True:
        time.sleep(0.5)
        for index, process in enumerate(cluster.apps):
            if process is not None and process.poll() is not None:
                print(f"app server {INSTANCES[index]} exited with code {process.returncode}")
                cluster.apps[index] = None
        if cluster.nginx.poll() is not None:
            raise ClusterError(f"nginx exited; see {cluster.log('nginx-error')}")
        if not any(cluster.apps):
            raise ClusterError("every app server has exited")


def write_state(cluster: Cluster) -> None:
    processes = {name: p.pid for name, p in cluster.processes().items() if p is not None}
    state = {"pid": os.getpid(), "url": cluster.url, "run_dir": str(cluster.run_dir)}
    state["app_urls"] = [cluster.app_url(i) for i in range(len(INSTANCES))]
    state["processes"] = processes
    STATE_FILE.write_text(json.dumps(state, indent=2))


def read_state() -> dict | None:
    try:
        return json.loads(STATE_FILE.read_text())
    except (OSError, ValueError):
        return None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def command_status(args: argparse.Namespace) -> int:
    state = read_state()
    if not state or not alive(state["pid"]):
        print("No cluster is running.")
        return 1
    print(f"Cluster (pid {state['pid']}): {state['url']}, logs in {state['run_dir']}")
    for name, pid in state["processes"].items():
        print(f"  {name:<6} pid {pid}: {'running' if alive(pid) else 'exited'}")
    for url in [state["url"], *state["app_urls"]]:
        try:
            with urlopen(f"{url}/", timeout=5) as response:
                answer = response.status
        except HTTPError as error:
            answer = error.code
        except OSError as error:
            answer = f"no answer ({error})"
        print(f"  GET {url}/ -> {answer}")
    return 0


def command_stop(args: argparse.Namespace) -> int:
    state = read_state()
    if not state or not alive(state["pid"]):
        print("No cluster is running.")
        STATE_FILE.unlink(missing_ok=True)
        return 0
    os.kill(state["pid"], signal.SIGTERM)
    deadline = time.monotonic() + 60
    while alive(state["pid"]) and time.monotonic() < deadline:
        time.sleep(0.2)
    print("Cluster stopped." if not alive(state["pid"]) else "The cluster is still stopping.")
    return 0


def command_check(args: argparse.Namespace) -> int:
    problems = shared_state_problems()
    if args.json:
        print(json.dumps(problems))
        return 0
    print("\n".join(problems) or "Nothing lives in one process: app servers can be added.")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    start = commands.add_parser("start", help="prepare and run the cluster in the foreground")
    start.add_argument("--port", type=int, default=int(os.environ.get("CLUSTER_PORT", "8080")))
    start.add_argument(
        "--database-url", default=os.environ.get("CLUSTER_DATABASE_URL", DEFAULT_DATABASE_URL)
    )
    start.add_argument(
        "--redis-url", default=os.environ.get("CLUSTER_REDIS_URL", DEFAULT_REDIS_URL)
    )
    start.add_argument("--workers", type=int, help="per app server (default: gunicorn.conf.py)")
    start.set_defaults(handler=command_start)
    commands.add_parser("status", help="what runs").set_defaults(handler=command_status)
    commands.add_parser("stop", help="stop a running cluster").set_defaults(handler=command_stop)
    check = commands.add_parser("check", help="does any state live in one process?")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=command_check)
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
