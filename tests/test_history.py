"""Who changed what and when (BEYOND.md, "Django admin"): parts and orders keep every saved
version with the person who saved it (django-simple-history), whichever door the change came
through; a part's History page lists its stock movements too; Django admin wears the shop's
name and shows one section per app."""

import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.services import user_make_admin
from catalog.models import Part
from catalog.tests.factories import PartFactory
from catalog.tests.test_admin import change_form_data
from conftest import bearer_client
from orders.models import Booking

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/catalog/part/"


def latest(instance):
    return instance.history.order_by("-history_date", "-history_id").first()


def history_page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


class TestParts:
    def test_a_price_changed_through_the_api_names_the_admin(self, admin_user):
        part = PartFactory(price=Decimal("25.50"))

        response = bearer_client(admin_user).patch(
            f"/api/allparts/{part.pk}", {"price": "27.00"}, format="json"
        )

        assert response.status_code == 200
        record = latest(part)
        assert (record.history_type, record.price, record.history_user) == (
            "~",
            Decimal("27.00"),
            admin_user,
        )

    def test_a_price_changed_on_the_edit_page_names_the_admin(self, client, admin_user):
        part = PartFactory(price=Decimal("25.50"))
        client.force_login(admin_user)

        client.post(
            f"/dashboard/parts/{part.pk}/edit",
            {"name": part.name, "price": "31.00", "minimumOrderQuantity": "2"},
        )

        assert (latest(part).price, latest(part).history_user) == (Decimal("31.00"), admin_user)

    def test_the_history_page_shows_who_changed_the_price(self, staff_client, staff):
        created = staff_client.post(
            f"{CHANGELIST}add/",
            {
                "name": "Chain kit",
                "price": "89.90",
                "minimum_order_quantity": "1",
                "available_quantity": "12",
            },
        )
        assert created.status_code == 302, created.context["adminform"].form.errors
        part = Part.objects.get(name="Chain kit")
        url = f"{CHANGELIST}{part.pk}/change/"
        changed = staff_client.post(url, change_form_data(staff_client.get(url), price="99.00"))
        assert changed.status_code == 302, changed.context["adminform"].form.errors

        html = history_page(staff_client, f"{CHANGELIST}{part.pk}/history/")

        assert staff.email in html
        assert "89.90" in html and "99.00" in html
        assert [r.history_type for r in part.history.order_by("history_date")] == ["+", "~"]

    def test_the_history_page_lists_the_stock_movements_with_who_and_why(
        self, staff_client, staff, as_admin, admin_user, user
    ):
        part = PartFactory(available_quantity=10)
        as_admin.post(
            f"/api/allparts/{part.pk}/stock", {"change": 5, "reason": "Delivery 42"}, format="json"
        )
        bearer_client(user).post(
            "/api/booking",
            {"partId": part.pk, "quantity": 2, "address": "1 Road", "phone": "+441130000000"},
            format="json",
        )

        html = history_page(staff_client, f"{CHANGELIST}{part.pk}/history/")

        movements = html[html.index('id="stock-movements"') :]
        assert "Stock movements" in movements
        assert "+5" in movements and "Delivery 42" in movements and admin_user.email in movements
        assert "Order placed" in movements and user.email in movements
        assert "Initial stock" in movements

    def test_a_shop_admin_who_is_not_a_superuser_reads_it_too(self, client, user):
        user_make_admin(user=user)
        client.force_login(user)
        part = PartFactory()

        html = history_page(client, f"{CHANGELIST}{part.pk}/history/")

        assert "Stock movements" in html and "Initial stock" in html

    def test_stock_changes_are_movements_not_part_versions(self, as_admin):
        part = PartFactory(available_quantity=10)
        versions = part.history.count()

        as_admin.post(f"/api/allparts/{part.pk}/stock", {"change": -3}, format="json")

        assert part.history.count() == versions  # the movement is the record
        assert part.stock_movements.first().change == -3
        assert not hasattr(latest(part), "available_quantity")

    def test_a_deleted_part_keeps_its_history(self, as_admin, admin_user):
        part = PartFactory()
        as_admin.delete(f"/api/allparts/{part.pk}")
        record = Part.history.filter(id=part.pk).order_by("-history_id").first()
        assert (record.history_type, record.history_user) == ("-", admin_user)


class TestOrders:
    def test_each_step_of_an_order_names_who_took_it(self, user, admin_user, staff_client):
        part = PartFactory(available_quantity=10, minimum_order_quantity=1)
        placed = bearer_client(user).post(
            "/api/booking",
            {"partId": part.pk, "quantity": 1, "address": "1 Road", "phone": "+441130000000"},
            format="json",
        )
        booking = Booking.objects.get(pk=placed.json()["_id"])
        Booking.objects.filter(pk=booking.pk).update(paid=True, transaction_id="pi_test")
        bearer_client(admin_user).put(
            f"/api/booking/{booking.pk}", {"status": "approved"}, format="json"
        )

        steps = [
            (r.history_type, r.status, r.history_user)
            for r in booking.history.order_by("history_date", "history_id")
        ]
        assert steps[0] == ("+", None, user)
        assert steps[-1] == ("~", "approved", admin_user)

        html = history_page(staff_client, f"/admin/orders/booking/{booking.pk}/history/")
        assert user.email in html and admin_user.email in html

    def test_a_lapsed_hold_released_in_a_batch_is_a_version_made_by_the_shop(
        self, user, other_user
    ):
        part = PartFactory(available_quantity=10, minimum_order_quantity=1)
        placed = bearer_client(user).post(
            "/api/booking",
            {"partId": part.pk, "quantity": 1, "address": "1 Road", "phone": "+441130000000"},
            format="json",
        )
        booking = Booking.objects.get(pk=placed.json()["_id"])
        Booking.objects.filter(pk=booking.pk).update(expires_at=timezone.now())

        # Another shopper's order of the part releases the lapsed hold first.
        bearer_client(other_user).post(
            "/api/booking",
            {"partId": part.pk, "quantity": 1, "address": "2 Road", "phone": "+441130000001"},
            format="json",
        )

        record = latest(booking)
        assert record.released_at is not None
        assert (record.history_type, record.history_user) == ("~", None)
        assert "lapsed" in record.history_change_reason

    def test_an_order_page_in_django_admin_links_its_history(self, staff_client, user):
        part = PartFactory(available_quantity=10, minimum_order_quantity=1)
        placed = bearer_client(user).post(
            "/api/booking",
            {"partId": part.pk, "quantity": 1, "address": "1 Road", "phone": "+441130000000"},
            format="json",
        )
        url = f"/admin/orders/booking/{placed.json()['_id']}/"
        assert f'href="{url}history/"' in history_page(staff_client, f"{url}change/")

    def test_versions_are_a_record_not_a_way_back(self, staff_client, user):
        """Reverting an order (say, to unpaid) would bypass every rule: not offered."""
        part = PartFactory(available_quantity=10, minimum_order_quantity=1)
        placed = bearer_client(user).post(
            "/api/booking",
            {"partId": part.pk, "quantity": 1, "address": "1 Road", "phone": "+441130000000"},
            format="json",
        )
        booking = Booking.objects.get(pk=placed.json()["_id"])
        record = booking.history.first()
        url = f"/admin/orders/booking/{booking.pk}/history/{record.history_id}/"
        assert "Revert" not in history_page(staff_client, url)
        Booking.objects.filter(pk=booking.pk).update(paid=True, transaction_id="pi_test")

        response = staff_client.post(url, {"address": "1 Road", "phone": "+441130000000"})

        assert response.status_code == 403
        booking.refresh_from_db()
        assert booking.paid


class TestAdminSite:
    def sections(self, html: str) -> list[str]:
        return re.findall(r'<a href="/admin/[a-z_]+/" class="section"[^>]*>([^<]+)</a>', html)

    def test_one_section_per_app_and_accounts_once(self, staff_client):
        sections = self.sections(history_page(staff_client, "/admin/"))

        assert sections.count("Accounts") == 1
        assert len(sections) == len(set(sections)), sections
        assert {"Accounts", "E-mail addresses", "Catalog", "Orders"} <= set(sections)

    def test_the_accounts_section_holds_the_shops_users(self, staff_client):
        html = history_page(staff_client, "/admin/accounts/")
        assert 'href="/admin/accounts/user/"' in html

    def test_the_shops_name_not_djangos(self, staff_client):
        html = history_page(staff_client, "/admin/")
        assert f"{settings.SHOP_NAME} administration".replace("&", "&amp;") in html
        assert "Django administration" not in html
