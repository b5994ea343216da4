"""`make run` and its set-up: what it runs, when it starts the fake Stripe, what it installs.

The run itself, in Chromium: tests/e2e/test_newcomer.py.
"""

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import environ
import pytest

from scripts import run
from scripts.servers import free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("variables", "wanted"),
    [
        ({"DEBUG": "1"}, True),
        ({"DEBUG": "true", "STRIPE_SECRET_KEY": ""}, True),
        ({"DEBUG": "0"}, False),  # production settings never start it
        ({}, False),
        ({"DEBUG": "1", "STRIPE_SECRET_KEY": "sk_test_own"}, False),  # keys of one's own win
    ],
)
def test_the_fake_stripe_only_in_development_without_keys(monkeypatch, variables, wanted):
    for name in ("DEBUG", "STRIPE_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)

    assert run.fake_stripe_wanted(environ.Env()) is wanted


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({}, "http://127.0.0.1:8123"),  # the port it serves on
        ({"SITE_URL": ""}, "http://127.0.0.1:8123"),
        ({"SITE_URL": "https://shop.example.com"}, "https://shop.example.com"),  # set: kept
    ],
)
def test_site_url_follows_the_port_unless_set(monkeypatch, variables, expected):
    monkeypatch.delenv("SITE_URL", raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)

    assert run.site_url(environ.Env(), 8123) == expected


def make_dry_run(*targets: str) -> list[str]:
    """The commands `make` would run (nothing is run), also when the tests run under `make`."""
    # Under `make test ARGS=...` (as .ci/run calls it) make passes ARGS down in the environment too.
    inherited = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "ARGS"}
    env = {k: v for k, v in os.environ.items() if k not in inherited}
    result = subprocess.run(
        ["make", "-n", "-B", "--no-print-directory", *targets],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_make_run_runs_the_run_script_on_the_port():
    commands = make_dry_run("run", "PORT=18123")

    assert commands[-1] == ".venv/bin/python -m scripts.run --port 18123"
    installs = [line for line in commands if "pip install" in line]
    assert any("-r requirements-run.txt" in line for line in installs)
    assert not any("requirements-dev.txt" in line for line in installs)  # no test tools


def test_npm_installs_exactly_the_lock_file():
    commands = make_dry_run("frontend/node_modules/.installed")

    assert "cd frontend && npm ci --no-audit --no-fund" in commands
    assert not any("npm install" in line for line in commands)


def test_the_lock_file_is_complete():
    """Every optional package (each platform's build of esbuild, Biome, Tailwind's engine…)
    has its entry: `npm ci` installs from it as it stands and never rewrites it."""
    lock = json.loads((ROOT / "frontend" / "package-lock.json").read_text())
    packages = lock["packages"]

    missing = [
        f"{name} of {path}"
        for path, package in packages.items()
        for name in package.get("optionalDependencies", {})
        if f"node_modules/{name}" not in packages
    ]
    assert missing == []
    assert "node_modules/@esbuild/darwin-arm64" in packages


def test_the_docker_image_installs_neither_the_fake_stripe_nor_the_test_tools():
    dockerfile = (ROOT / "Dockerfile").read_text()

    assert "pip install -r requirements.txt" in dockerfile
    assert "requirements-run" not in dockerfile
    assert "requirements-dev" not in dockerfile
    assert "npm ci" in dockerfile
    assert "localstripe" not in (ROOT / "requirements.txt").read_text()


# --- Stopping it: everything it started stops too ------------------------------------------

# What a newcomer's shell has: none of the tests' settings.
KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TERM")


def descendants(pid: int) -> set[int]:
    """Every process under `pid` (children, theirs, ...), from /proc."""
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = {int(p) for p in (task / "children").read_text().split()}
            except OSError:  # gone meanwhile
                continue
            todo.extend(children - found)
            found |= children
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie (a zombie has stopped; only its exit code waits to be read)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    """A checkout's `.env` (written by the Makefile's rule) and a SQLite database of its own."""
    folder = tmp_path_factory.mktemp("make-run")
    subprocess.run(
        ["make", "-s", "-f", str(ROOT / "Makefile"), "-C", str(folder), ".env"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return folder


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


class Run:
    """scripts/run.py as `make run` starts it; the processes under it, seen so far."""

    def __init__(self, folder: Path, **settings: str):
        env = {name: os.environ[name] for name in KEPT if name in os.environ}
        env |= {"ENV_FILE": str(folder / ".env")}
        env |= {"DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}", **settings}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scripts.run", "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self.started: set[int] = set()
        threading.Thread(target=self.lines.extend, args=(self.process.stdout,), daemon=True).start()

    def wait_until(self, ready, timeout: float = 240) -> None:
        """Until `ready()` (noting the processes under it meanwhile)."""
        deadline = time.monotonic() + timeout
        while not ready():
            self.started |= descendants(self.process.pid)
            assert self.process.poll() is None, "stopped early:\n" + "".join(self.lines)
            assert time.monotonic() < deadline, "".join(self.lines)
            time.sleep(0.02)

    def serving(self) -> bool:
        """It printed its last line (the demo accounts)."""
        return any(line.startswith("  Shopper:") for line in self.lines)

    def fake_stripe_starting(self) -> bool:
        return any("fake_stripe_server" in cmdline(pid) for pid in self.started)

    def stop(self, sig: int) -> None:
        """`sig` to the script alone, as a process manager does; until it has exited."""
        os.kill(self.process.pid, sig)
        deadline = time.monotonic() + 60
        while self.process.poll() is None and time.monotonic() < deadline:
            self.started |= descendants(self.process.pid)
            time.sleep(0.02)
        assert self.process.poll() is not None, f"still running {60} s after {sig!r}"

    def left_running(self) -> set[int]:
        deadline = time.monotonic() + 10  # the last ones may still be on their way out
        while {pid for pid in self.started if running(pid)} and time.monotonic() < deadline:
            time.sleep(0.1)
        return {pid for pid in self.started if running(pid)}

    def kill_all(self) -> None:
        for pid in self.started:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.kill()
        self.process.wait()


@pytest.mark.slow  # scripts/run.py with the development server and the fake Stripe
@pytest.mark.parametrize(
    ("sig", "moment"),
    [
        (signal.SIGTERM, "serving"),  # a process manager stops it
        (signal.SIGHUP, "serving"),  # its terminal is closed
        (signal.SIGTERM, "fake_stripe_starting"),  # stopped while it starts up
    ],
    ids=["SIGTERM", "SIGHUP", "SIGTERM-while-starting"],
)
def test_a_signal_to_make_run_stops_everything_it_started(run_folder, sig, moment):
    run = Run(run_folder)
    try:
        run.wait_until(getattr(run, moment))
        if moment == "serving":
            # runserver, its autoreloader's child and the fake Stripe, each group its own.
            assert len(run.started) >= 3, "".join(run.lines)

        run.stop(sig)

        assert run.left_running() == set(), {pid: cmdline(pid) for pid in run.left_running()}
    finally:
        run.kill_all()


# --- DEBUG off: the static files are collected --------------------------------------------


def test_static_files_are_stale_until_collected_and_again_after_a_change(settings):
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"  # the tests' empty STATIC_ROOT
    manifest.unlink(missing_ok=True)
    assert run.static_files_stale()  # never collected

    manifest.write_text("{}")
    assert not run.static_files_stale()  # written after every source file

    os.utime(manifest, (1, 1))  # a source file is newer than the manifest now
    assert run.static_files_stale()
    manifest.unlink()


@pytest.mark.slow  # scripts/run.py, collectstatic (when the checkout's copy is stale)
def test_make_run_with_debug_off_serves_its_pages_and_static_files(run_folder):
    production = {"DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0"}
    served = Run(run_folder, **production)
    try:
        served.wait_until(served.serving, timeout=600)  # collecting compresses every file

        home = urllib.request.urlopen(served.url + "/", timeout=30)
        favicon = re.search(
            r'href="(/static/img/favicon\.[0-9a-f]{12}\.svg)"', home.read().decode()
        )
        assert favicon, "no hashed favicon URL on the home page"
        assert urllib.request.urlopen(served.url + favicon[1], timeout=30).status == 200
        assert urllib.request.urlopen(served.url + "/parts/1", timeout=30).status == 200
    finally:
        served.stop(signal.SIGTERM)
        served.kill_all()

    again = Run(run_folder, **production)  # nothing changed since: nothing is collected
    try:
        again.wait_until(again.serving)
        assert not any("collectstatic" in line for line in again.lines), "".join(again.lines)
    finally:
        again.stop(signal.SIGTERM)
        again.kill_all()
