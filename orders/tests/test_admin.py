"""The order admin for staff: pages, the state filter, approving and deleting through services."""

import pytest

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking, PaymentEvent, Return
from orders.services import booking_confirm_payment, booking_start_payment, return_request
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import intent_id_of, pay
from orders.tests.test_services_placing_lines import place_lines
from orders.tests.test_services_returning import shipped_order
from tests.stripe_fake import free_port

CHANGELIST = "/admin/orders/booking/"


@pytest.fixture
def shopper(db):
    return UserFactory()


@pytest.fixture
def orders(shopper):
    """One order in each state."""
    return {
        "unpaid": BookingFactory(user=shopper),
        "pending": BookingFactory(user=shopper, paid_order=True, payment_intent_id="pi_pending_1"),
        "shipped": BookingFactory(user=shopper, shipped=True),
    }


def rows(response) -> set[int]:
    return {booking.pk for booking in response.context["cl"].result_list}


def messages_of(response) -> list[tuple[str, str]]:
    return [(m.level_tag, str(m)) for m in response.context["messages"]]


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?q=example.com",
        "?q=pi_pending",
        "?q=brake",
        "?state=unpaid",
        "?o=-5",
        "?created_at__gte=2000-01-01+00:00:00%2B00:00",
    ],
)
def test_changelist_answers(staff_client, orders, query):
    assert staff_client.get(CHANGELIST + query).status_code == 200


@pytest.mark.parametrize("state", ["unpaid", "pending", "shipped"])
def test_state_filter_returns_the_orders_in_that_state(staff_client, orders, state):
    response = staff_client.get(f"{CHANGELIST}?state={state}")
    assert response.status_code == 200
    assert rows(response) == {orders[state].pk}
    assert f'<td class="field-state">{state.capitalize()}</td>' in response.text


def test_search_finds_payment_ids(staff_client, orders):
    response = staff_client.get(CHANGELIST + "?q=pi_pending_1")
    assert rows(response) == {orders["pending"].pk}


def test_change_page_answers_and_add_is_not_offered(staff_client, orders):
    booking = orders["pending"]
    assert staff_client.get(f"{CHANGELIST}{booking.pk}/change/").status_code == 200
    assert staff_client.get(f"{CHANGELIST}{orders['unpaid'].pk}/delete/").status_code == 200
    assert staff_client.get(f"{CHANGELIST}add/").status_code == 403


def test_change_page_shows_the_price_breakdown_read_only(staff_client, orders):
    booking = orders["pending"]
    Booking.objects.filter(pk=booking.pk).update(
        shipping_method="Express", shipping_price="14.99", voucher_code="RIDE10"
    )
    page = staff_client.get(f"{CHANGELIST}{booking.pk}/change/").content.decode()
    for label in ("Subtotal", "Discount", "Voucher code", "Shipping method", "Shipping price"):
        assert f"{label}:</label>" in page
    assert "Express" in page and "14.99" in page and "RIDE10" in page
    for field in ("subtotal", "discount", "shipping_price", "tax", "tax_included", "ship_to"):
        assert f'name="{field}"' not in page  # shown, never an input


def test_change_page_shows_the_invoice_number_read_only_and_search_finds_it(staff_client, orders):
    booking = orders["pending"]
    page = staff_client.get(f"{CHANGELIST}{booking.pk}/change/").content.decode()
    assert "Invoice number:</label>" in page
    assert booking.invoice_number in page
    assert 'name="invoice_number"' not in page  # shown, never an input
    response = staff_client.get(CHANGELIST + f"?q={booking.invoice_number}")
    assert rows(response) == {booking.pk}


@pytest.mark.parametrize("state", ["pending", "shipped"])
def test_paid_orders_cannot_be_deleted_in_admin(staff_client, orders, state):
    booking = orders[state]
    assert staff_client.get(f"{CHANGELIST}{booking.pk}/delete/").status_code == 403
    assert (
        staff_client.post(f"{CHANGELIST}{booking.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert Booking.objects.filter(pk=booking.pk).exists()


def test_change_keeps_what_was_bought(staff_client, orders):
    booking = orders["pending"]
    response = staff_client.post(
        f"{CHANGELIST}{booking.pk}/change/",
        {
            "address": "7 New Street, York",
            "phone": "+441900000000",
            # read-only: ignored even when posted
            "parts_name": "Gold-plated exhaust",
            "total_price": "0.01",
            "subtotal": "0.01",
            "shipping_price": "500",
            "tax": "9",
            "quantity": "99",
            "paid": "",
            # The lines inline (read-only) as the page sends it: its management form.
            "lines-TOTAL_FORMS": "1",
            "lines-INITIAL_FORMS": "1",
            "lines-MIN_NUM_FORMS": "0",
            "lines-MAX_NUM_FORMS": "1000",
            "lines-0-id": str(booking.lines.get().pk),
            "lines-0-booking": str(booking.pk),
        },
    )
    assert response.status_code == 302
    kept = ("parts_name", "total_price", "subtotal", "shipping_price", "tax", "quantity", "paid")
    before = {f: getattr(booking, f) for f in kept}
    booking.refresh_from_db()
    assert booking.address == "7 New Street, York"
    assert {f: getattr(booking, f) for f in before} == before


def test_approve_action_approves_paid_orders_and_skips_unpaid_ones(staff_client, orders):
    response = staff_client.post(
        CHANGELIST,
        {
            "action": "approve_paid_orders",
            "_selected_action": [orders["unpaid"].pk, orders["pending"].pk],
        },
        follow=True,
    )
    assert response.status_code == 200
    assert messages_of(response) == [
        ("success", "1 order(s) approved."),
        ("warning", "1 unpaid order(s) skipped: they can't be approved yet."),
    ]
    states = {b.pk: b.state for b in Booking.objects.all()}
    assert states[orders["pending"].pk] == Booking.State.SHIPPED
    assert states[orders["unpaid"].pk] == Booking.State.UNPAID


def test_approve_action_with_only_unpaid_orders_never_fails(staff_client, orders):
    response = staff_client.post(
        CHANGELIST,
        {"action": "approve_paid_orders", "_selected_action": [orders["unpaid"].pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert ("warning", "1 unpaid order(s) skipped: they can't be approved yet.") in messages_of(
        response
    )
    assert Booking.objects.get(pk=orders["unpaid"].pk).status is None


def test_deleting_an_unpaid_order_returns_its_stock(staff_client, shopper):
    part = PartFactory(available_quantity=10)
    booking = BookingFactory(user=shopper, part=part, quantity=4)
    response = staff_client.post(f"{CHANGELIST}{booking.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Booking.objects.filter(pk=booking.pk).exists()
    part.refresh_from_db()
    assert part.available_quantity == 14


def bulk(staff_client, action, bookings):
    return staff_client.post(
        CHANGELIST,
        {"action": action, "_selected_action": [b.pk for b in bookings], "post": "yes"},
    )


def test_bulk_delete_returns_the_stock_of_unpaid_orders(staff_client, shopper):
    part = PartFactory(available_quantity=10)
    bookings = BookingFactory.create_batch(2, user=shopper, part=part, quantity=2)
    assert bulk(staff_client, "delete_selected", bookings).status_code == 302
    assert not Booking.objects.exists()
    part.refresh_from_db()
    assert part.available_quantity == 14


def test_bulk_delete_refuses_a_selection_with_paid_orders(staff_client, shopper):
    part = PartFactory(available_quantity=10)
    bookings = [
        BookingFactory(user=shopper, part=part, quantity=2),
        BookingFactory(user=shopper, part=part, quantity=3, paid_order=True),
    ]
    assert bulk(staff_client, "delete_selected", bookings).status_code == 403
    assert Booking.objects.count() == 2
    part.refresh_from_db()
    assert part.available_quantity == 10


def test_refund_action_refunds_paid_orders_and_skips_the_rest(stripe_on, staff_client, shopper):
    part = PartFactory(available_quantity=10)
    paid = BookingFactory(user=shopper, part=part, quantity=2)
    intent_id = intent_id_of(booking_start_payment(booking=paid))
    pay(intent_id)
    booking_confirm_payment(booking=paid, transaction_id=intent_id)
    unpaid = BookingFactory(user=shopper, part=part, quantity=3)
    response = bulk(staff_client, "refund_paid_orders", [paid, unpaid])
    assert response.status_code == 302
    paid.refresh_from_db()
    assert paid.state == Booking.State.REFUNDED
    assert paid.refund_id.startswith("re_")
    assert Booking.objects.get(pk=unpaid.pk).state == Booking.State.UNPAID
    part.refresh_from_db()
    assert part.available_quantity == 12  # the refunded order's 2 units are back


def test_changelist_query_count_does_not_grow_with_orders(
    staff_client, shopper, django_assert_max_num_queries
):
    BookingFactory.create_batch(20, user=shopper)
    with django_assert_max_num_queries(12):
        assert staff_client.get(CHANGELIST).status_code == 200


def test_orders_are_found_by_a_lines_part_name_once_each(staff_client, shopper):
    pads, rotor, chain = (
        PartFactory(name=name, available_quantity=10, minimum_order_quantity=1)
        for name in ("Brake pads front", "Brake rotor", "Chain kit")
    )
    several = place_lines(shopper, (pads, 1), (rotor, 1))
    BookingFactory(part=chain)

    response = staff_client.get(f"{CHANGELIST}?q=brake")

    assert response.status_code == 200
    assert [booking.pk for booking in response.context["cl"].result_list] == [several.pk]
    assert "Brake pads front, Brake rotor" in response.content.decode()  # the parts column


def test_payment_events_are_listed_and_searchable(staff_client):
    booking = BookingFactory(paid_order=True, payment_intent_id="pi_abc")
    PaymentEvent.objects.create(
        event_id="evt_123", type="payment_intent.succeeded", booking=booking, outcome="paid"
    )
    response = staff_client.get("/admin/orders/paymentevent/?q=evt_123")
    assert response.status_code == 200
    assert list(response.context["cl"].result_list)[0].event_id == "evt_123"
    assert staff_client.get("/admin/orders/booking/?q=pi_abc").context["cl"].result_count == 1


class TestStripeUnreachable:
    """A delete that must cancel a payment at Stripe first, with Stripe down: nothing is
    deleted, the page says why (never "deleted", never a 500)."""

    @pytest.fixture
    def unpaid(self, stripe_on, shopper, settings):
        part = PartFactory(name="Clutch lever", available_quantity=10)
        booking = BookingFactory(user=shopper, part=part, quantity=2)
        booking_start_payment(booking=booking)  # a PaymentIntent that must be cancelled
        settings.STRIPE_API_BASE = f"http://127.0.0.1:{free_port()}"
        return booking

    def test_deleting_the_order(self, staff_client, unpaid):
        url = f"{CHANGELIST}{unpaid.pk}/delete/"
        response = staff_client.post(url, {"post": "yes"}, follow=True)

        assert response.status_code == 200
        assert response.redirect_chain[-1][0] == f"{CHANGELIST}{unpaid.pk}/change/"
        [(level, text)] = messages_of(response)
        assert level == "error"
        assert text.startswith(f"“{unpaid}” was not deleted: ")
        assert Booking.objects.filter(pk=unpaid.pk).exists()

    def test_deleting_the_part(self, staff_client, unpaid):
        part = unpaid.lines.get().part
        url = f"/admin/catalog/part/{part.pk}/delete/"
        response = staff_client.post(url, {"post": "yes"}, follow=True)

        assert response.status_code == 200
        [(level, text)] = messages_of(response)
        assert (level, text.startswith(f"“{part}” was not deleted: ")) == ("error", True)
        assert Part.objects.filter(pk=part.pk).exists()
        unpaid.refresh_from_db()
        assert unpaid.state == Booking.State.UNPAID

    def test_deleting_parts_in_bulk_keeps_the_one_stripe_must_clear(self, staff_client, unpaid):
        part = unpaid.lines.get().part
        free = PartFactory(name="Spare bolt")
        response = staff_client.post(
            "/admin/catalog/part/",
            {"action": "delete_selected", "_selected_action": [part.pk, free.pk],
             "post": "yes"},
            follow=True,
        )  # fmt: skip

        assert response.status_code == 200
        errors = [text for level, text in messages_of(response) if level == "error"]
        assert errors and errors[0].startswith(f"“{part}” was not deleted: ")
        assert set(Part.objects.values_list("pk", flat=True)) == {part.pk}


def test_returns_in_django_admin_with_their_lines_and_the_approve_action(staff_client, shopper):
    booking = shipped_order(shopper, [("10.00", 2)])
    part = booking.lines.get().part
    ret = return_request(
        booking=booking, lines=[{"partId": part.pk, "quantity": 1}], reason="wrong_part"
    )
    listed = staff_client.get("/admin/orders/return/")
    assert listed.status_code == 200
    page = staff_client.get(f"/admin/orders/return/{ret.pk}/change/")
    assert page.status_code == 200
    assert f"1 × {part.name}" in page.content.decode()
    response = staff_client.post(
        "/admin/orders/return/",
        {"action": "approve_returns", "_selected_action": [ret.pk]},
        follow=True,
    )
    assert ("success", "1 return(s) approved.") in messages_of(response)
    assert Return.objects.get(pk=ret.pk).state == "approved"
    assert staff_client.get("/admin/orders/return/add/").status_code == 403


def test_change_page_shows_the_timeline_with_internal_notes(staff_client, orders, admin_user):
    booking = orders["pending"]
    services.booking_note_add(
        booking=booking, text="Fraud <b>check</b> OK", internal=True, by=admin_user
    )
    page = staff_client.get(f"{CHANGELIST}{booking.pk}/change/").content.decode()
    assert "Timeline:</label>" in page
    assert "Fraud &lt;b&gt;check&lt;/b&gt; OK" in page  # text, never HTML
