"""The one place that starts the shop's servers for the benchmark, the load run and the tests.

- `Gunicorn`: one app server (deploy/gunicorn.conf.py) on a free loopback port;
- `Cluster`: the topology of deploy/Procfile.cluster (nginx before two gunicorns), prepared by
  scripts/cluster.py and run by honcho, one honcho per Procfile entry (see `Cluster`).

Both wait until `/health/` (django-health-check: database and cache) answers 200, and run in
process groups of their own, so stopping one stops its children too and nothing else.
"""

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

ROOT = Path(__file__).resolve().parents[1]
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
HEALTH = "/health/"
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
# The commands of the virtualenv this runs in (gunicorn, honcho) come first on PATH.
VENV_BIN = str(Path(sys.executable).parent)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str, timeout: float = 5) -> int:
    """The status of a GET (any status, no exception for 4xx/5xx)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def wait_healthy(url: str, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    """Until GET `url` answers 200; fails when `process` exits first or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited ({process.returncode}) before {url} answered: see {log}")
        try:
            if get(url, timeout=2) == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer 200 within {timeout:.0f} s: see {log}")


def spawn(command: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen:
    """`command` in the project folder, output into `log`, in a process group of its own."""
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env={**env, "PATH": f"{VENV_BIN}:{env.get('PATH', os.defpath)}"},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def terminate(
    process: subprocess.Popen | None, timeout: float = 40, group: bool = True
) -> int | None:
    """SIGTERM (SIGKILL when it lingers) to the process's group, or to the process alone when it
    stops its own children (honcho); its exit code."""
    if process is None:
        return None
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5)):
        if process.poll() is not None:
            break
        try:
            os.killpg(process.pid, sig) if group else process.send_signal(sig)
        except ProcessLookupError:
            break
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    return process.wait()


# --- Databases and settings -----------------------------------------------------------------


def postgres_server(database_url: str | None = None) -> str:
    """A PostgreSQL URL on the server to use: DATABASE_URL's when it is PostgreSQL."""
    url = database_url if database_url is not None else os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else DEFAULT_POSTGRES


def with_path(url: str, path: str) -> str:
    """`url` with its path replaced: another database or Redis db on the same server."""
    return urlsplit(url)._replace(path=path).geturl()


def create_database(url: str, *, fresh: bool = True) -> None:
    """The database named in `url`: dropped and created (`fresh`), or created when missing."""
    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(with_path(url, "/postgres"), autocommit=True, connect_timeout=5) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def fresh_database(server_url: str, name: str) -> Iterator[str]:
    """An empty database `name` on that server (dropped first if left over); its URL.
    Dropped again afterwards."""
    url = with_path(server_url, f"/{name}")
    create_database(url)
    try:
        yield url
    finally:
        with psycopg.connect(with_path(url, "/postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def shop_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a production-like shop on loopback, without the test runner's."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(40),
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
    )
    env.update(extra)
    return env


def manage(*args: str, env: dict[str, str], timeout: float = 300) -> str:
    """Run manage.py; its output, or RuntimeError with it when it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


# --- One app server -------------------------------------------------------------------------


class Gunicorn:
    """gunicorn serving the shop with the production configuration on a loopback port.

    `with Gunicorn(env=..., log=...) as server:` or `server = Gunicorn(...).start()`, then
    `server.url` until `server.stop()`. `app` and `health` serve another WSGI application
    the same way (the benchmark's bare project: `bench.bare.wsgi`, healthy when `/` answers).
    """

    WORKERS = 2

    def __init__(
        self,
        *,
        env: dict[str, str],
        log: Path,
        workers: int = WORKERS,
        app: str = "shop.wsgi",
        health: str = HEALTH,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app, self.health = app, health
        self.env = {
            **env,
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_NAME": f"{app.split('.')[0]}-under-test",
        }
        self.log = log
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Gunicorn":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def start(self, timeout: float = 60) -> "Gunicorn":
        self.log.unlink(missing_ok=True)
        command = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), self.app]
        self.process = spawn(command, env=self.env, log=self.log)
        try:
            wait_healthy(self.url + self.health, self.process, self.log, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout: float = 15) -> None:
        terminate(self.process, timeout)

    def worker_pids(self) -> list[int]:
        """The worker processes (the master's children)."""
        if not self.alive:
            return []
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]


# --- The cluster ----------------------------------------------------------------------------


class Cluster:
    """deploy/Procfile.cluster with the environment scripts/cluster.py prepared (`env_file`).

    honcho stops every process of a Procfile when one of them exits (foreman's rule), which is
    right for `make cluster` but would end the whole cluster when a test stops one app server.
    So each Procfile entry runs under a honcho of its own (`honcho start app_a`): the same
    Procfile, the same environment file, and one app server can stop while nginx and the
    other go on. `stop_app` signals the gunicorn master by the pid it writes
    ($CLUSTER_RUN/<name>.pid), as an operator would.
    """

    PROCFILE = ROOT / "deploy" / "Procfile.cluster"
    APPS = ("app_a", "app_b")

    def __init__(self, env: dict[str, str]):
        self.env = env  # what scripts/cluster.py prepared: ports, run folder, settings
        self.run_dir = Path(env["CLUSTER_RUN"])
        self.url = f"http://127.0.0.1:{env['CLUSTER_PORT']}"
        self.app_ports = [int(env["APP_A_PORT"]), int(env["APP_B_PORT"])]
        self.honchos: dict[str, subprocess.Popen] = {}

    def app_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.app_ports[index]}"

    def log(self, name: str) -> Path:
        return self.run_dir / f"{name}.log"

    def start_process(self, name: str, health_url: str) -> None:
        command = [sys.executable, "-m", "honcho", "--no-colour", "-f", str(self.PROCFILE)]
        command += ["-e", str(self.run_dir / "cluster.env"), "start", name]
        self.honchos[name] = spawn(command, env={**os.environ}, log=self.log(name))
        wait_healthy(health_url, self.honchos[name], self.log(name))

    def start(self) -> "Cluster":
        try:
            for index, name in enumerate(self.APPS):
                self.start_process(name, self.app_url(index) + HEALTH)
            self.start_process("nginx", self.url + HEALTH)
        except BaseException:
            self.stop()
            raise
        return self

    def start_app(self, index: int) -> None:
        self.start_process(self.APPS[index], self.app_url(index) + HEALTH)

    def stop_app(self, index: int, sig: int = signal.SIGTERM, timeout: float = 40) -> int:
        """Signal one app server's gunicorn master by its pid file; honcho's exit code once it
        is gone (gunicorn's: 0 after a clean shutdown)."""
        name = self.APPS[index]
        pid = int((self.run_dir / f"{name}.pid").read_text())
        os.kill(pid, sig)
        honcho = self.honchos.pop(name)
        try:
            return honcho.wait(timeout)
        except subprocess.TimeoutExpired:
            return terminate(honcho, group=False)

    def stop(self) -> None:
        """nginx first (it finishes the requests in hand), then the app servers."""
        for name in ("nginx", *self.APPS):
            terminate(self.honchos.pop(name, None), group=False)
