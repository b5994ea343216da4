"""Back-in-stock alerts in Django admin: a read-only list for shop admins, plain text."""

import pytest

from catalog import alerts
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/catalog/stockalert/"


def test_shop_admins_list_alerts_as_plain_text(staff_client, user):
    part = PartFactory(name="<script>alert(1)</script> lever", available_quantity=0)
    alerts.stock_alert_ask(part_id=part.pk, user=user)
    alerts.stock_alert_ask(part_id=part.pk, email="visitor@example.com")

    page = staff_client.get(CHANGELIST).content.decode()

    assert user.email in page and "visitor@example.com" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; lever" in page
    assert "<script>alert(1)</script>" not in page


def test_alerts_are_searched_by_address_and_filtered_by_ended(staff_client, user):
    part = PartFactory(available_quantity=0)
    alerts.stock_alert_ask(part_id=part.pk, user=user)
    alerts.stock_alert_ask(part_id=part.pk, email="visitor@example.com")

    found = staff_client.get(CHANGELIST, {"q": "visitor@"}).content.decode()
    waiting = staff_client.get(CHANGELIST, {"ended_at__isnull": "True"})

    assert "visitor@example.com" in found and user.email not in found
    assert waiting.status_code == 200


def test_alerts_are_not_added_or_changed_by_hand(staff_client):
    assert staff_client.get(f"{CHANGELIST}add/").status_code == 403
