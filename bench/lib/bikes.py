"""/allparts for a bike against the same page without one (issue 23: within 20%), both past the
visitors' page cache (a query string), on the measured shop's size: the catalog grown to
10,000 parts, 5,000 vehicles and 200,000 fitment rows, one part in 500 universal. Import after
db.setup().

Runs alternate without, with, with, without, … so a drift in the machine's speed weighs on both
alike. The bike is one with a typical number of parts (the median).
"""

from django.core.cache import cache
from django.db import connection

from bench.lib import data, load
from bench.lib.report import Row, Section
from catalog.models import Fitment, Part, Vehicle

VEHICLES, FITMENT_ROWS, UNIVERSAL_EVERY = 5_000, 200_000, 500
SHARE = 0.8
WITHOUT = "/allparts?sort=newest"  # the plain list, newest first, past the page cache
WITH = "/allparts?sort=newest&fits={bike}"
MAKES = ["BMW", "Ducati", "Harley-Davidson", "Honda", "Kawasaki", "KTM", "Suzuki", "Yamaha"]


def fit_catalog(parts: int) -> int:
    """The catalog at `parts` parts, with the vehicles and fitment rows; the median bike."""
    data.grow_catalog(parts)
    Fitment.objects.all().delete()
    Vehicle.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute("UPDATE catalog_part SET universal = (id %% %s = 0)", [UNIVERSAL_EVERY])
        cursor.execute(
            "INSERT INTO catalog_vehicle (make, model, year)"
            " SELECT (%s::text[])[1 + (n / 25) %% %s], 'Model ' || (n / 25), 2000 + n %% 25"
            " FROM generate_series(0, %s - 1) AS n",
            [MAKES, len(MAKES), VEHICLES],
        )
        # Row n: the part n mod parts, and a vehicle that differs for each n of that part.
        cursor.execute(
            "INSERT INTO catalog_fitment (part_id, vehicle_id)"
            " SELECT p.ids[1 + n %% %s], v.ids[1 + (n / %s + n * 7) %% %s]"
            " FROM generate_series(0, %s - 1) AS n,"
            " (SELECT array_agg(id ORDER BY id) AS ids FROM catalog_part) AS p,"
            " (SELECT array_agg(id ORDER BY id) AS ids FROM catalog_vehicle) AS v"
            " ON CONFLICT DO NOTHING",
            [parts, parts, VEHICLES, FITMENT_ROWS],
        )
        cursor.execute("ANALYZE catalog_part, catalog_vehicle, catalog_fitment")
        cursor.execute(
            "SELECT vehicle_id FROM catalog_fitment GROUP BY vehicle_id"
            " ORDER BY count(*), vehicle_id LIMIT 1 OFFSET %s",
            [VEHICLES // 2],
        )
        bike = cursor.fetchone()[0]
    cache.clear()  # written in SQL: no service bumped a version (the benchmark's own Redis)
    return bike


def measure(base_url: str, *, parts: int, seconds: int, rounds: int) -> Section:
    bike = fit_catalog(parts)
    fitting = Part.objects.filter(fitments__vehicle_id=bike).count()
    urls = {"without": base_url + WITHOUT, "with": base_url + WITH.format(bike=bike)}
    runs: dict[str, list[load.Load]] = {"without": [], "with": []}
    for url in urls.values():
        load.wrk(url, seconds=seconds)  # warm
    for n in range(rounds):
        for case in ("without", "with") if n % 2 == 0 else ("with", "without"):
            runs[case].append(load.wrk(urls[case], seconds=seconds))
    without, with_bike = (load.rate(runs[case]) for case in ("without", "with"))
    share = with_bike / without if without else 0.0
    errors = sum(run.errors for case in runs.values() for run in case)
    row = Row(
        f"anonymous `/allparts` for a bike (`{WITH}`), uncached, {parts:,} parts, "
        f"{FITMENT_ROWS:,} fitment rows, req/s",
        f"{with_bike:,.0f} against {without:,.0f} without a bike (`{WITHOUT}`) ({share:.2f})",
        f"≥ {SHARE:.2f} of the page without a bike",
        share >= SHARE and errors == 0,
    )
    details = [
        "## /allparts for a bike",
        "",
        f"{parts:,} parts (one in {UNIVERSAL_EVERY} universal), {VEHICLES:,} vehicles, "
        f"{FITMENT_ROWS:,} fitment rows; bike {bike} (the median: {fitting} parts fit it, "
        "with the universal ones). Both paths carry a query string: the visitors' page cache "
        f"answers neither. {rounds} runs of each, {seconds} s, alternating.",
        "",
        *load.runs_table(runs),
    ]
    return Section([row], details)
