"""localstripe, a fake but stateful Stripe server, run on loopback for the tests."""

import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

PUBLISHABLE_KEY = "pk_test_shop"
SECRET_KEY = "sk_test_shop"
WEBHOOK_SECRET = "whsec_test_shop"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class FakeStripe:
    """One localstripe process: start(), its URLs, stop()."""

    def __init__(self):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.js_url = f"{self.url}/js.stripe.com/v3/"
        self.process = None

    def start(self) -> "FakeStripe":
        executable = Path(sys.executable).with_name("localstripe")
        self.process = subprocess.Popen(
            [str(executable), "--port", str(self.port), "--from-scratch"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urlopen(self.js_url, timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("localstripe did not start")

    def stop(self) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
