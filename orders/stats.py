"""The owner's figures (GET /api/stats, the Overview page): a few aggregate queries over the
orders of the window only (ranges on indexed moments, not dates computed per row), kept in the
orders' cache until an order changes, at most a minute."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import Count, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from catalog.selectors import low_stock_parts, missed_searches_column, missed_searches_of
from core.caching import versions

from .models import Booking, BookingLine
from .selectors import CACHE, FRESH_SECONDS

TOP_PARTS = 5
MISSED_SEARCHES = 20


def shop_stats(*, days: int, today: date | None = None) -> dict:
    """Revenue per day over the last `days` days (today included), orders placed in that time
    by state, the best-selling parts by revenue, the searches that most often found nothing
    (kept with the rest: at most a minute behind), and the parts low on stock."""
    if today is None:
        today = timezone.localdate()
        figures = versions.get_or_set(
            f"orders:stats:{days}:{today}",
            lambda: _order_figures(days, today),
            FRESH_SECONDS,
            names=[CACHE],
        )
    else:
        figures = _order_figures(days, today)
    return {**figures, "lowStock": low_stock_parts()}


def _start_of(day: date) -> datetime:
    """The first moment of `day` in the shop's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min))


def _order_figures(days: int, today: date) -> dict:
    first = today - timedelta(days=days - 1)
    since, until = _start_of(first), _start_of(today + timedelta(days=1))
    paid = Booking.objects.filter(
        paid=True, refunded_at__isnull=True, paid_at__gte=since, paid_at__lt=until
    )
    return {
        "revenueByDay": _revenue_by_day(paid, first=first, days=days),
        **_orders_by_state(since, first=first, last=today),
        "topParts": _top_parts(paid),
    }


def _revenue_by_day(paid, *, first: date, days: int) -> list[dict]:
    """One row per day, zeros where nothing was paid."""
    rows = (
        paid.annotate(day=TruncDate("paid_at"))
        .values("day")
        .annotate(revenue=Sum("total_price"), orders=Count("id"))
    )
    by_day = {row["day"]: row for row in rows}
    out = []
    for offset in range(days):
        day = first + timedelta(days=offset)
        row = by_day.get(day, {})
        out.append(
            {
                "date": day.isoformat(),
                "revenue": row.get("revenue") or Decimal("0.00"),
                "orders": row.get("orders", 0),
            }
        )
    return out


def _orders_by_state(since: datetime, *, first: date, last: date) -> dict:
    """ "ordersByState", and "missedSearches" read by the same query (the figures' queries
    stay five with the user's)."""
    missed = missed_searches_column(first=first, last=last, limit=MISSED_SEARCHES)
    states = Booking.objects.filter(created_at__gte=since).count_by_state(also={"missed": missed})
    return {"missedSearches": missed_searches_of(states.pop("missed")), "ordersByState": states}


def _top_parts(paid) -> list[dict]:
    """The parts that brought in most, from the paid orders' lines (an order of several parts
    counts for each of them)."""
    lines = BookingLine.objects.filter(booking__in=paid.values("pk"))
    rows = (
        lines.values("part_id", "parts_name")
        .annotate(units=Sum("quantity"), revenue=Sum("line_total"))
        .order_by("-revenue", "parts_name")[:TOP_PARTS]
    )
    return [
        {
            "partId": r["part_id"],
            "name": r["parts_name"],
            "units": r["units"],
            "revenue": r["revenue"],
        }
        for r in rows
    ]
