"""Checkout of a cart of 3 lines by 20 shoppers at once, against `POST /api/booking` by the
same shoppers through the same client, in alternating runs: orders/s, with the stock of every
part reconciled after. Import after db.setup().

Two checkout figures. The target's: `POST /api/checkout` of a cart already filled with 3
parts, one order per request as a booking is (each shopper's cart is filled again in the
database between its checkouts, by this process, not through the server: shoppers fill
their carts while they browse, not in the same second as they check out). And a shopper's
whole journey: `POST /api/cart` three times, then `POST /api/checkout`, four requests per
order (reported).

Pricing is in play as a real shop has it: every order ships by a method priced by weight
bands to a destination with a tax rate, and every checkout applies a voucher with a use limit
(checked, locked and counted at each order). The SQL statements of one such checkout are
counted in this process (`statements`).

The client is Python threads for all (one per shopper, each waiting for its answer before the
next request), not wrk: a checkout needs its shopper's cart, which wrk's script cannot keep.
"""

import threading
import time
from decimal import Decimal

from django.conf import settings
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from bench.lib import data
from bench.lib.load import post_json
from bench.lib.report import Row, Section
from bench.lib.targets import CHECKOUT_SHARE
from catalog.models import Part
from orders.models import Cart, CartLine
from pricing import services as pricing
from pricing.models import ShippingMethod, TaxRate, Voucher

VOUCHER = "BENCH-CHECKOUT"
METHOD = "Bench courier"
# 20 before vouchers, shipping and tax, plus 3 (issue 30); the placed mail's row (issue 31)
# fits in it since the order no longer takes a savepoint of the checkout's transaction; plus
# the cart's parts read before its lock, whose lapsed holds go back first in transactions of
# their own (orders.services.cart.cart_checkout: inside the order's, they could deadlock)
MAX_STATEMENTS = 24

LINES = 3
STOCK = 1_000_000  # enough that no run runs out


def pricing_in_play() -> tuple[int, Voucher]:
    """A method priced by weight bands, a tax rate where the orders go (SHOP_COUNTRY: the
    bench's orders have free-text addresses) and a voucher with a use limit: the method's id
    and the voucher."""
    method = ShippingMethod.objects.filter(name=METHOD).first() or pricing.shipping_method_create(
        name=METHOD, bands=[(2000, Decimal("6.95")), (50_000, Decimal("12.95"))]
    )
    if not TaxRate.objects.filter(country=settings.SHOP_COUNTRY, region="").exists():
        pricing.tax_rate_create(country=settings.SHOP_COUNTRY, name="Sales tax", rate=Decimal(7))
    voucher = Voucher.objects.filter(code=VOUCHER).first() or pricing.voucher_create(
        code=VOUCHER, kind="percent", value=Decimal(10), usage_limit=100_000_000
    )
    return method.pk, voucher


COUNTED = 2  # checkouts placed in this process to count statements: the second is counted


def statements(token: str, cart: Cart, fill, body: dict) -> int:
    """The SQL statements of a checkout of a filled cart with the voucher, in this process,
    once what a server keeps (pricing's methods and rates) is kept: the second of COUNTED."""
    client = APIClient(HTTP_HOST="127.0.0.1")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    for _ in range(COUNTED):
        fill(cart)
        with CaptureQueriesContext(connection) as checkout:
            answer = client.post("/api/checkout", body, format="json", secure=True)
        assert answer.status_code == 201, answer.content
    return len(checkout.captured_queries)


def _run(seconds: float, tokens: list[str], one_order) -> tuple[int, int, float]:
    """Every token's shopper places orders with `one_order(token)` (True: placed) for
    `seconds`, all at once; (placed, failed, seconds taken)."""
    counts = {"placed": 0, "failed": 0}
    lock = threading.Lock()
    start = threading.Barrier(len(tokens) + 1)
    deadline: list[float] = []

    def shopper(token: str) -> None:
        start.wait()
        while time.monotonic() < deadline[0]:
            placed = one_order(token)
            with lock:
                counts["placed" if placed else "failed"] += 1
        connections.close_all()  # this thread's, if `one_order` wrote to the database

    threads = [threading.Thread(target=shopper, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    began = time.monotonic()
    deadline.append(began + seconds)
    start.wait()
    for thread in threads:
        thread.join()
    return counts["placed"], counts["failed"], time.monotonic() - began


def measure(
    base_url: str, *, tokens: list[str], seconds: int, rounds: int, share: float = CHECKOUT_SHARE
) -> Section:
    parts = [data.new_part(stock=STOCK) for _ in range(LINES + 1)]
    booked, carted = parts[0], parts[1:]
    prices = dict(Part.objects.filter(pk__in=carted).values_list("pk", "price"))
    method, voucher = pricing_in_play()
    where = {"address": data.ADDRESS, "phone": data.PHONE, "shippingMethod": method}
    carts = {
        token: Cart.objects.get_or_create(user_id=AccessToken(token)["user_id"])[0]
        for token in tokens
    }

    def book(token: str) -> bool:
        body = {"partId": booked, "quantity": 1, **where}
        return post_json(base_url + "/api/booking", body, token) == 201

    def fill(cart: Cart) -> None:
        # A cart whose checkout failed still holds its lines: those are left as they are.
        lines = (
            CartLine(cart=cart, part_id=part, quantity=1, price_when_added=prices[part])
            for part in carted
        )
        CartLine.objects.bulk_create(lines, ignore_conflicts=True)
        Cart.objects.filter(pk=cart.pk).update(voucher=voucher)  # a checkout takes it off

    def fill_all() -> None:
        for cart in carts.values():
            fill(cart)

    def empty_all() -> None:
        CartLine.objects.filter(cart__in=carts.values()).delete()

    def check_out(token: str) -> bool:
        placed = post_json(base_url + "/api/checkout", where, token) == 201
        fill(carts[token])
        return placed

    def journey(token: str) -> bool:
        for part in carted:
            if post_json(base_url + "/api/cart", {"partId": part, "quantity": 1}, token) != 200:
                return False
        return post_json(base_url + "/api/checkout", where, token) == 201

    counted = statements(tokens[0], carts[tokens[0]], fill, where)
    cases = {"booking": book, "checkout": check_out, "journey": journey}
    runs: dict[str, list[tuple[int, int, float]]] = {case: [] for case in cases}
    fill_all()
    _run(1, tokens, book)  # warm
    for n in range(rounds):
        order = list(cases) if n % 2 == 0 else list(reversed(cases))
        for case in order:
            if case == "journey":  # it starts from empty carts; the checkout run from full ones
                empty_all()
            runs[case].append(_run(seconds, tokens, cases[case]))
            if case == "journey":
                fill_all()
    empty_all()
    rate = {case: sum(r[0] for r in rs) / sum(r[2] for r in rs) for case, rs in runs.items()}
    failed = {case: sum(r[1] for r in rs) for case, rs in runs.items()}
    checkouts = COUNTED + sum(r[0] for case in ("checkout", "journey") for r in runs[case])
    stocks = [data.stock_check(part) for part in carted]
    # Each checkout took one unit of each part; a failed one (none here) may have left its
    # cart filled, never an order half placed.
    reconciled = all(
        left + units == STOCK and placed == checkouts for left, placed, units in stocks
    )
    ratio = {case: rate[case] / rate["booking"] if rate["booking"] else 0.0 for case in cases}
    clean = failed["booking"] == 0 and reconciled
    rows = [
        Row(
            f"checkout of {LINES} lines (`POST /api/checkout`, carts filled before), "
            f"{len(tokens)} clients, against `POST /api/booking` by the same clients",
            f"{rate['checkout']:,.1f} orders/s ({ratio['checkout']:.2f} of `POST /api/booking`'s "
            f"{rate['booking']:,.1f}); {failed['checkout']} failed; stock reconciled"
            + ("" if reconciled else " NOT"),
            f"≥ {share:.2f} of `POST /api/booking`'s orders/s",
            ratio["checkout"] >= share and failed["checkout"] == 0 and clean,
        ),
        Row(
            f"a shopper's whole checkout of {LINES} lines (`POST /api/cart` × {LINES}, then "
            f"`POST /api/checkout`), {len(tokens)} clients",
            f"{rate['journey']:,.1f} orders/s ({ratio['journey']:.2f} of `POST /api/booking`'s); "
            f"{failed['journey']} failed",
            "no failures, stock reconciled, orders/s reported",
            failed["journey"] == 0 and clean,
        ),
        Row(
            f"SQL statements of a checkout of {LINES} lines with a voucher, a shipping method "
            "and a tax rate",
            f"{counted}",
            f"≤ {MAX_STATEMENTS} (20 before vouchers, shipping and tax, plus 3, plus 1)",
            counted <= MAX_STATEMENTS,
        ),
    ]
    details = [
        "## Checkout of a cart",
        "",
        f"{len(tokens)} shoppers (Python threads, one each, every request waiting for its "
        f"answer), {rounds} runs of {seconds} s of each, alternating: ordering 1 unit of a part "
        f"(`POST /api/booking`); checking out a cart of 1 unit of each of {LINES} parts "
        f"(`POST /api/checkout`; the bench fills the cart again in the database after each); "
        f"or filling the cart (`POST /api/cart` × {LINES}) and checking it out. Each order ships "
        f"by {METHOD!r} (weight bands) and is taxed; each checkout applies {VOUCHER!r} (10 % "
        "off, with a use limit).",
        "",
        "| run | orders placed | failed | seconds | orders/s |",
        "|---|---|---|---|---|",
        *(
            f"| {case} | {placed} | {failed_} | {took:.1f} | {placed / took:,.1f} |"
            for case, case_runs in runs.items()
            for placed, failed_, took in case_runs
        ),
        "",
        f"Stock of the {LINES} parts after: "
        + ", ".join(f"{left:,} left + {units:,} ordered" for left, _, units in stocks)
        + f" (each started at {STOCK:,}).",
    ]
    return Section(rows, details)
