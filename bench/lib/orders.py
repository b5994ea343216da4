"""POST /api/booking from 20 shoppers at once: orders/s with the stock reconciled, then a race
for the last units of a part (no oversell). Import after db.setup()."""

import json

from bench.lib import data, load
from bench.lib.report import Row, Section

STOCK = 1_000_000  # enough that the throughput run never runs out
RACE_STOCK, RACE_ATTEMPTS = 60, 5  # 20 shoppers x 5 attempts at 1 unit each: 100 for 60


def order(part_id: int) -> dict:
    return {"partId": part_id, "quantity": 1, "address": data.ADDRESS, "phone": data.PHONE}


def measure(base_url: str, *, tokens: list[str], seconds: int) -> Section:
    url = base_url + "/api/booking"
    part = data.new_part(stock=STOCK)
    run = load.wrk(url, seconds=seconds, post=(json.dumps(order(part)), tokens))
    left, placed, ordered = data.stock_check(part)
    answered = run.requests - run.status_errors
    # wrk does not count the orders still in flight when it stops; the server places them.
    reconciled = left + ordered == STOCK and answered <= placed <= answered + load.CONNECTIONS

    race_part = data.new_part(stock=RACE_STOCK)
    statuses = load.race(url, body=order(race_part), tokens=tokens, attempts_each=RACE_ATTEMPTS)
    race_left, race_placed, race_ordered = data.stock_check(race_part)
    refused = sum(statuses.values()) - statuses[201]
    race_ok = (
        statuses[201] == race_placed == race_ordered == RACE_STOCK
        and race_left == 0
        and set(statuses) <= {201, 400, 409}
    )
    figure = (
        f"{answered / run.seconds:,.0f} orders/s, {run.errors} errors; stock {STOCK:,} = "
        f"{left:,} left + {ordered:,} ordered; race for the last {RACE_STOCK}: "
        f"{statuses[201]} placed, {refused} refused, {race_left} left"
    )
    row = Row(
        f"`POST /api/booking`, {len(tokens)} concurrent clients",
        figure,
        "no errors, no oversell, orders/s reported",
        run.errors == 0 and reconciled and race_ok,
    )
    details = [
        "## Orders",
        "",
        f"- Throughput: {len(tokens)} shoppers (one token each, taken in turn over "
        f"{load.CONNECTIONS} connections) ordering 1 unit of one part for {run.seconds:.1f} s: "
        f"{answered:,} answered 201, {run.status_errors} other answers, {run.socket_errors} "
        f"socket errors, p99 {run.p99_ms:.0f} ms; {placed:,} orders in the database (wrk does "
        f"not count those in flight when it stops); stock {STOCK:,} → {left:,}.",
        f"- Race: {len(tokens)} shoppers × {RACE_ATTEMPTS} attempts at 1 unit of a part with "
        f"{RACE_STOCK} in stock, all at once: answers {dict(sorted(statuses.items()))} "
        f"(400/409: not enough stock); {race_placed} orders for {race_ordered} units, "
        f"{race_left} left.",
    ]
    return Section([row], details)
