"""The load run's shoppers, for locust: `make soak` runs them through bench/run_soak.py.

Each shopper signs up (POST /api/signup), then, until locust's time is up: browses (/,
/allparts, GET /api/allparts), orders a random part (POST /api/booking), now and then all of
it that it sees (the hoarder of issue 20), sometimes cancels one of its orders (DELETE
/api/booking/<id>) and often orders the same again at once (delete and reorder), sometimes
fills its cart with a few parts and checks it out as one order (POST /api/cart, POST
/api/checkout), sometimes lists its orders or signs in again (POST /api/token).

An order refused for want of stock, for the share of a part one account may hold (400) or for
stock taken meanwhile or the unpaid-order cap (409) is an answer the shop may give, not a
failure; the shoppers count the fair-hold refusals apart.
The shoppers keep a ledger of what they were told (orders answered 201 and not cancelled) and
of every status; with `--ledger FILE` it is written there at the end, for the reconciliation.
Loopback hosts only.
"""

import json
import random
import uuid
from collections import Counter
from urllib.parse import urlsplit

from locust import HttpUser, between, events, task

PASSWORD = "soak-password-1"
CANCEL_CHANCE = 0.35
REORDER_CHANCE = 0.5  # after a cancel: the same order again at once (it must keep its hold)
HOARD_CHANCE = 0.1  # order every unit of the part on the shelf
SHARE_REFUSAL = "You can hold at most "
LIST_CHANCE = 0.1
CART_CHANCE = 0.2  # fill the cart with a few parts and check it out
CART_LINES = 3
SIGN_IN_CHANCE = 0.05
LOOPBACK = {"127.0.0.1", "localhost", "::1"}

statuses: Counter = Counter()  # "0" is a failed connection or a timeout
open_orders: dict[int, tuple[int, int]] = {}  # order id -> (part id, quantity)
tally = Counter()  # placed, cancelled, refused, refused_share, reordered, checked_out


@events.init_command_line_parser.add_listener
def _options(parser) -> None:
    parser.add_argument("--ledger", default="", help="write what the shoppers were told here")


@events.test_start.add_listener
def _loopback_only(environment, **_) -> None:
    host = urlsplit(environment.host or "").hostname
    if host not in LOOPBACK:
        raise SystemExit(f"the load run goes to loopback addresses only, not {host!r}")


@events.request.add_listener
def _count(response, exception, **_) -> None:
    statuses[str(getattr(response, "status_code", 0) or 0)] += 1


@events.quitting.add_listener
def _write_ledger(environment, **_) -> None:
    """At the very end, once every shopper has stopped: nothing is added after this."""
    if environment.parsed_options and environment.parsed_options.ledger:
        total = environment.stats.total
        ledger = {
            "requests": total.num_requests,
            "requests_per_s": round(
                total.num_requests / max(total.last_request_timestamp - total.start_time, 0.1), 1
            ),
            "p50_ms": total.get_response_time_percentile(0.5),
            "p95_ms": total.get_response_time_percentile(0.95),
            "max_ms": round(total.max_response_time, 1),
            "statuses": dict(statuses),
            "open_orders": {str(pk): list(order) for pk, order in open_orders.items()},
            **tally,
        }
        with open(environment.parsed_options.ledger, "w") as out:
            json.dump(ledger, out, indent=2)


class Shopper(HttpUser):
    wait_time = between(0, 0.05)

    def on_start(self) -> None:
        # Each shopper from an address of its own, as people are (the fair holds count each
        # address's holds): the shop behind one trusted proxy reads it from X-Forwarded-For.
        address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
        self.client.headers["X-Forwarded-For"] = address
        self.email = f"soak-{uuid.uuid4().hex}@example.com"
        self.orders: dict[int, tuple[dict, int]] = {}  # order id -> (part, quantity)
        payload = {"name": "Soak Shopper", "email": self.email, "password": PASSWORD}
        answer = self.client.post("/api/signup", json=payload)
        self.token = answer.json()["access"] if answer.status_code == 201 else None
        if not self.token:
            self.stop()

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    @task
    def browse_and_order(self) -> None:
        self.client.get("/")
        self.client.get("/allparts")
        parts = self.client.get("/api/allparts")
        if parts.status_code == 200 and parts.json():
            part = random.choice(parts.json())
            quantity = random.randint(
                part["minimumOrderQuantity"], part["minimumOrderQuantity"] + 2
            )
            if random.random() < HOARD_CHANCE:
                quantity = max(part["availableQuantity"], part["minimumOrderQuantity"])
            self.order(part, quantity)
            if random.random() < CART_CHANCE:
                self.check_out(random.sample(parts.json(), k=min(CART_LINES, len(parts.json()))))
        if self.orders and random.random() < CANCEL_CHANCE:
            order_id = random.choice(list(self.orders))
            part, quantity = self.orders[order_id]
            if self.cancel(order_id) and random.random() < REORDER_CHANCE:
                tally["reordered"] += 1
                self.order(part, quantity)
        if random.random() < LIST_CHANCE:
            self.client.get(
                f"/api/booking?email={self.email}", headers=self.auth, name="/api/booking"
            )
        if random.random() < SIGN_IN_CHANCE:
            answer = self.client.post(
                "/api/token", json={"email": self.email, "password": PASSWORD}
            )
            if answer.status_code == 200:
                self.token = answer.json()["access"]

    def order(self, part: dict, quantity: int) -> None:
        payload = {"partId": part["_id"], "quantity": quantity, "address": "1 Soak Road"}
        payload["phone"] = "+15550100"
        with self.client.post(
            "/api/booking", json=payload, headers=self.auth, catch_response=True
        ) as answer:
            if answer.status_code == 201:
                order_id = answer.json()["_id"]
                self.orders[order_id] = (part, quantity)
                open_orders[order_id] = (part["_id"], quantity)
                tally["placed"] += 1
            elif answer.status_code in (400, 409):  # out of stock, past the share, taken
                tally["refused"] += 1
                message = (
                    answer.json().get("quantity", [""])[0] if answer.status_code == 400 else ""
                )
                tally["refused_share"] += message.startswith(SHARE_REFUSAL)
                answer.success()

    def cancel(self, order_id: int) -> bool:
        answer = self.client.delete(
            f"/api/booking/{order_id}", headers=self.auth, name="/api/booking/[id]"
        )
        if answer.status_code != 200:
            return False
        del self.orders[order_id]
        del open_orders[order_id]
        tally["cancelled"] += 1
        return True

    def check_out(self, parts: list[dict]) -> None:
        """The minimum of each part into the cart, then one order of them all. A refusal (a
        part out of stock, past the share, the unpaid-order cap) empties the cart again."""
        for part in parts:
            line = {"partId": part["_id"], "quantity": part["minimumOrderQuantity"]}
            with self.client.post(
                "/api/cart", json=line, headers=self.auth, catch_response=True
            ) as answer:
                if answer.status_code in (400, 404):  # out of stock, or gone meanwhile
                    answer.success()
        where = {"address": "1 Soak Road", "phone": "+15550100"}
        with self.client.post(
            "/api/checkout", json=where, headers=self.auth, catch_response=True
        ) as answer:
            if answer.status_code == 201:
                order = answer.json()
                # As the shop stores it: an order of several lines names no one part.
                open_orders[order["_id"]] = (order["partId"], order["quantity"])
                tally["checked_out"] += 1
                return
            if answer.status_code in (400, 409):
                tally["refused"] += 1
                answer.success()
        for part in parts:
            self.client.delete(f"/api/cart/{part['_id']}", headers=self.auth, name="/api/cart/[id]")
