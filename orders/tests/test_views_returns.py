"""The returns' pages: "Return items" on the order page (BEYOND.md "After the sale") and the
owner's Returns page (/dashboard/returns) with "Approve", "Reject" and "Received"."""

from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import Part
from orders import services
from orders.models import Booking, Return
from orders.tests.test_services_returning import shipped_order

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def shopper(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def order(user):
    return shipped_order(user, [("10.00", 2), ("30.00", 1)])


def page(client, booking) -> str:
    response = client.get(f"/dashboard/orders/{booking.pk}")
    assert response.status_code == 200
    return response.content.decode()


def toasts(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def ask(client, booking, units, reason="doesnt_fit", comment=""):
    data = {f"units-{part.pk}": n for part, n in units} | {"reason": reason, "comment": comment}
    return client.post(f"/dashboard/orders/{booking.pk}/returns", data)


def test_a_shipped_order_inside_the_window_offers_return_items(shopper, order):
    html = page(shopper, order)
    assert "Return items" in html
    for label in (
        "It doesn&#x27;t fit my bike",
        "Wrong part",
        "Arrived damaged",
        "No longer needed",
        "Other",
    ):
        assert label in html
    brake, chain = (line.part for line in order.lines.all())
    assert f'name="units-{brake.pk}" min="0" max="2"' in html
    assert f'name="units-{chain.pk}" min="0" max="1"' in html


@pytest.mark.parametrize("days", [31])
def test_past_the_window_or_not_shipped_there_is_no_return_items(shopper, user, days):
    late = shipped_order(user, [("10.00", 2)], shipped_days_ago=days)
    assert "Return items" not in page(shopper, late)
    paid = shipped_order(user, [("10.00", 2)], status="paid")
    assert "Return items" not in page(shopper, paid)


def test_an_admin_sees_the_returns_but_no_return_items(client, admin_user, order):
    brake = order.lines.first().part
    services.return_request(
        booking=order, lines=[{"partId": brake.pk, "quantity": 1}], reason="other"
    )
    client.force_login(admin_user)
    html = page(client, order)
    assert "Return items" not in html
    assert f"1 × {brake.name} (Other)" in html


def test_the_shopper_asks_for_a_return_and_sees_it(shopper, order):
    brake, chain = (line.part for line in order.lines.all())
    response = ask(shopper, order, [(brake, 1), (chain, 0)], comment="Too thick")
    assert response.status_code == 302
    assert response["Location"] == f"/dashboard/orders/{order.pk}"
    ret = Return.objects.get()
    assert toasts(response) == [f"Return #{ret.pk} requested: we will e-mail you our answer."]
    assert (ret.reason, ret.comment) == ("doesnt_fit", "Too thick")
    html = page(shopper, order)
    assert f"Return #{ret.pk}: 1 × {brake.name} (It doesn&#x27;t fit my bike)" in html
    assert f'name="units-{brake.pk}" min="0" max="1"' in html  # one unit is left


@pytest.mark.parametrize(
    ("units", "reason", "message"),
    [
        ([], "doesnt_fit", "Choose at least one line to return"),
        (
            [("brake", 1)],
            "",
            "Reason must be one of: doesnt_fit, wrong_part, damaged, not_needed, other",
        ),
        ([("brake", 3)], "doesnt_fit", "Only 2 units of {brake} can be returned"),
        (
            [("brake", "x")],
            "doesnt_fit",
            "Each line needs a quantity: a whole number of units, at least 1",
        ),
    ],
)
def test_a_refused_return_says_why(shopper, order, units, reason, message):
    brake = order.lines.first().part
    named = [(brake, n) for _, n in units]
    response = ask(shopper, order, named, reason=reason)
    assert response.status_code == 302
    assert toasts(response) == [message.format(brake=brake.name)]
    assert not Return.objects.exists()


def test_another_persons_order_is_not_found(client, other_user, order):
    client.force_login(other_user)
    brake = order.lines.first().part
    assert ask(client, order, [(brake, 1)]).status_code == 404
    assert not Return.objects.exists()


# The owner's Returns page.


@pytest.fixture
def owner(client, admin_user):
    client.force_login(admin_user)
    return client


def test_the_returns_page_lists_each_return_with_its_actions(owner, order):
    brake = order.lines.first().part
    ret = services.return_request(
        booking=order,
        lines=[{"partId": brake.pk, "quantity": 2}],
        reason="damaged",
        comment="Cracked",
    )
    html = owner.get("/dashboard/returns").content.decode()
    assert f'href="/dashboard/orders/{order.pk}"' in html
    assert f"2 × {brake.name}" in html
    assert "Arrived damaged" in html and "Cracked" in html
    assert "Requested" in html
    assert f'action="/dashboard/returns/{ret.pk}/approve"' in html
    assert f'action="/dashboard/returns/{ret.pk}/reject"' in html
    assert 'href="/dashboard/returns"' in html  # the menu's "Returns"
    assert "Received" not in html


def test_approve_then_received_with_put_back_in_stock(owner, order):
    brake = order.lines.first().part
    ret = services.return_request(
        booking=order, lines=[{"partId": brake.pk, "quantity": 2}], reason="damaged"
    )
    approved = owner.post(f"/dashboard/returns/{ret.pk}/approve")
    assert approved["Location"] == "/dashboard/returns"
    assert toasts(approved) == [f"Return #{ret.pk} approved."]
    html = owner.get("/dashboard/returns").content.decode()
    assert "Put back in stock" in html and f'action="/dashboard/returns/{ret.pk}/receive"' in html
    received = owner.post(f"/dashboard/returns/{ret.pk}/receive", {"restock": "on"})
    assert toasts(received) == [f"Return #{ret.pk} received: refunded $20.00."]
    assert Part.objects.get(pk=brake.pk).available_quantity == 12
    again = owner.post(f"/dashboard/returns/{ret.pk}/receive", {"restock": "on"})
    assert toasts(again)[-1] == "Only an approved return can be received; this one is refunded"
    assert Booking.objects.get(pk=order.pk).refunded_amount == D("20.00")


def test_received_without_put_back_in_stock_keeps_the_stock(owner, order):
    brake = order.lines.first().part
    ret = services.return_request(
        booking=order, lines=[{"partId": brake.pk, "quantity": 1}], reason="damaged"
    )
    owner.post(f"/dashboard/returns/{ret.pk}/approve")
    owner.post(f"/dashboard/returns/{ret.pk}/receive")
    assert Part.objects.get(pk=brake.pk).available_quantity == 10
    assert Return.objects.get(pk=ret.pk).restocked is False


def test_reject_with_a_comment_and_the_state_filter(owner, order):
    brake = order.lines.first().part
    ret = services.return_request(
        booking=order, lines=[{"partId": brake.pk, "quantity": 1}], reason="other"
    )
    rejected = owner.post(
        f"/dashboard/returns/{ret.pk}/reject", {"comment": "Fitted", "state": "requested"}
    )
    assert rejected["Location"] == "/dashboard/returns?state=requested"
    assert Return.objects.get(pk=ret.pk).admin_comment == "Fitted"
    assert (
        "No returns in this state."
        in owner.get("/dashboard/returns?state=requested").content.decode()
    )
    assert "Fitted" in owner.get("/dashboard/returns?state=rejected").content.decode()


def test_the_order_page_reads_its_returns_in_two_queries(shopper, order):
    brake, chain = (line.part for line in order.lines.all())

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            page(shopper, order)
        return sum('"orders_return' in query["sql"] for query in queries)

    services.return_request(
        booking=order, lines=[{"partId": brake.pk, "quantity": 1}], reason="other"
    )
    assert count() == 2  # the returns, then their lines with the order's lines
    for part in (brake, chain):
        services.return_request(
            booking=order, lines=[{"partId": part.pk, "quantity": 1}], reason="other"
        )
    assert count() == 2
