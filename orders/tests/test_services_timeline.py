"""An order's Timeline (API.md "After the sale"): each step recorded by the service that made
it (placed, paid, shipped, refunded, expired), oldest first, in `<booking>.events`; the shop's
notes, internal ones for shop admins only; a step that rolls back leaves nothing."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking
from orders.serializers import NOTE_REQUIRED, NOTE_TOO_LONG
from orders.tests.stripe_helpers import intent_id_of, pay
from tests.stripe_fake import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("15.00"), minimum_order_quantity=1, available_quantity=10)


@pytest.fixture
def placed(user, part) -> Booking:
    return services.booking_place(user=user, part=part, quantity=3, address="a", phone="12345")


@pytest.fixture
def paid(stripe_on, placed) -> Booking:
    """The order paid by card at the fake Stripe: $45.00."""
    intent_id = intent_id_of(services.booking_start_payment(booking=placed))
    pay(intent_id)
    return services.booking_confirm_payment(booking=placed, transaction_id=intent_id)


def steps(client, booking) -> list[tuple[str, str]]:
    events = client.get(f"/api/booking/{booking.pk}").json()["events"]
    return [(event["kind"], event["text"]) for event in events]


def note(client, booking, **body):
    return client.post(f"/api/booking/{booking.pk}/notes", body, format="json")


def test_an_order_placed_starts_its_timeline_in_the_answer_that_placed_it(as_user, part):
    body = {"partId": part.pk, "quantity": 2, "address": "1 Main St", "phone": "12345"}
    answer = as_user.post("/api/booking", body, format="json").json()
    assert [(e["kind"], e["text"]) for e in answer["events"]] == [
        ("placed", "Order placed ($30.00)")
    ]
    assert set(answer["events"][0]) == {"at", "kind", "text"}


def test_paid_shipped_and_refunded_follow_in_order(as_user, as_admin, paid):
    invoice = Booking.objects.get(pk=paid.pk).invoice_number
    services.booking_approve(booking=paid, carrier="ups", tracking_number="1Z999AA10123456784")
    services.booking_approve(booking=paid, tracking_number="1Z999AA10123456785")
    assert as_admin.post(f"/api/booking/{paid.pk}/refund").status_code == 200
    assert steps(as_user, paid) == [
        ("placed", "Order placed ($45.00)"),
        ("paid", f"Paid $45.00 by card (invoice {invoice})"),
        ("shipped", "Shipped with UPS, tracking 1Z999AA10123456784"),
        ("shipped", "Updated: Shipped with UPS, tracking 1Z999AA10123456785"),
        ("refunded", "Refunded $45.00"),
    ]
    assert Booking.objects.get(pk=paid.pk).events[-1]["amount"] == "45.00"


def test_the_events_are_oldest_first_with_their_moments(as_user, paid):
    events = as_user.get(f"/api/booking/{paid.pk}").json()["events"]
    moments = [event["at"] for event in events]
    assert moments == sorted(moments)
    assert moments[0].endswith("Z")


def test_an_approve_that_changes_nothing_adds_no_step(as_user, paid):
    services.booking_approve(booking=paid, carrier="UPS")
    services.booking_approve(booking=paid, carrier="UPS")
    assert [kind for kind, _ in steps(as_user, paid)] == ["placed", "paid", "shipped"]


def test_a_lapsed_hold_records_its_expiry(as_user, placed):
    Booking.objects.filter(pk=placed.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert services.booking_expire(booking_id=placed.pk)
    assert steps(as_user, placed)[-1] == ("expired", "The hold lapsed unpaid: the order expired")


def test_a_withdrawn_order_says_which_part_went(as_user, placed, part):
    services.booking_withdraw_for_part(part_id=part.pk)
    assert steps(as_user, placed)[-1] == ("expired", f"Withdrawn: {part.name} is no longer sold")


def test_a_refund_that_stripe_refuses_leaves_no_step(settings, as_user, as_admin, paid):
    settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
    assert as_admin.post(f"/api/booking/{paid.pk}/refund").status_code == 502
    assert [kind for kind, _ in steps(as_user, paid)] == ["placed", "paid"]


def test_a_note_to_the_shopper_shows_to_them_and_an_internal_one_only_to_admins(
    as_user, as_admin, placed
):
    answer = note(as_admin, placed, text="Packed today, ships tomorrow.")
    assert answer.status_code == 201
    assert answer.json()["kind"] == "note"
    assert answer.json()["text"] == "Packed today, ships tomorrow."
    assert note(as_admin, placed, text="Called the courier", internal=True).status_code == 201
    assert steps(as_user, placed)[-1] == ("note", "Packed today, ships tomorrow.")
    assert steps(as_admin, placed)[-1] == ("internal_note", "Called the courier")
    mine = as_user.get("/api/booking", {"email": placed.email}).json()
    assert "internal_note" not in {e["kind"] for order in mine for e in order["events"]}
    everyone = as_admin.get("/api/bookings").json()
    assert "internal_note" in {e["kind"] for order in everyone for e in order["events"]}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, NOTE_REQUIRED),
        ({"text": "   "}, NOTE_REQUIRED),
        ({"text": None}, NOTE_REQUIRED),
        ({"text": "x" * 1001}, NOTE_TOO_LONG),
    ],
)
def test_a_note_without_text_or_too_long_is_a_400_on_text(as_admin, placed, body, message):
    answer = note(as_admin, placed, **body)
    assert answer.status_code == 400
    assert answer.json() == {"text": [message]}


def test_a_note_of_1000_characters_is_kept_whole(as_admin, placed):
    assert note(as_admin, placed, text="y" * 1000).status_code == 201
    assert Booking.objects.get(pk=placed.pk).events[-1]["text"] == "y" * 1000


def test_a_note_on_no_such_order_is_a_404_and_internal_must_be_a_boolean(as_admin, placed):
    assert as_admin.post("/api/booking/999999999/notes", {"text": "hi"}).status_code == 404
    answer = note(as_admin, placed, text="hi", internal="perhaps")
    assert answer.status_code == 400
    assert set(answer.json()) == {"internal"}


def test_shoppers_cannot_write_notes(as_user, placed):
    assert note(as_user, placed, text="Please hurry").status_code == 403
    assert [kind for kind, _ in steps(as_user, placed)] == ["placed"]
