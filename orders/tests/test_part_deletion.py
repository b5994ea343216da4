"""Deleting a part (a catalog action) leaves its orders with their snapshot of it."""

from decimal import Decimal

import pytest

from catalog.models import Part
from catalog.tests.factories import PartFactory
from catalog.views import PART_DELETED
from core.tests.pages import toasts
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db

MANAGE = "/dashboard/manageparts"


def test_admin_deletes_through_the_api_and_orders_keep_their_snapshot(as_admin):
    part = PartFactory()
    booking = BookingFactory(part=part)
    response = as_admin.delete(f"/api/allparts/{part.pk}")
    assert response.status_code == 200
    assert response.json() == {"deletedCount": 1}
    booking.refresh_from_db()
    assert booking.part is None
    assert (booking.parts_name, booking.price_per_unit) == (part.name, part.price)


def test_deleting_a_part_removes_it_and_orders_keep_their_snapshot(client, admin_user):
    client.force_login(admin_user)
    part = PartFactory(name="Chrome mirror", price=Decimal("12.25"))
    order = BookingFactory(part=part, quantity=4)

    response = client.post(f"{MANAGE}/{part.pk}/delete")

    assert response.status_code == 302
    assert response["Location"] == MANAGE
    assert not Part.objects.filter(pk=part.pk).exists()
    order.refresh_from_db()
    assert (order.part, order.parts_name, order.price_per_unit, order.total_price) == (
        None,
        "Chrome mirror",
        Decimal("12.25"),
        Decimal("49.00"),
    )
    page = client.get(MANAGE)
    assert toasts(page) == [PART_DELETED] == ["Part deleted"]
    assert "Chrome mirror" not in page.content.decode()
