"""POST /api/booking from 20 shoppers at once: orders/s with the stock reconciled, in rounds
alternating with the bare project's order view (lock one row, insert one); then a race for
the last units of a part (no oversell). Import after db.setup()."""

import json
from statistics import mean

from bench.lib import data, load
from bench.lib.reads import rps_of
from bench.lib.report import Row, Section

STOCK = 1_000_000  # enough that the throughput run never runs out
RACE_STOCK, RACE_ATTEMPTS = 60, 5  # 20 shoppers x 5 attempts at 1 unit each: 100 for 60


def order(part_id: int) -> dict:
    return {"partId": part_id, "quantity": 1, "address": data.ADDRESS, "phone": data.PHONE}


def measure(
    base_url: str,
    *,
    bare_url: str,
    tokens: list[str],
    seconds: int,
    rounds: int,
    share: float,
    p99_factor: float,
) -> Section:
    url = base_url + "/api/booking"
    part = data.new_part(stock=STOCK)
    body = json.dumps(order(part))
    runs, bares = [], [load.wrk(bare_url, seconds=seconds, post=(body, tokens))]
    for _ in range(rounds):
        runs.append(load.wrk(url, seconds=seconds, post=(body, tokens)))
        bares.append(load.wrk(bare_url, seconds=seconds, post=(body, tokens)))
    left, placed, ordered = data.stock_check(part)
    answered = sum(run.requests - run.status_errors for run in runs)
    run_seconds = sum(run.seconds for run in runs)
    errors = sum(run.errors for run in runs)
    rps, bare_rps = answered / run_seconds, rps_of(bares)
    p99, bare_p99 = mean(run.p99_ms for run in runs), mean(run.p99_ms for run in bares)
    # wrk does not count the orders still in flight when it stops; the server places them.
    in_flight = load.CONNECTIONS * len(runs)
    reconciled = left + ordered == STOCK and answered <= placed <= answered + in_flight

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
        f"{rps:,.0f} orders/s, {errors} errors; stock {STOCK:,} = "
        f"{left:,} left + {ordered:,} ordered; race for the last {RACE_STOCK}: "
        f"{statuses[201]} placed, {refused} refused, {race_left} left"
    )
    rows = [
        Row(
            f"`POST /api/booking`, {len(tokens)} concurrent clients",
            figure,
            "no errors, no oversell, orders/s reported",
            errors == 0 and reconciled and race_ok,
        ),
        Row(
            f"`POST /api/booking`, {len(tokens)} clients, against the bare project's order "
            "view (lock one row, insert one)",
            f"{rps:,.0f} orders/s ({rps / bare_rps:.2f} of the bare order view)",
            f"≥ {share:.2f} of the bare order view",
            rps / bare_rps >= share and errors == 0,
            bare=f"{bare_rps:,.0f}",
        ),
        Row(
            f"p99 latency of `POST /api/booking` at {load.CONNECTIONS} connections",
            f"{p99:.1f} ms ({p99 / bare_p99:.1f}× the bare order view's)",
            f"≤ {p99_factor:g}× the bare order view's p99",
            p99 / bare_p99 <= p99_factor,
            bare=f"{bare_p99:.1f} ms",
        ),
    ]
    details = [
        "## Orders",
        "",
        f"- Throughput: {len(tokens)} shoppers (one token each, taken in turn over "
        f"{load.CONNECTIONS} connections) ordering 1 unit of one part, {len(runs)} runs "
        f"({run_seconds:.1f} s in all) alternating with the bare project's order view "
        f"(`{bare_url.rsplit('/', 1)[-1]}`: the same body; it locks its one row and inserts "
        f"one; {rps_of(bares):,.0f}/s over {len(bares)} runs): {answered:,} answered 201, "
        f"{sum(r.status_errors for r in runs)} other answers, "
        f"{sum(r.socket_errors for r in runs)} socket errors, p99 {p99:.0f} ms; {placed:,} "
        f"orders in the database (wrk does not count those in flight when it stops); stock "
        f"{STOCK:,} → {left:,}.",
        f"- Race: {len(tokens)} shoppers × {RACE_ATTEMPTS} attempts at 1 unit of a part with "
        f"{RACE_STOCK} in stock, all at once: answers {dict(sorted(statuses.items()))} "
        f"(400/409: not enough stock); {race_placed} orders for {race_ordered} units, "
        f"{race_left} left.",
    ]
    return Section(rows, details)
