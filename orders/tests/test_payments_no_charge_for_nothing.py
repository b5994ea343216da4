"""No charge for nothing: deleting cancels the payment at Stripe, payments for
orders that lapsed or vanished are honoured or refunded, money records stay, and the calls
that reach Stripe are limited. Against localstripe (the `stripe_on` fixture)."""

from decimal import Decimal

import pytest
import stripe

from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking, PaymentEvent
from orders.services import ORDER_EXPIRED, PAID_MEANWHILE, PAYMENT_REFUNDED
from orders.tests.stripe_helpers import intent_event, intent_id_of, pay, signed, stripe_client
from orders.tests.test_holds import lapse
from pricing import services as pricing_services
from pricing.models import VoucherUse
from pricing.tests import factories as pricing_factories
from tests.stripe_fake import free_port

pytestmark = pytest.mark.django_db
WEBHOOK = "/api/stripe/webhook"


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("20.00"), minimum_order_quantity=1, available_quantity=5)


@pytest.fixture
def order(user, part):
    return services.booking_place(user=user, part=part, quantity=2, address="a", phone="12345")


def start(client, booking) -> str:
    response = client.post("/api/create-payment-intent", {"booking": booking.pk}, format="json")
    assert response.status_code == 200, response.content
    return intent_id_of(response.json()["clientSecret"])


def deliver(anon, event: dict):
    body, signature = signed(event)
    return anon.post(
        WEBHOOK, body, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature
    )


def succeeded(anon, intent_id: str, event_id: str):
    intent = stripe_client().v1.payment_intents.retrieve(intent_id).to_dict()
    return deliver(anon, intent_event(event_id, "payment_intent.succeeded", intent))


def refunded_cents(intent_id: str) -> int:
    refunds = stripe_client().v1.refunds.list(params={"payment_intent": intent_id})
    return sum(r.amount for r in refunds.data)


def stock(part) -> int:
    return Part.objects.get(pk=part.pk).available_quantity


class TestDelete:
    def test_deleting_cancels_the_payment_so_it_can_no_longer_be_charged(
        self, stripe_on, as_user, order, part
    ):
        intent_id = start(as_user, order)
        assert as_user.delete(f"/api/booking/{order.pk}").status_code == 200
        assert stripe_client().v1.payment_intents.retrieve(intent_id).status == "canceled"
        with pytest.raises(stripe.StripeError):
            pay(intent_id)
        assert stock(part) == 5

    def test_a_payment_that_succeeded_first_wins_over_the_delete(
        self, stripe_on, as_user, order, part
    ):
        intent_id = start(as_user, order)
        pay(intent_id)  # charged; neither the webhook nor the PATCH has arrived yet
        response = as_user.delete(f"/api/booking/{order.pk}")
        assert response.status_code == 409
        assert response.json() == {"detail": PAID_MEANWHILE}
        order.refresh_from_db()
        assert (order.state, order.transaction_id) == ("pending", intent_id)
        assert stock(part) == 3
        assert refunded_cents(intent_id) == 0

    def test_stripe_unreachable_is_a_502_and_nothing_changes(
        self, stripe_on, settings, as_user, order, part
    ):
        start(as_user, order)
        settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
        response = as_user.delete(f"/api/booking/{order.pk}")
        assert response.status_code == 502
        assert Booking.objects.filter(pk=order.pk).exists()
        assert stock(part) == 3

    def test_an_order_never_sent_to_stripe_is_deleted_without_stripe(self, as_user, order):
        assert as_user.delete(f"/api/booking/{order.pk}").status_code == 200


class TestLateAndOrphanPayments:
    def test_a_payment_for_an_order_that_no_longer_exists_is_refunded(self, stripe_on, anon):
        created = stripe_client().v1.payment_intents.create(
            params={
                "amount": 4000,
                "currency": "usd",
                "metadata": {"booking_id": "987654"},
                "payment_method_types": ["card"],
            }
        )
        pay(created.id)
        response = succeeded(anon, created.id, "evt_orphan")
        assert response.status_code == 200
        assert response.json()["outcome"] == PaymentEvent.Outcome.REFUNDED
        assert refunded_cents(created.id) == 4000
        # The same event again refunds nothing more.
        assert succeeded(anon, created.id, "evt_orphan").status_code == 200
        assert refunded_cents(created.id) == 4000

    def test_a_late_payment_takes_the_stock_again_when_enough_is_left(
        self, stripe_on, anon, as_user, order, part
    ):
        intent_id = start(as_user, order)
        lapse(order)
        services.booking_release_lapsed_holds()
        assert stock(part) == 5
        pay(intent_id)
        response = succeeded(anon, intent_id, "evt_late_ok")
        assert response.json()["outcome"] == PaymentEvent.Outcome.PAID
        order.refresh_from_db()
        assert order.state == Booking.State.PENDING
        assert order.released_at is None
        assert stock(part) == 3
        assert refunded_cents(intent_id) == 0

    def test_a_late_payment_is_refunded_when_the_stock_is_gone(
        self, settings, stripe_on, anon, as_user, other_user, order, part
    ):
        settings.MAX_HELD_SHARE = 1  # one shopper may take every unit
        intent_id = start(as_user, order)
        lapse(order)
        services.booking_place(
            user=other_user, part=part, quantity=5, address="a", phone="12345"
        )  # releases the lapsed hold and takes every unit
        pay(intent_id)
        response = succeeded(anon, intent_id, "evt_late_gone")
        assert response.json()["outcome"] == PaymentEvent.Outcome.REFUNDED
        order.refresh_from_db()
        assert order.state == Booking.State.REFUNDED
        assert order.transaction_id == intent_id
        assert refunded_cents(intent_id) == 4000
        assert stock(part) == 0

    def test_the_patch_of_a_late_payment_takes_the_stock_again(
        self, stripe_on, as_user, order, part
    ):
        intent_id = start(as_user, order)
        lapse(order)
        services.booking_release_lapsed_holds()
        pay(intent_id)
        response = as_user.patch(
            f"/api/booking/{order.pk}", {"transactionId": intent_id}, format="json"
        )
        assert response.status_code == 200
        assert response.json()["state"] == "pending"
        assert stock(part) == 3

    def test_the_patch_of_a_late_payment_with_no_stock_left_refunds_it(
        self, settings, stripe_on, as_user, other_user, order, part
    ):
        settings.MAX_HELD_SHARE = 1  # one shopper may take every unit
        intent_id = start(as_user, order)
        lapse(order)
        services.booking_place(user=other_user, part=part, quantity=5, address="a", phone="1234")
        pay(intent_id)
        response = as_user.patch(
            f"/api/booking/{order.pk}", {"transactionId": intent_id}, format="json"
        )
        assert response.status_code == 409
        assert response.json() == {"detail": PAYMENT_REFUNDED}
        assert Booking.objects.get(pk=order.pk).state == Booking.State.REFUNDED
        assert refunded_cents(intent_id) == 4000

    @pytest.fixture
    def with_last_use(self, user, part):
        """An order of 2 at $20 with a voucher's only use (10% off: $36), its hold lapsed
        and released: the use came back."""
        voucher = pricing_factories.voucher("LAST", usage_limit=1)
        placed = services.booking_place_lines(
            user=user, lines=[(part.pk, 2)], address="a", phone="12345", voucher=voucher
        )
        return placed, voucher

    def lapsed(self, as_user, booking) -> str:
        intent_id = start(as_user, booking)
        lapse(booking)
        services.booking_release_lapsed_holds()
        assert not VoucherUse.objects.exists()
        return intent_id

    def test_a_late_payment_takes_its_vouchers_use_again(
        self, stripe_on, anon, as_user, with_last_use, part
    ):
        booking, voucher = with_last_use
        intent_id = self.lapsed(as_user, booking)
        pay(intent_id)
        response = succeeded(anon, intent_id, "evt_late_voucher")
        assert response.json()["outcome"] == PaymentEvent.Outcome.PAID
        assert VoucherUse.objects.get().order_id == booking.pk
        assert stock(part) == 3

    def test_a_late_payment_is_refunded_when_its_voucher_was_used_up_meanwhile(
        self, stripe_on, anon, as_user, with_last_use, part
    ):
        booking, voucher = with_last_use
        intent_id = self.lapsed(as_user, booking)
        pricing_services.voucher_use(  # another order took the use that came back
            voucher_id=voucher.pk, user=None, email="x@example.com", order_id=999, subtotal=40
        )
        pay(intent_id)
        response = succeeded(anon, intent_id, "evt_late_used_up")
        assert response.json()["outcome"] == PaymentEvent.Outcome.REFUNDED
        assert Booking.objects.get(pk=booking.pk).state == Booking.State.REFUNDED
        assert refunded_cents(intent_id) == 3600
        assert VoucherUse.objects.get().order_id == 999  # the limit holds: one use
        assert stock(part) == 5  # the units it took again went back with the voucher's refusal

    def test_an_expired_order_cannot_be_paid_by_patch(self, stripe_on, as_user, order):
        intent_id = start(as_user, order)
        lapse(order)
        response = as_user.patch(
            f"/api/booking/{order.pk}", {"transactionId": intent_id}, format="json"
        )
        assert response.status_code == 409
        assert response.json() == {"detail": ORDER_EXPIRED}


@pytest.mark.parametrize(
    "body",
    [
        [],
        "just a string",
        {"hello": "world"},
        {"id": "evt_1", "object": "event", "type": "payment_intent.succeeded"},
        {"id": "evt_1", "object": "event", "type": "x", "data": {"object": "nope"}},
        {"id": 5, "object": "event", "type": "x", "data": {"object": {}}},
    ],
)
def test_a_signed_body_that_is_not_a_stripe_event_is_a_400(stripe_on, anon, body):
    response = deliver(anon, body)
    assert response.status_code == 400
    assert not PaymentEvent.objects.exists()


def paid(client, booking) -> str:
    """Pay `booking` at Stripe and confirm it (PATCH); the id of its charge."""
    intent_id = start(client, booking)
    charge = pay(intent_id).latest_charge
    response = client.patch(
        f"/api/booking/{booking.pk}", {"transactionId": intent_id}, format="json"
    )
    assert response.status_code == 200, response.content
    return charge if isinstance(charge, str) else charge.id


def refunded_event(event_id: str, charge_id: str, **claims) -> dict:
    """charge.refunded about `charge_id`: the charge as Stripe has it, or as `claims` say."""
    charge = stripe_client().v1.charges.retrieve(charge_id).to_dict()
    return intent_event(event_id, "charge.refunded", {**charge, **claims})


class TestChargeRefunded:
    def test_a_full_refund_marks_the_order_refunded_once(
        self, stripe_on, anon, as_user, order, part
    ):
        charge_id = paid(as_user, order)
        refund = stripe_client().v1.refunds.create(params={"charge": charge_id})
        first = deliver(anon, refunded_event("evt_r1", charge_id))
        assert first.json()["outcome"] == PaymentEvent.Outcome.REFUNDED
        again = deliver(anon, refunded_event("evt_r2", charge_id))
        assert again.json()["outcome"] == PaymentEvent.Outcome.ALREADY_REFUNDED
        order.refresh_from_db()
        assert (order.state, order.refund_id) == ("refunded", refund.id)
        assert stock(part) == 5  # the 2 held units came back, once

    def test_a_partial_refund_leaves_the_order_paid(self, stripe_on, anon, as_user, order):
        charge_id = paid(as_user, order)
        stripe_client().v1.refunds.create(params={"charge": charge_id, "amount": 1000})
        response = deliver(anon, refunded_event("evt_part", charge_id))
        assert response.json()["outcome"] == PaymentEvent.Outcome.IGNORED
        assert Booking.objects.get(pk=order.pk).state == Booking.State.PENDING

    def test_a_refund_that_stripe_does_not_report_changes_nothing(
        self, stripe_on, anon, as_user, order, part
    ):
        """The event's word is never taken for it: Stripe is asked."""
        charge_id = paid(as_user, order)
        claims = {"refunded": True, "amount_refunded": 4000}
        claims["refunds"] = {"object": "list", "data": [{"id": "re_madeup"}]}
        response = deliver(anon, refunded_event("evt_claimed", charge_id, **claims))
        assert response.status_code == 200
        assert response.json()["outcome"] == PaymentEvent.Outcome.REJECTED
        assert Booking.objects.get(pk=order.pk).state == Booking.State.PENDING
        assert stock(part) == 3

    def test_a_made_up_charge_changes_nothing(self, stripe_on, anon, as_user, order):
        paid(as_user, order)
        order.refresh_from_db()
        made_up = {"id": "ch_madeup0000001", "object": "charge", "amount": 4000}
        made_up |= {"payment_intent": order.transaction_id, "refunded": True}
        response = deliver(anon, intent_event("evt_made_up", "charge.refunded", made_up))
        assert response.json()["outcome"] == PaymentEvent.Outcome.REJECTED
        assert Booking.objects.get(pk=order.pk).state == Booking.State.PENDING


class TestThrottle:
    @pytest.fixture
    def two_per_minute(self, settings):
        rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "payments": "2/minute"}
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    def test_calls_that_reach_stripe_are_limited_per_user(
        self, stripe_on, two_per_minute, as_user, as_other, order, other_user, part
    ):
        start(as_user, order)
        confirm = as_user.patch(
            f"/api/booking/{order.pk}", {"transactionId": "pi_x"}, format="json"
        )
        assert confirm.status_code == 400  # counted: it asked Stripe
        third = as_user.post("/api/create-payment-intent", {"booking": order.pk}, format="json")
        assert third.status_code == 429
        patch = as_user.patch(f"/api/booking/{order.pk}", {"transactionId": "pi_x"}, format="json")
        assert patch.status_code == 429
        # Reading and deleting are not limited; another user pays as usual.
        assert as_user.get(f"/api/booking/{order.pk}").status_code == 200
        theirs = services.booking_place(
            user=other_user, part=part, quantity=1, address="a", phone="12345"
        )
        assert start(as_other, theirs)

    def test_the_default_is_twenty_a_minute(self, settings):
        assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["payments"] == "20/minute"
