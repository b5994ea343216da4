"""Returns through the API (API.md "After the sale", "Returns"): every status and field
message, who may do what, and the partial refunds at the fake Stripe."""

from decimal import Decimal

import pytest

from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking, PaymentEvent, Return
from orders.payments import PROVIDER_FAILED
from orders.tests.stripe_helpers import intent_id_of, pay, stripe_client
from orders.tests.test_payments_no_charge_for_nothing import deliver, refunded_event
from orders.tests.test_services_returning import shipped_order
from tests.stripe_fake import free_port

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def parts(db):
    return (
        PartFactory(
            name="Brake pads", price=D("15.00"), minimum_order_quantity=1, available_quantity=10
        ),
        PartFactory(
            name="Chain", price=D("30.00"), minimum_order_quantity=1, available_quantity=10
        ),
    )


@pytest.fixture
def shipped(stripe_on, user, parts) -> Booking:
    """Paid by card at the fake Stripe and shipped: 3 brake pads ($45) and 1 chain ($30)."""
    brake, chain = parts
    booking = services.booking_place_lines(
        user=user, lines=[(brake.pk, 3), (chain.pk, 1)], address="1 Road", phone="12345"
    )
    assert (booking.total_price, booking.shipping_price, booking.tax) == (D("75.00"), 0, 0)
    intent_id = intent_id_of(services.booking_start_payment(booking=booking))
    pay(intent_id)
    booking = services.booking_confirm_payment(booking=booking, transaction_id=intent_id)
    services.booking_approve(booking=booking)
    booking.refresh_from_db()
    return booking


def refunded_cents(intent_id: str) -> int:
    refunds = stripe_client().v1.refunds.list(params={"payment_intent": intent_id})
    return sum(r.amount for r in refunds.data)


def ask(client, booking, lines, reason="doesnt_fit", comment=""):
    body = {"lines": lines, "reason": reason, "comment": comment}
    return client.post(f"/api/booking/{booking.pk}/returns", body, format="json")


def decide(client, ret_id, state, comment=None):
    body = {"state": state} if comment is None else {"state": state, "comment": comment}
    return client.put(f"/api/returns/{ret_id}", body, format="json")


def receive(client, ret_id, restock=True):
    return client.post(f"/api/returns/{ret_id}/receive", {"restock": restock}, format="json")


def test_a_return_from_request_to_partial_refund_at_stripe(as_user, as_admin, shipped, parts):
    brake, chain = parts
    created = ask(as_user, shipped, [{"partId": brake.pk, "quantity": 1}], comment="Too thick")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body == {
        "_id": body["_id"],
        "booking": shipped.pk,
        "lines": [{"partId": brake.pk, "partsName": "Brake pads", "quantity": 1}],
        "reason": "doesnt_fit",
        "comment": "Too thick",
        "state": "requested",
        "refundAmount": None,
        "createdAt": body["createdAt"],
    }
    ret_id = body["_id"]
    assert decide(as_admin, ret_id, "approved").json()["state"] == "approved"
    received = receive(as_admin, ret_id, restock=True)
    assert received.status_code == 200, received.content
    assert (received.json()["state"], received.json()["refundAmount"]) == ("refunded", 15)
    assert refunded_cents(shipped.transaction_id) == 1500
    assert Part.objects.get(pk=brake.pk).available_quantity == 8
    order = as_user.get(f"/api/booking/{shipped.pk}").json()
    assert (order["refunded"], order["state"]) == (15, "shipped")
    # The rest comes back: the remainder is refunded and the order is refunded.
    rest = ask(
        as_user, shipped, [{"partId": brake.pk, "quantity": 2}, {"partId": chain.pk, "quantity": 1}]
    )
    rest_id = rest.json()["_id"]
    decide(as_admin, rest_id, "approved")
    assert receive(as_admin, rest_id, restock=False).json()["refundAmount"] == 60
    assert refunded_cents(shipped.transaction_id) == 7500
    order = as_user.get(f"/api/booking/{shipped.pk}").json()
    assert (order["refunded"], order["state"]) == (75, "refunded")


def test_a_refund_in_full_after_a_return_refunds_the_remainder(as_user, as_admin, shipped, parts):
    brake, _ = parts
    ret_id = ask(as_user, shipped, [{"partId": brake.pk, "quantity": 1}]).json()["_id"]
    decide(as_admin, ret_id, "approved")
    receive(as_admin, ret_id)
    response = as_admin.post(f"/api/booking/{shipped.pk}/refund")
    assert response.status_code == 200
    assert (response.json()["state"], response.json()["refunded"]) == ("refunded", 75)
    assert refunded_cents(shipped.transaction_id) == 7500


def test_receiving_twice_refunds_once(as_user, as_admin, shipped, parts):
    brake, _ = parts
    ret_id = ask(as_user, shipped, [{"partId": brake.pk, "quantity": 1}]).json()["_id"]
    decide(as_admin, ret_id, "approved")
    assert receive(as_admin, ret_id).status_code == 200
    again = receive(as_admin, ret_id)
    assert again.status_code == 409
    assert again.json() == {
        "detail": "Only an approved return can be received; this one is refunded"
    }
    assert refunded_cents(shipped.transaction_id) == 1500


def test_stripe_failing_is_a_502_and_nothing_changes(settings, as_user, as_admin, shipped, parts):
    brake, _ = parts
    ret_id = ask(as_user, shipped, [{"partId": brake.pk, "quantity": 1}]).json()["_id"]
    decide(as_admin, ret_id, "approved")
    base = settings.STRIPE_API_BASE
    settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
    response = receive(as_admin, ret_id)
    assert response.status_code == 502
    assert response.json() == {"detail": PROVIDER_FAILED}
    assert Return.objects.get(pk=ret_id).state == "approved"
    assert Part.objects.get(pk=brake.pk).available_quantity == 7
    assert Booking.objects.get(pk=shipped.pk).refunded_amount == 0
    settings.STRIPE_API_BASE = base
    assert receive(as_admin, ret_id).status_code == 200
    assert refunded_cents(shipped.transaction_id) == 1500


# POST /api/booking/{id}/returns: each refusal with its field.


@pytest.fixture
def order(user):
    """Shipped, paid outside Stripe: 2 units of one part."""
    return shipped_order(user, [("10.00", 2)])


def part_of(booking):
    return booking.lines.get().part


@pytest.mark.parametrize("reason", [None, "", "broken", 3])
def test_an_unknown_reason_is_a_400_on_reason(as_user, order, reason):
    response = ask(as_user, order, [{"partId": part_of(order).pk, "quantity": 1}], reason=reason)
    assert response.status_code == 400
    assert response.json() == {
        "reason": ["Reason must be one of: doesnt_fit, wrong_part, damaged, not_needed, other"]
    }


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (None, "Choose at least one line to return"),
        ([], "Choose at least one line to return"),
        ("x", "Lines must be a list, each line with a partId and a quantity"),
        ([{"partId": 987654, "quantity": 1}], "This order has no part with id 987654"),
    ],
)
def test_bad_lines_are_a_400_on_lines(as_user, order, lines, message):
    response = ask(as_user, order, lines)
    assert response.status_code == 400
    assert response.json() == {"lines": [message]}


PART_MESSAGE = "Each line needs the partId of a part of the order"
QUANTITY_MESSAGE = "Each line needs a quantity: a whole number of units, at least 1"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"quantity": 1}, PART_MESSAGE),
        ({"partId": "x", "quantity": 1}, PART_MESSAGE),
        ({"partId": 0, "quantity": 1}, PART_MESSAGE),
        ({"partId": "own", "quantity": 0}, QUANTITY_MESSAGE),
        ({"partId": "own", "quantity": "two"}, QUANTITY_MESSAGE),
        ({"partId": "own", "quantity": 1.5}, QUANTITY_MESSAGE),
        ({"partId": "own", "quantity": True}, QUANTITY_MESSAGE),
    ],
)
def test_a_bad_line_is_a_400_on_lines(as_user, order, line, message):
    own = {"partId": part_of(order).pk} if line.get("partId") == "own" else {}
    response = ask(as_user, order, [{**line, **own}])
    assert response.status_code == 400
    assert response.json() == {"lines": [message]}


def test_more_units_than_bought_are_a_400_on_lines(as_user, order):
    part = part_of(order)
    response = ask(as_user, order, [{"partId": part.pk, "quantity": 3}])
    assert response.status_code == 400
    assert response.json() == {"lines": [f"Only 2 units of {part.name} can be returned"]}


def test_a_comment_over_1000_characters_is_a_400_on_comment(as_user, order):
    line = [{"partId": part_of(order).pk, "quantity": 1}]
    response = ask(as_user, order, line, comment="x" * 1001)
    assert response.status_code == 400
    assert response.json() == {"comment": ["A comment is at most 1,000 characters"]}


def test_past_the_window_is_a_400_with_a_detail(as_user, user):
    late = shipped_order(user, [("10.00", 2)], shipped_days_ago=31)
    response = ask(as_user, late, [{"partId": part_of(late).pk, "quantity": 1}])
    assert response.status_code == 400
    assert response.json() == {"detail": "Returns are accepted within 30 days of shipping."}


def test_an_order_not_shipped_is_a_409(as_user, user):
    paid = shipped_order(user, [("10.00", 2)], status="paid")
    response = ask(as_user, paid, [{"partId": part_of(paid).pk, "quantity": 1}])
    assert response.status_code == 409
    assert response.json() == {"detail": services.NOT_SHIPPED}


def test_another_persons_order_is_a_404_and_no_account_a_401(as_other, as_admin, anon, order):
    line = [{"partId": part_of(order).pk, "quantity": 1}]
    assert ask(as_other, order, line).status_code == 404
    assert ask(as_admin, order, line).status_code == 404  # only its shopper returns it
    assert ask(anon, order, line).status_code == 401
    assert not Return.objects.exists()


def test_an_unknown_order_is_a_404(as_user, db):
    response = as_user.post("/api/booking/987654/returns", {}, format="json")
    assert response.status_code == 404


# The admin's side.


def test_admins_list_returns_newest_first_by_state(as_user, as_admin, user):
    first_order = shipped_order(user, [("10.00", 2)])
    second_order = shipped_order(user, [("10.00", 2)])
    first = ask(as_user, first_order, [{"partId": part_of(first_order).pk, "quantity": 1}]).json()
    second = ask(
        as_user, second_order, [{"partId": part_of(second_order).pk, "quantity": 2}]
    ).json()
    decide(as_admin, first["_id"], "rejected", "Worn")
    listed = as_admin.get("/api/returns")
    assert listed.status_code == 200
    assert [r["_id"] for r in listed.json()] == [second["_id"], first["_id"]]
    assert [r["_id"] for r in as_admin.get("/api/returns?state=rejected").json()] == [first["_id"]]
    assert as_admin.get("/api/returns?state=requested").json()[0]["booking"] == second_order.pk
    bad = as_admin.get("/api/returns?state=lost")
    assert bad.status_code == 400
    assert bad.json() == {
        "state": ["State must be one of: requested, approved, rejected, refunded"]
    }


def test_decisions_and_their_refusals(as_user, as_admin, order):
    ret_id = ask(as_user, order, [{"partId": part_of(order).pk, "quantity": 1}]).json()["_id"]
    for body in ({}, {"state": "refunded"}, {"state": "requested"}):
        response = as_admin.put(f"/api/returns/{ret_id}", body, format="json")
        assert response.status_code == 400
        assert response.json() == {"state": ['State can only be "approved" or "rejected"']}
    too_long = decide(as_admin, ret_id, "rejected", "x" * 1001)
    assert too_long.json() == {"comment": ["A comment is at most 1,000 characters"]}
    assert decide(as_admin, ret_id, "rejected", "Fitted").json()["state"] == "rejected"
    again = decide(as_admin, ret_id, "approved")
    assert again.status_code == 409
    assert again.json() == {"detail": "This return was rejected already"}
    assert decide(as_admin, 987654, "approved").status_code == 404


def test_receive_needs_restock_and_an_approved_return(as_user, as_admin, order):
    ret_id = ask(as_user, order, [{"partId": part_of(order).pk, "quantity": 1}]).json()["_id"]
    for body in ({}, {"restock": None}, {"restock": "maybe"}):
        response = as_admin.post(f"/api/returns/{ret_id}/receive", body, format="json")
        assert response.status_code == 400
        assert response.json() == {
            "restock": ["Say whether the units go back in stock (restock: true or false)"]
        }
    early = receive(as_admin, ret_id)
    assert early.status_code == 409
    assert early.json() == {
        "detail": "Only an approved return can be received; this one is requested"
    }
    assert receive(as_admin, 987654).status_code == 404


@pytest.mark.parametrize(("client_name", "status"), [("anon", 401), ("as_user", 403)])
def test_only_admins_list_decide_and_receive(request, as_user, order, client_name, status):
    ret_id = ask(as_user, order, [{"partId": part_of(order).pk, "quantity": 1}]).json()["_id"]
    client = request.getfixturevalue(client_name)
    assert client.get("/api/returns").status_code == status
    assert decide(client, ret_id, "approved").status_code == status
    assert receive(client, ret_id).status_code == status
    assert Return.objects.get(pk=ret_id).state == "requested"


def test_a_booking_says_what_was_refunded(as_user, order):
    assert as_user.get(f"/api/booking/{order.pk}").json()["refunded"] == 0
    services.booking_refund(booking=order, outside_stripe=True)
    body = as_user.get(f"/api/booking/{order.pk}").json()
    assert (body["refunded"], body["state"]) == (20, "refunded")


def test_stripes_charge_refunded_events_of_returns_leave_the_order_to_the_returns(
    anon, as_user, as_admin, shipped, parts
):
    """A return's partial refund reported by Stripe's webhook leaves the order shipped; the
    last one (the charge refunded in full) finds the order refunded already."""
    brake, chain = parts
    intent = stripe_client().v1.payment_intents.retrieve(shipped.transaction_id)
    charge_id = (
        intent.latest_charge if isinstance(intent.latest_charge, str) else intent.latest_charge.id
    )
    first = ask(as_user, shipped, [{"partId": brake.pk, "quantity": 1}]).json()["_id"]
    decide(as_admin, first, "approved")
    receive(as_admin, first)
    partly = deliver(anon, refunded_event("evt_return_1", charge_id))
    assert partly.json()["outcome"] == PaymentEvent.Outcome.IGNORED
    assert Booking.objects.get(pk=shipped.pk).state == Booking.State.SHIPPED
    lines = [{"partId": brake.pk, "quantity": 2}, {"partId": chain.pk, "quantity": 1}]
    last = ask(as_user, shipped, lines).json()["_id"]
    decide(as_admin, last, "approved")
    receive(as_admin, last)
    whole = deliver(anon, refunded_event("evt_return_2", charge_id))
    assert whole.json()["outcome"] == PaymentEvent.Outcome.ALREADY_REFUNDED
    booking = Booking.objects.get(pk=shipped.pk)
    assert (booking.state, booking.refunded_amount) == ("refunded", D("75.00"))
