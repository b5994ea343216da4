"""Deleting a part (a catalog action) leaves its orders with their snapshot of it."""

from decimal import Decimal

import pytest

from catalog.models import Part
from catalog.tests.factories import PartFactory
from catalog.views import PART_DELETED
from core import background
from core.tests.pages import toasts
from orders import services
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import stripe_client
from orders.tests.test_payments_no_charge_for_nothing import start
from tests.stripe_fake import free_port

pytestmark = pytest.mark.django_db

MANAGE = "/dashboard/manageparts"


def test_admin_deletes_through_the_api_and_orders_keep_their_snapshot(as_admin):
    part = PartFactory()
    booking = BookingFactory(part=part)
    response = as_admin.delete(f"/api/allparts/{part.pk}")
    assert response.status_code == 200
    assert response.json() == {"deletedCount": 1}
    line = booking.lines.get()
    assert line.part is None
    assert (line.parts_name, line.price_per_unit) == (part.name, part.price)


def test_deleting_a_part_removes_it_and_orders_keep_their_snapshot(client, admin_user):
    client.force_login(admin_user)
    part = PartFactory(name="Chrome mirror", price=Decimal("12.25"))
    order = BookingFactory(part=part, quantity=4)

    response = client.post(f"{MANAGE}/{part.pk}/delete")

    assert response.status_code == 302
    assert response["Location"] == MANAGE
    assert not Part.objects.filter(pk=part.pk).exists()
    order.refresh_from_db()
    line = order.lines.get()
    assert (line.part, line.parts_name, line.price_per_unit, order.total_price) == (
        None,
        "Chrome mirror",
        Decimal("12.25"),
        Decimal("49.00"),
    )
    page = client.get(MANAGE)
    assert toasts(page) == [PART_DELETED] == ["Part deleted"]
    assert "Chrome mirror" not in page.content.decode()


@pytest.mark.django_db(transaction=True)  # the mail leaves once the deletion commits
class TestUnpaidOrdersOfADeletedPart:
    """Deleting a part withdraws its unpaid orders: their payments are cancelled at Stripe,
    the shoppers are mailed, and paid orders keep their snapshot."""

    @pytest.fixture
    def orders(self, user, stripe_on, as_user):
        part = PartFactory(name="Chain kit", price=Decimal("20.00"), available_quantity=9,
                           minimum_order_quantity=1)  # fmt: skip
        unpaid = services.booking_place(user=user, part=part, quantity=2, address="a", phone="123")
        intent_id = start(as_user, unpaid)
        paid = BookingFactory(part=part, paid_order=True)
        # The placed mail's sender (a thread) done first: still running, it would also send
        # the test's own mail, through the backend it started with, not the test's mailbox.
        assert background.wait_idle(timeout=10)
        return part, unpaid, intent_id, paid

    def test_the_payment_is_cancelled_the_shopper_mailed_and_paid_orders_kept(
        self, as_admin, orders, mailbox
    ):
        part, unpaid, intent_id, paid = orders

        response = as_admin.delete(f"/api/allparts/{part.pk}")

        assert response.status_code == 200
        unpaid.refresh_from_db()
        paid.refresh_from_db()
        assert unpaid.state == "expired" and unpaid.lines.get().part is None
        assert stripe_client().v1.payment_intents.retrieve(intent_id).status == "canceled"
        assert (paid.state, paid.parts_name) == ("pending", "Chain kit")
        [message] = mailbox.wait_for(1, timeout=10)
        assert message["Subject"] == f"Order #{unpaid.pk} cancelled: the part is no longer sold"
        assert "we no longer sell Chain kit" in message.get_body(("plain",)).get_content()

    def test_stripe_unreachable_deletes_nothing(
        self, as_admin, orders, settings, client, admin_user
    ):
        part, unpaid, _, _ = orders
        settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"

        response = as_admin.delete(f"/api/allparts/{part.pk}")
        client.force_login(admin_user)
        page = client.post(f"{MANAGE}/{part.pk}/delete", follow=True)

        assert response.status_code == 502
        assert Part.objects.filter(pk=part.pk).exists()
        unpaid.refresh_from_db()
        assert unpaid.state == "unpaid"
        assert page.status_code == 200 and PART_DELETED not in toasts(page)
