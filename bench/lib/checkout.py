"""Checkout of a cart of 3 lines by 20 shoppers at once (each fills their cart with 3 parts,
`POST /api/cart` three times, then `POST /api/checkout`), against `POST /api/booking` by the
same shoppers through the same client, in alternating runs: orders/s, with the stock of every
part reconciled after. Import after db.setup().

The client is Python threads for both (one per shopper, each waiting for its answer before the
next request), not wrk: a checkout is four requests in order, which wrk's script cannot keep
per shopper. Each order of the checkout row pays for its three cart requests too, as a shopper
does.
"""

import threading
import time

from bench.lib import data
from bench.lib.load import post_json
from bench.lib.report import Row, Section
from bench.lib.targets import CHECKOUT_SHARE

LINES = 3
STOCK = 1_000_000  # enough that no run runs out


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
    where = {"address": data.ADDRESS, "phone": data.PHONE}

    def book(token: str) -> bool:
        body = {"partId": booked, "quantity": 1, **where}
        return post_json(base_url + "/api/booking", body, token) == 201

    def check_out(token: str) -> bool:
        for part in carted:
            if post_json(base_url + "/api/cart", {"partId": part, "quantity": 1}, token) != 200:
                return False
        return post_json(base_url + "/api/checkout", where, token) == 201

    runs: dict[str, list[tuple[int, int, float]]] = {"booking": [], "checkout": []}
    _run(1, tokens, book)  # warm
    for n in range(rounds):
        for case in ("booking", "checkout") if n % 2 == 0 else ("checkout", "booking"):
            runs[case].append(_run(seconds, tokens, book if case == "booking" else check_out))
    rate = {case: sum(r[0] for r in rs) / sum(r[2] for r in rs) for case, rs in runs.items()}
    failed = {case: sum(r[1] for r in rs) for case, rs in runs.items()}
    checkouts = sum(r[0] for r in runs["checkout"])
    stocks = [data.stock_check(part) for part in carted]
    # Each checkout took one unit of each part; a failed one (none here) may have left its
    # cart filled, never an order half placed.
    reconciled = all(
        left + units == STOCK and placed == checkouts for left, placed, units in stocks
    )
    ratio = rate["checkout"] / rate["booking"] if rate["booking"] else 0.0
    row = Row(
        f"checkout of {LINES} lines, {len(tokens)} clients, against `POST /api/booking` "
        "by the same clients",
        f"{rate['checkout']:,.1f} orders/s ({ratio:.2f} of `POST /api/booking`'s "
        f"{rate['booking']:,.1f}); {failed['checkout']} failed; stock reconciled"
        + ("" if reconciled else " NOT"),
        f"≥ {share:.2f} of `POST /api/booking`'s orders/s",
        ratio >= share and failed["checkout"] == 0 and failed["booking"] == 0 and reconciled,
    )
    details = [
        "## Checkout of a cart",
        "",
        f"{len(tokens)} shoppers (Python threads, one each, every request waiting for its "
        f"answer), {rounds} runs of {seconds} s of each, alternating: ordering 1 unit of a part "
        f"(`POST /api/booking`), or filling the cart with 1 unit of each of {LINES} parts "
        f"(`POST /api/cart` × {LINES}) and checking it out (`POST /api/checkout`).",
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
    return Section([row], details)
