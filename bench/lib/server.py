"""The app server under test: gunicorn with the production configuration, always stopped."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "gunicorn.conf.py"


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


class Gunicorn:
    """gunicorn serving the shop with the production configuration on a loopback port.

    `with Gunicorn(env=..., log=...) as server:` or `server = Gunicorn(...).start()`, then
    `server.url` until `server.stop()`. gunicorn runs in a process group of its own, so
    stopping it stops its workers too and nothing else.
    """

    WORKERS = 2

    def __init__(self, *, env: dict[str, str], log: Path, workers: int = WORKERS, ready: str = "/"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **env,
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_NAME": "shop-under-test",
        }
        self.log = log
        self.ready = ready
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
        command = [sys.executable, "-m", "gunicorn", "-c", str(CONFIG), "shop.wsgi"]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}): see {self.log}")
            try:
                if get(self.url + self.ready, timeout=2) == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer {self.ready} within {timeout} s: {self.log}")

    def stop(self, timeout: float = 15) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.process.wait(wait)
                return
            except subprocess.TimeoutExpired:
                continue
