"""The part's Django admin against orders placed meanwhile: the form never writes stock."""

from catalog.models import StockMovement
from catalog.tests.factories import PartFactory
from catalog.tests.test_admin import CHANGELIST, change_form_data
from orders.services import booking_place


def test_saving_the_form_leaves_stock_taken_meanwhile_by_an_order_alone(staff_client, user):
    """Stock 10, an admin opens the form, an order takes 4, the admin saves a new description:
    the stock stays 6 (the form's 10 written back would oversell by 4)."""
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)
    opened = staff_client.get(f"{CHANGELIST}{part.pk}/change/")
    booking_place(user=user, part=part, quantity=4, address="1 Dock St", phone="12345")
    data = change_form_data(opened, description="Now with wear indicators.")
    data["available_quantity"] = "10"  # even a stale figure posted by hand is ignored
    response = staff_client.post(f"{CHANGELIST}{part.pk}/change/", data)
    assert response.status_code == 302, response.context and response.context["errors"]
    part.refresh_from_db()
    assert part.description == "Now with wear indicators."
    assert part.available_quantity == 6


def test_stock_is_read_only_on_the_change_form_with_its_movements(staff_client, user):
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)
    booking = booking_place(user=user, part=part, quantity=4, address="1 Dock", phone="12345")
    response = staff_client.get(f"{CHANGELIST}{part.pk}/change/")
    assert "available_quantity" not in response.context["adminform"].form.fields
    page = response.content.decode()
    assert "Adjust stock" in page
    [movements] = [
        inline
        for inline in response.context["inline_admin_formsets"]
        if inline.formset.model is StockMovement
    ]
    shown = [(f.original.change, f.original.reason, f.original.order_id) for f in movements]
    assert shown == [(-4, "order_placed", booking.pk), (10, "initial", None)]
