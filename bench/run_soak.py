"""Soak harness: a fresh shop on PostgreSQL behind gunicorn, a load run, a reconciliation.

1. creates an empty PostgreSQL database (on the server of DATABASE_URL, or 127.0.0.1:5432),
   migrates it and imports SOAK_PARTS (known stock) with `manage.py import_parts`;
2. starts gunicorn on a free loopback port (DEBUG=0, SECURE_SSL_REDIRECT=0, WORKERS workers,
   the API's throttle rates raised so the shoppers of one address are not refused);
3. signs up a shop admin (POST /api/signup, then `manage.py make_admin`);
4. runs bench/soak.py (USERS shoppers for SECONDS seconds);
5. reconciles again in the database: for every part, remaining stock + ordered quantities =
   the stock imported, and no stock below zero; counts the tracebacks in gunicorn's log;
6. stops gunicorn and drops the database.

    python -m bench.run_soak --users 50 --seconds 60      # make soak

Exit status 0 only when there was no 5xx, no failed connection, no traceback and both
reconciliations are exact.
"""

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

from bench import soak
from bench.lib.server import Gunicorn

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
ADMIN_EMAIL = "soak-admin@example.com"
ADMIN_PASSWORD = "soak-admin-password"
HIGH_RATE = "1000000/minute"
# The API's throttles (core/throttles.py), raised: every shopper comes from 127.0.0.1.
THROTTLES_OFF = dict.fromkeys(
    ("THROTTLE_SIGNUP", "THROTTLE_TOKEN", "THROTTLE_TOKEN_REFRESH", "THROTTLE_ORDERS"), HIGH_RATE
)
# Two parts with little stock (shoppers race for the last units), the rest plenty.
SOAK_PARTS = [
    {
        "name": f"Soak part {n}",
        "description": "A part for the soak run.",
        "price": f"{5 + 3 * n}.50",
        "minimumOrderQuantity": 1 + n % 3,
        "availableQuantity": 25 if n < 2 else 100_000,
        "img": "",
    }
    for n in range(8)
]


# --- Building blocks (tests/test_faults.py uses them too) --------------------------------


def postgres_server(database_url: str | None = None) -> str:
    """A PostgreSQL URL on the server to use: DATABASE_URL's when it is PostgreSQL."""
    url = database_url if database_url is not None else os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else DEFAULT_SERVER


def with_database(url: str, name: str) -> str:
    return urlsplit(url)._replace(path=f"/{name}").geturl()


@contextmanager
def fresh_database(server_url: str, name: str) -> Iterator[str]:
    """An empty database `name` on that server (dropped first if left over); its URL.
    Dropped again afterwards."""
    maintenance = with_database(server_url, "postgres")

    def run(sql: str) -> None:
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(sql)

    run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    run(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(server_url, name)
    finally:
        run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
    )
    env.update(extra)
    return env


def manage(*args: str, env: dict[str, str]) -> str:
    """Run manage.py; its output, or RuntimeError with it when it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def http(method: str, url: str, payload: dict | None = None, token: str | None = None):
    """(status, JSON body or None) of one request."""
    data = json.dumps(payload).encode() if payload is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, _body(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _body(error.read())


def _body(raw: bytes):
    try:
        return json.loads(raw)
    except ValueError:
        return None


# --- The soak run --------------------------------------------------------------------------


@dataclass
class Outcome:
    figures: soak.Figures
    database_mismatches: list = field(default_factory=list)
    tracebacks: int = 0

    @property
    def ok(self) -> bool:
        return self.figures.ok and not self.database_mismatches and self.tracebacks == 0


def database_mismatches(database_url: str, parts: list[dict]) -> list[str]:
    """Per imported part: stock + ordered quantities = the stock imported; no stock below 0."""
    query = """
        SELECT p.name, p.available_quantity, COALESCE(SUM(b.quantity), 0)
        FROM catalog_part p LEFT JOIN orders_booking b ON b.part_id = p.id
        GROUP BY p.id, p.name, p.available_quantity
    """
    with psycopg.connect(database_url) as conn:
        rows = {name: (stock, ordered) for name, stock, ordered in conn.execute(query)}
    problems = []
    for part in parts:
        stock, ordered = rows.get(part["name"], (None, 0))
        if stock is None or stock < 0 or stock + ordered != part["availableQuantity"]:
            problems.append(
                f"{part['name']}: stock {stock} + ordered {ordered} != {part['availableQuantity']}"
            )
    return problems


def create_admin(base_url: str, env: dict[str, str]) -> None:
    payload = {"name": "Soak Admin", "email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
    status, body = http("POST", f"{base_url}/api/signup", payload)
    if status != 201:
        raise RuntimeError(f"admin sign-up failed: {status} {body}")
    manage("make_admin", ADMIN_EMAIL, env=env)


def run(
    users: int = 50, seconds: float = 60, workers: int = 4, database_url: str | None = None
) -> Outcome:
    name = f"shop_soak_{os.getpid()}"
    with (
        tempfile.TemporaryDirectory() as tmp,
        fresh_database(postgres_server(database_url), name) as url,
    ):
        env = shop_env(url, **THROTTLES_OFF)
        manage("migrate", "--noinput", env=env)
        parts_file = Path(tmp) / "parts.json"
        parts_file.write_text(json.dumps(SOAK_PARTS))
        manage("import_parts", str(parts_file), env=env)
        server = Gunicorn(
            env=env, log=Path(tmp) / "gunicorn.log", workers=workers, ready="/api/allparts"
        ).start()
        try:
            create_admin(server.url, env)
            config = soak.Config(server.url, users, seconds, ADMIN_EMAIL, ADMIN_PASSWORD)
            figures = asyncio.run(soak.soak(config))
        finally:
            server.stop()
        tracebacks = server.log_text().count("Traceback")
        if tracebacks:
            print(server.log_text()[-5000:], file=sys.stderr)
        return Outcome(figures, database_mismatches(url, SOAK_PARTS), tracebacks)


def report(outcome: Outcome) -> str:
    lines = [soak.report(outcome.figures)]
    verdict = "exact" if not outcome.database_mismatches else "MISMATCH"
    lines.append(
        f"  database check      {verdict}: stock + ordered = imported stock, for "
        f"{len(SOAK_PARTS)} parts"
    )
    lines += [f"    {problem}" for problem in outcome.database_mismatches]
    lines.append(f"  server tracebacks   {outcome.tracebacks}")
    lines.append("  verdict             " + ("PASS" if outcome.ok else "FAIL"))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--database-url", help="a PostgreSQL URL on the server to use")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    outcome = run(args.users, args.seconds, args.workers, args.database_url)
    print(report(outcome))
    if args.json:
        Path(args.json).write_text(json.dumps(as_json(outcome), indent=2))
    return 0 if outcome.ok else 1


def as_json(outcome: Outcome) -> dict:
    return {
        **soak.as_json(outcome.figures),
        "database_mismatches": outcome.database_mismatches,
        "tracebacks": outcome.tracebacks,
        "verdict": "pass" if outcome.ok else "fail",
    }


if __name__ == "__main__":
    sys.exit(main())
