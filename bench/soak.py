"""Soak run: N virtual shoppers for T seconds against a running shop, then a reconciliation.

Each shopper signs up (POST /api/signup), then until the time is up: browses (/, /allparts,
GET /api/allparts), orders a random part (POST /api/booking), sometimes cancels one of its
orders (DELETE /api/booking/<id>), sometimes lists its orders or signs in again
(POST /api/token). Every answer's status and latency is recorded.

Afterwards, as the shop admin, through the API:
  - stock: for every part, the quantities of its existing orders + its remaining stock equal
    the same sum taken before the run (the initial stock: nothing created or lost);
  - orders: the orders of this run's shoppers are exactly those answered 201 and not
    cancelled (no lost order, no order the shopper was not told about).

Bounded: loopback addresses only, at most MAX_USERS shoppers, MAX_SECONDS seconds and
--max-requests requests. Exit status 1 on any 5xx, failed connection or mismatch.

    python -m bench.soak --base-url http://127.0.0.1:8000 --users 50 --seconds 60 \\
        --admin-email admin@example.com --admin-password …

bench/run_soak.py sets up a shop to run it against (make soak).
"""

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from urllib.parse import urlsplit

import aiohttp

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
MAX_USERS = 500
MAX_SECONDS = 900
PASSWORD = "soak-password-1"
CANCEL_CHANCE = 0.35
LIST_CHANCE = 0.1
SIGN_IN_CHANCE = 0.05
REQUEST_TIMEOUT = 60  # seconds: a request slower than this counts as failed


@dataclass
class Config:
    base_url: str
    users: int
    seconds: float
    admin_email: str
    admin_password: str
    max_requests: int = 200_000
    think: float = 0.05  # seconds a shopper waits between steps, at most (random)
    seed: int = 0


@dataclass
class Figures:
    """What the run measured; `ok` is the verdict."""

    users: int = 0
    seconds: float = 0.0
    requests: int = 0
    statuses: dict = field(default_factory=dict)
    server_errors: int = 0
    failed_connections: int = 0
    throttled: int = 0
    orders_placed: int = 0
    orders_cancelled: int = 0
    orders_refused: int = 0
    latency_p50_ms: float = 0.0
    latency_p95_ms: float = 0.0
    latency_max_ms: float = 0.0
    routes: dict = field(default_factory=dict)
    parts_checked: int = 0
    stock_mismatches: list = field(default_factory=list)
    order_mismatches: list = field(default_factory=list)

    @property
    def reconciled(self) -> bool:
        return self.parts_checked > 0 and not self.stock_mismatches and not self.order_mismatches

    @property
    def ok(self) -> bool:
        return self.server_errors == 0 and self.failed_connections == 0 and self.reconciled


class Recorder:
    """Statuses and latencies per route ("POST /api/booking"), and the request budget."""

    def __init__(self, max_requests: int, deadline: float):
        self.max_requests = max_requests
        self.deadline = deadline
        self.count = 0
        self.statuses: Counter = Counter()
        self.latencies: dict[str, list[float]] = defaultdict(list)

    def may_send(self) -> bool:
        return self.count < self.max_requests and time.monotonic() < self.deadline

    def record(self, route: str, status: int | str, seconds: float) -> None:
        self.statuses[status] += 1
        self.latencies[route].append(seconds)


class Api:
    """One aiohttp session; every call is recorded. Returns (status, body); status 0 when the
    connection failed or timed out."""

    def __init__(self, session: aiohttp.ClientSession, base_url: str, recorder: Recorder):
        self.session = session
        self.base_url = base_url.rstrip("/")
        self.recorder = recorder

    async def call(self, method, path, *, route=None, token=None, payload=None, record=True):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        started = time.monotonic()
        try:
            async with self.session.request(
                method, self.base_url + path, json=payload, headers=headers
            ) as response:
                body = await response.read()
                status = response.status
        except (TimeoutError, aiohttp.ClientError):
            status, body = 0, b""
        if record:
            self.recorder.count += 1
            self.recorder.record(route or f"{method} {path}", status or "failed", _since(started))
        return status, _json(body, status)


def _since(started: float) -> float:
    return time.monotonic() - started


def _json(body: bytes, status: int):
    if not body or not 200 <= status < 300:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


@dataclass
class Ledger:
    """What the shoppers were told: orders placed (201) and cancelled (200)."""

    emails: set = field(default_factory=set)
    open_orders: dict = field(default_factory=dict)  # id -> (part id, quantity)
    placed: int = 0
    cancelled: int = 0
    refused: int = 0
    throttled: int = 0


class Shopper:
    def __init__(self, api: Api, ledger: Ledger, email: str, rng: random.Random, think: float):
        self.api = api
        self.ledger = ledger
        self.email = email
        self.rng = rng
        self.think = think
        self.token = None
        self.orders: list[int] = []

    async def run(self) -> None:
        await self.sign_up()
        while self.token and self.api.recorder.may_send():
            await self.browse_and_order()
            await asyncio.sleep(self.rng.uniform(0, self.think))

    async def sign_up(self) -> None:
        payload = {"name": "Soak Shopper", "email": self.email, "password": PASSWORD}
        while self.api.recorder.may_send():
            status, body = await self.api.call("POST", "/api/signup", payload=payload)
            if status == 201:
                self.ledger.emails.add(self.email)
                self.token = body["access"]
                return
            if status == 429:
                self.ledger.throttled += 1
                await asyncio.sleep(1)
            else:
                return

    async def browse_and_order(self) -> None:
        await self.api.call("GET", "/")
        await self.api.call("GET", "/allparts")
        status, parts = await self.api.call("GET", "/api/allparts")
        if status == 200 and parts:
            await self.order(self.rng.choice(parts))
        if self.orders and self.rng.random() < CANCEL_CHANCE:
            await self.cancel(self.rng.choice(self.orders))
        if self.rng.random() < LIST_CHANCE:
            await self.api.call(
                "GET",
                f"/api/booking?email={self.email}",
                route="GET /api/booking",
                token=self.token,
            )
        if self.rng.random() < SIGN_IN_CHANCE:
            await self.sign_in()

    async def order(self, part: dict) -> None:
        minimum = part["minimumOrderQuantity"]
        quantity = self.rng.randint(minimum, minimum + 2)
        payload = {"partId": part["_id"], "quantity": quantity, "address": "1 Soak Road"}
        payload["phone"] = "+15550100"
        status, body = await self.api.call(
            "POST", "/api/booking", token=self.token, payload=payload
        )
        if status == 201:
            self.orders.append(body["_id"])
            self.ledger.open_orders[body["_id"]] = (part["_id"], quantity)
            self.ledger.placed += 1
        elif status in (400, 409):  # out of stock, or taken by another shopper meanwhile
            self.ledger.refused += 1
        elif status == 429:
            self.ledger.throttled += 1

    async def cancel(self, booking_id: int) -> None:
        route = "DELETE /api/booking/{id}"
        status, _ = await self.api.call(
            "DELETE", f"/api/booking/{booking_id}", route=route, token=self.token
        )
        if status == 200:
            self.orders.remove(booking_id)
            del self.ledger.open_orders[booking_id]
            self.ledger.cancelled += 1

    async def sign_in(self) -> None:
        payload = {"email": self.email, "password": PASSWORD}
        status, body = await self.api.call("POST", "/api/token", payload=payload)
        if status == 200:
            self.token = body["access"]
        elif status == 429:
            self.ledger.throttled += 1


# --- Reconciliation (as the shop admin, outside the request budget) ----------------------


async def admin_token(api: Api, config: Config) -> str:
    payload = {"email": config.admin_email, "password": config.admin_password}
    status, body = await api.call("POST", "/api/token", payload=payload, record=False)
    if status != 200:
        raise SystemExit(f"soak: the admin could not sign in ({status}).")
    return body["access"]


async def stock_totals(api: Api, token: str) -> tuple[dict[int, int], list[dict]]:
    """Per part: remaining stock + quantities of its existing orders; and all the orders."""
    parts, offset = [], 0
    while True:
        path = f"/api/allparts?limit=500&offset={offset}"
        status, page = await api.call("GET", path, token=token, record=False)
        if status != 200:
            raise SystemExit(f"soak: reading the parts failed ({status}).")
        parts += page
        if len(page) < 500:
            break
        offset += 500
    status, bookings = await api.call("GET", "/api/bookings", token=token, record=False)
    if status != 200:
        raise SystemExit(f"soak: reading the orders failed ({status}).")
    totals = {part["_id"]: part["availableQuantity"] for part in parts}
    for booking in bookings:
        if booking["partId"] in totals:
            totals[booking["partId"]] += booking["quantity"]
    return totals, bookings


def stock_mismatches(before: dict[int, int], after: dict[int, int]) -> list[str]:
    return [
        f"part {pk}: {after.get(pk)} after (stock + ordered), {total} before"
        for pk, total in sorted(before.items())
        if after.get(pk) != total
    ]


def order_mismatches(ledger: Ledger, bookings: list[dict]) -> list[str]:
    """The run's orders in the shop against what its shoppers were told."""
    found = {
        b["_id"]: (b["partId"], b["quantity"]) for b in bookings if b["email"] in ledger.emails
    }
    problems = [
        f"order {pk} was placed (201) but is missing"
        for pk in ledger.open_orders.keys() - found.keys()
    ]
    problems += [
        f"order {pk} exists but no shopper was told it was placed"
        for pk in found.keys() - ledger.open_orders.keys()
    ]
    problems += [
        f"order {pk} is {found[pk]}, placed as {ledger.open_orders[pk]}"
        for pk in found.keys() & ledger.open_orders.keys()
        if found[pk] != ledger.open_orders[pk]
    ]
    return problems


# --- The run -------------------------------------------------------------------------------


def check_bounds(config: Config) -> None:
    host = urlsplit(config.base_url).hostname
    if host not in LOOPBACK:
        raise SystemExit(
            f"soak: only loopback addresses ({', '.join(sorted(LOOPBACK))}), not {host}."
        )
    if not 1 <= config.users <= MAX_USERS:
        raise SystemExit(f"soak: 1 to {MAX_USERS} users.")
    if not 0 < config.seconds <= MAX_SECONDS:
        raise SystemExit(f"soak: more than 0 and at most {MAX_SECONDS} seconds.")


async def soak(config: Config) -> Figures:
    check_bounds(config)
    rng = random.Random(config.seed)
    run_id = f"{int(time.time())}{rng.randrange(10**6):06d}"
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    connector = aiohttp.TCPConnector(limit=config.users + 2)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        setup = Api(session, config.base_url, Recorder(0, 0))
        token = await admin_token(setup, config)
        before, _ = await stock_totals(setup, token)

        started = time.monotonic()
        recorder = Recorder(config.max_requests, started + config.seconds)
        api = Api(session, config.base_url, recorder)
        ledger = Ledger()
        shoppers = [
            Shopper(
                api,
                ledger,
                f"soak-{run_id}-{n}@example.com",
                random.Random(rng.random()),
                config.think,
            )
            for n in range(config.users)
        ]
        await asyncio.gather(*(shopper.run() for shopper in shoppers))
        elapsed = time.monotonic() - started

        token = await admin_token(setup, config)
        after, bookings = await stock_totals(setup, token)
    return figures(config, recorder, ledger, elapsed, before, after, bookings)


def figures(config, recorder, ledger, elapsed, before, after, bookings) -> Figures:
    every = sorted(s for seconds in recorder.latencies.values() for s in seconds)
    statuses = {str(k): v for k, v in sorted(recorder.statuses.items(), key=lambda kv: str(kv[0]))}
    return Figures(
        users=config.users,
        seconds=round(elapsed, 1),
        requests=recorder.count,
        statuses=statuses,
        server_errors=sum(
            n for s, n in recorder.statuses.items() if isinstance(s, int) and s >= 500
        ),
        failed_connections=recorder.statuses.get("failed", 0),
        throttled=recorder.statuses.get(429, 0),
        orders_placed=ledger.placed,
        orders_cancelled=ledger.cancelled,
        orders_refused=ledger.refused,
        latency_p50_ms=_ms(_percentile(every, 50)),
        latency_p95_ms=_ms(_percentile(every, 95)),
        latency_max_ms=_ms(every[-1] if every else 0.0),
        routes={
            route: {
                "requests": len(values),
                "p50_ms": _ms(_percentile(sorted(values), 50)),
                "p95_ms": _ms(_percentile(sorted(values), 95)),
            }
            for route, values in sorted(recorder.latencies.items())
        },
        parts_checked=len(before),
        stock_mismatches=stock_mismatches(before, after),
        order_mismatches=order_mismatches(ledger, bookings),
    )


def _percentile(ordered: list[float], percent: int) -> float:
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(percent / 100 * len(ordered)) - 1))
    return ordered[index]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def report(result: Figures) -> str:
    """The figures as a few lines of text."""
    lines = [
        f"Soak run: {result.users} users for {result.seconds} s",
        f"  requests            {result.requests} ({result.requests / max(result.seconds, 0.1):.0f}/s)",
        f"  statuses            {', '.join(f'{k}: {v}' for k, v in result.statuses.items())}",
        f"  5xx answers         {result.server_errors}",
        f"  failed connections  {result.failed_connections}",
        f"  429 (throttled)     {result.throttled}",
        f"  orders              {result.orders_placed} placed, {result.orders_cancelled} cancelled, "
        f"{result.orders_refused} refused (stock)",
        f"  latency             p50 {result.latency_p50_ms} ms, p95 {result.latency_p95_ms} ms, "
        f"max {result.latency_max_ms} ms",
    ]
    for route, figures_ in result.routes.items():
        lines.append(
            f"    {route:<28} {figures_['requests']:>6}  p50 {figures_['p50_ms']:>7} ms"
            f"  p95 {figures_['p95_ms']:>7} ms"
        )
    verdict = "exact" if result.reconciled else "MISMATCH"
    lines.append(
        f"  reconciliation      {verdict}: {result.parts_checked} parts (stock + ordered = "
        "initial), orders as the shoppers were told"
    )
    lines += [f"    {problem}" for problem in result.stock_mismatches + result.order_mismatches]
    lines.append("  result              " + ("PASS" if result.ok else "FAIL"))
    return "\n".join(lines)


def parse_args(argv=None) -> tuple[Config, str | None]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="the shop, on loopback")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--admin-email", required=True)
    parser.add_argument("--admin-password", required=True)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--think", type=float, default=0.05, help="max pause between steps (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    config = Config(
        base_url=args.base_url,
        users=args.users,
        seconds=args.seconds,
        admin_email=args.admin_email,
        admin_password=args.admin_password,
        max_requests=args.max_requests,
        think=args.think,
        seed=args.seed,
    )
    return config, args.json


def as_json(result: Figures) -> dict:
    return {**asdict(result), "reconciled": result.reconciled, "ok": result.ok}


def main(argv=None) -> int:
    config, json_path = parse_args(argv)
    result = asyncio.run(soak(config))
    print(report(result))
    if json_path:
        with open(json_path, "w") as out:
            json.dump(as_json(result), out, indent=2)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
