"""Shop figures (GET /api/stats) and the Overview page."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from catalog.tests.factories import PartFactory
from core.tests.islands import island_props
from orders.models import Booking
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db


def paid(part, *, days_ago: int, quantity: int, **extra):
    """A paid order of `quantity` units of `part`, paid `days_ago` days ago."""
    order = BookingFactory(part=part, quantity=quantity, paid_order=True, **extra)
    order.paid_at = order.created_at = timezone.now() - timedelta(days=days_ago)
    order.save(update_fields=["paid_at", "created_at"])
    return order


@pytest.fixture
def figures(db):
    chain = PartFactory(name="Chain kit", price=Decimal("149.00"))
    pads = PartFactory(name="Brake pads", price=Decimal("34.50"), minimum_order_quantity=2)
    paid(chain, days_ago=0, quantity=2, total_price=Decimal("298.00"))
    paid(pads, days_ago=2, quantity=4, total_price=Decimal("138.00"))
    paid(pads, days_ago=40, quantity=2, total_price=Decimal("69.00"))  # before the window
    paid(chain, days_ago=1, quantity=1, total_price=Decimal("149.00"), status="approved")
    BookingFactory(part=pads, quantity=2, total_price=Decimal("69.00"))  # unpaid
    low = PartFactory(name="Spark plug", available_quantity=3, minimum_order_quantity=4)
    return {"chain": chain, "pads": pads, "low": low}


def test_callers(anon, as_user, as_admin):
    assert anon.get("/api/stats").status_code == 401
    assert as_user.get("/api/stats").status_code == 403
    assert as_admin.get("/api/stats").status_code == 200


@pytest.mark.parametrize("days", ["0", "366", "abc", "-3"])
def test_days_out_of_range_is_a_400_on_days(as_admin, days):
    response = as_admin.get(f"/api/stats?days={days}")

    assert response.status_code == 400
    assert "days" in response.json()


def test_revenue_per_day_over_the_window_with_zeros(as_admin, figures):
    body = as_admin.get("/api/stats?days=7").json()
    days = body["revenueByDay"]
    today = timezone.localdate()

    assert [d["date"] for d in days] == [
        (today - timedelta(days=n)).isoformat() for n in range(6, -1, -1)
    ]
    by_date = {d["date"]: (d["revenue"], d["orders"]) for d in days}
    assert by_date[today.isoformat()] == (298.0, 1)
    assert by_date[(today - timedelta(days=1)).isoformat()] == (149.0, 1)
    assert by_date[(today - timedelta(days=2)).isoformat()] == (138.0, 1)
    assert sum(d["revenue"] for d in days) == 585.0
    assert by_date[(today - timedelta(days=3)).isoformat()] == (0, 0)


def test_default_window_is_30_days(as_admin, figures):
    body = as_admin.get("/api/stats").json()

    assert len(body["revenueByDay"]) == 30
    assert sum(d["revenue"] for d in body["revenueByDay"]) == 585.0  # not the 40-day-old one


def test_orders_by_state(as_admin, figures):
    body = as_admin.get("/api/stats").json()

    assert body["ordersByState"] == {
        "unpaid": 1,
        "pending": 2,
        "shipped": 1,
        "expired": 0,
        "refunded": 0,
    }


def test_top_parts_by_revenue(as_admin, figures):
    body = as_admin.get("/api/stats").json()

    assert body["topParts"] == [
        {"partId": figures["chain"].pk, "name": "Chain kit", "units": 3, "revenue": 447.0},
        {"partId": figures["pads"].pk, "name": "Brake pads", "units": 4, "revenue": 138.0},
    ]


def test_low_stock_lists_parts_below_their_minimum(as_admin, figures):
    body = as_admin.get("/api/stats").json()

    assert [p["name"] for p in body["lowStock"]] == ["Spark plug"]
    assert body["lowStock"][0]["availableQuantity"] == 3


def test_queries_do_not_grow_with_orders(as_admin, figures, django_assert_max_num_queries):
    for _ in range(30):
        paid(figures["chain"], days_ago=3, quantity=1, total_price=Decimal("149.00"))

    with django_assert_max_num_queries(5):
        assert as_admin.get("/api/stats?days=90").status_code == 200


def test_overview_page_is_first_in_the_admin_menu(client, admin_user, figures):
    client.force_login(admin_user)

    response = client.get("/dashboard/overview")
    html = response.content.decode()
    props = island_props(response, "overview")

    menu = html[html.index('aria-label="Dashboard"') :]
    assert menu.index(">Overview<") < menu.index(">Manage Orders<")
    assert props["days"] == 30
    assert props["stats"]["ordersByState"] == {
        "unpaid": 1,
        "pending": 2,
        "shipped": 1,
        "expired": 0,
        "refunded": 0,
    }


def test_shoppers_are_signed_out_of_the_overview(client, user):
    client.force_login(user)

    response = client.get("/dashboard/overview")

    assert (response.status_code, response["Location"]) == (302, "/login")


def test_refunded_and_expired_orders_count_by_state_and_earn_nothing(as_admin, figures):
    refunded = BookingFactory(
        part=figures["chain"], paid_order=True, total_price=Decimal("1000.00")
    )
    Booking.objects.filter(pk=refunded.pk).update(refunded_at=timezone.now())
    BookingFactory(part=figures["pads"], lapsed=True)
    body = as_admin.get("/api/stats").json()

    assert sum(d["revenue"] for d in body["revenueByDay"]) == 585.0
    assert body["ordersByState"]["refunded"] == 1
    assert body["ordersByState"]["expired"] == 1
    assert body["ordersByState"]["unpaid"] == 1
