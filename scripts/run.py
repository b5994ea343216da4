"""`make run`: the shop on http://127.0.0.1:PORT from a development checkout, as a newcomer
tries it (settings from the environment, then `.env`, as the shop reads them).

1. `migrate`, then the demo data when the shop has no parts (`seed_demo --if-empty`); with
   DEBUG off, `collectstatic` when the collected files are missing or older than a source
   (pages then name their static files through its manifest, and whitenoise serves them);
2. in development (DEBUG on) without a Stripe secret key, the fake Stripe server
   (scripts/fake_stripe.py: localstripe on a free loopback port), with the development server's
   STRIPE_* pointed at it, so the test card 4242 4242 4242 4242 pays an order; with DEBUG off
   or with keys set, nothing of the kind;
3. Django's development server on 127.0.0.1:PORT, with SITE_URL = http://127.0.0.1:PORT
   unless SITE_URL is set, so the links in pages and mail use that port;
4. once it accepts connections: how to pay, then the demo accounts, the last lines printed.

Ctrl-C, SIGTERM (a process manager) or SIGHUP (its terminal closed) stops the development
server and the fake Stripe, each in a process group of its own, at any moment of the run.
"""

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import django
import environ

from scripts.fake_stripe import PUBLISHABLE_KEY, SECRET_KEY, FakeStripe
from scripts.servers import ROOT, terminate

ACCOUNTS_HEADING = "Demo accounts:"  # seed_demo's; what follows it is printed last
TEST_CARDS = (
    "pay with the test card 4242 4242 4242 4242, expiry 12 / 30 (month, two-digit year), "
    "CVC 123;\n  4000 0000 0000 0341 is declined."
)


def dotenv_read() -> None:
    """`.env` (or ENV_FILE) into this process's environment, where a variable is not set:
    the shop's settings read it the same way."""
    env_file = os.environ.get("ENV_FILE", str(ROOT / ".env"))
    if env_file and os.path.isfile(env_file):
        environ.Env.read_env(env_file)


def fake_stripe_wanted(env: environ.Env) -> bool:
    """Development (DEBUG on) without a Stripe secret key of its own."""
    return env.bool("DEBUG", default=False) and not env.str("STRIPE_SECRET_KEY", default="")


def site_url(env: environ.Env, port: int) -> str:
    """SITE_URL when it is set (environment or .env), else the address this run serves on."""
    return env.str("SITE_URL", default="") or f"http://127.0.0.1:{port}"


def manage(*args: str, env: dict[str, str], capture: bool = False) -> str:
    """Run manage.py; its output when captured. Exits like it when it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE if capture else None,
        text=True,
    )
    if result.returncode:
        if capture:
            print(result.stdout, end="")
        sys.exit(result.returncode)
    return result.stdout or ""


def seed(env: dict[str, str]) -> str:
    """The demo data when the shop is empty; prints what seed_demo says up to its accounts,
    returns the accounts (to be printed last)."""
    color = ["--force-color"] if sys.stdout.isatty() else []
    out = manage("seed_demo", "--if-empty", *color, env=env, capture=True)
    before, heading, accounts = out.partition(ACCOUNTS_HEADING)
    print(before, end="", flush=True)
    return heading + accounts


def static_files_stale() -> bool:
    """Whether `collectstatic` must run: its manifest is missing, or a file it collects (the
    front-end build, the apps' static folders) changed since it was written."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
    django.setup()
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders

    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if not manifest.exists():
        return True
    collected = manifest.stat().st_mtime
    return any(
        os.path.getmtime(storage.path(path)) > collected
        for finder in get_finders()
        for path, storage in finder.list(["CVS", ".*", "*~"])
    )


def collect_static(env: dict[str, str]) -> None:
    """With DEBUG off, the static files collected when needed: without them every page is a
    500 ("The file 'img/favicon.svg' could not be found")."""
    if environ.Env().bool("DEBUG", default=False) or not static_files_stale():
        return
    print("Collecting static files (DEBUG is off): manage.py collectstatic", flush=True)
    manage("collectstatic", "--noinput", "-v", "0", env=env)


def wait_listening(port: int, server: subprocess.Popen, timeout: float = 120) -> None:
    """Until the development server accepts connections (it has printed its banner then)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(server.returncode)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"The development server did not answer on port {port} within {timeout:.0f} s.")


def payments_note(env: dict[str, str], fake: FakeStripe | None) -> str:
    if fake:
        return (
            f"Card payments go to a fake Stripe on this machine (localstripe, {fake.url}):\n"
            f"  {TEST_CARDS}"
        )
    if env.get("STRIPE_SECRET_KEY"):
        return "Card payments go to Stripe, with the keys of the environment or .env."
    return "Card payments are off: no Stripe keys (see docs/operations.md, Card payments)."


class Stopping:
    """Ctrl-C, SIGTERM and SIGHUP end this script through the `finally` that stops the servers
    (they run in groups of their own: no signal reaches them but from here). `held()` defers
    a signal while a server is being started, so none is started unknown to that `finally`;
    `ignore()` while they are stopped, so a second signal cannot cut that short. Set even
    where SIGHUP was ignored (nohup): else nothing would stop the servers then."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def __init__(self) -> None:
        self.holding = False
        self.deferred: int | None = None
        for sig in self.SIGNALS:
            signal.signal(sig, self.handle)

    def handle(self, number: int, _frame) -> None:
        if self.holding:
            self.deferred = number
        else:
            self.stop(number)

    @staticmethod
    def stop(number: int) -> None:
        if number == signal.SIGINT:
            raise KeyboardInterrupt
        sys.exit(128 + number)

    @contextmanager
    def held(self) -> Iterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            if self.deferred is not None:
                self.stop(self.deferred)

    def ignore(self) -> None:
        for sig in self.SIGNALS:
            signal.signal(sig, signal.SIG_IGN)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="make run: the shop for development")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
    port = parser.parse_args(argv).port
    stopping = Stopping()
    dotenv_read()
    settings = environ.Env()
    site = site_url(settings, port)
    env = {**os.environ, "SITE_URL": site, "PYTHONUNBUFFERED": "1"}

    manage("migrate", "--noinput", env=env)
    accounts = seed(env)
    collect_static(env)

    fake = server = None
    try:
        if fake_stripe_wanted(settings):
            with stopping.held():  # a second or two, until it answers
                fake = FakeStripe().start()
            # A secret of this run's own: events of any other fake Stripe are refused.
            webhook_secret = f"whsec_{secrets.token_hex(16)}"
            fake.add_webhook(f"http://127.0.0.1:{port}/api/stripe/webhook", webhook_secret)
            env.update(
                STRIPE_SECRET_KEY=SECRET_KEY,
                STRIPE_PUBLISHABLE_KEY=PUBLISHABLE_KEY,
                STRIPE_WEBHOOK_SECRET=webhook_secret,
                STRIPE_API_BASE=fake.url,
                STRIPE_JS_URL=fake.js_url,
            )
        # A process group of its own: this script stops it (and its autoreloader's child).
        with stopping.held():
            server = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        wait_listening(port, server)
        print(f"\nThe shop: http://127.0.0.1:{port}/ (links in pages and mail: {site})")
        print(payments_note(env, fake))
        print(accounts, end="", flush=True)
        return server.wait()
    except KeyboardInterrupt:
        return 130
    finally:
        stopping.ignore()
        terminate(server, timeout=10)
        if fake:
            fake.stop()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C while migrating or seeding
        sys.exit(130)
