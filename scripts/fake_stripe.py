"""localstripe, the fake Stripe server, on loopback: what `make run` pays with in development
(DEBUG on, no Stripe keys) and what the tests pay with.

`FakeStripe().start()` serves it on a free port of 127.0.0.1 (scripts/fake_stripe_server.py:
localstripe's own server, with the browser's side of Stripe completed) and waits until it
answers; `stop()` ends it. Its URLs go to STRIPE_API_BASE and STRIPE_JS_URL.
"""

import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

from scripts.servers import ROOT, free_port, terminate

PUBLISHABLE_KEY = "pk_test_shop"
SECRET_KEY = "sk_test_shop"
WEBHOOK_SECRET = "whsec_test_shop"
JS_PATH = "/js.stripe.com/v3/"


class FakeStripe:
    """One fake Stripe server on a loopback port: start(), its URLs, stop().

    `log`: a file for its output (None: discarded). It runs in a process group of its own.
    """

    def __init__(self, port: int | None = None, log: Path | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.js_url = f"{self.url}{JS_PATH}"
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 20) -> "FakeStripe":
        command = [sys.executable, "-m", "scripts.fake_stripe_server", "--port", str(self.port)]
        out = self.log.open("ab") if self.log else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            if self.log:
                out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                urlopen(self.js_url, timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the fake Stripe server did not answer on {self.url}")

    def add_webhook(self, url: str, secret: str, name: str = "shop") -> None:
        """Send Stripe's events to `url`, signed with `secret` (localstripe's `_config` API)."""
        body = f"url={url}&secret={secret}".encode()
        urlopen(f"{self.url}/_config/webhooks/{name}", data=body, timeout=5).close()

    def stop(self) -> None:
        terminate(self.process, timeout=10)
