"""The orders API for every kind of caller."""

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from core.errors import Conflict, NotFound
from orders import services
from orders.models import Booking
from orders.tests.factories import BookingFactory
from pricing.tests import factories as pricing_factories

BOOKING_FIELDS = {
    "_id",
    "email",
    "name",
    "partId",
    "partsName",
    "quantity",
    "pricePerUnit",
    "totalPrice",
    "subtotal",
    "discount",
    "voucher",
    "shipping",
    "shipment",
    "tax",
    "taxIncluded",
    "shipTo",
    "address",
    "phone",
    "paid",
    "status",
    "transactionId",
    "invoiceNumber",
    "refunded",
    "state",
    "createdAt",
    "expiresAt",
    "url",
    "lines",
    "events",
}


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("40.00"), minimum_order_quantity=2, available_quantity=10)


def order(part, **extra):
    return {
        "partId": part.pk,
        "quantity": 3,
        "address": "1 Dock St",
        "phone": "0123456789",
        **extra,
    }


class TestPlaceOrder:
    def test_user_orders_and_stock_is_reserved(self, as_user, user, part):
        response = as_user.post("/api/booking", order(part), format="json")
        assert response.status_code == 201
        body = response.json()
        assert set(body) == BOOKING_FIELDS | {"insertedId"}
        assert body["insertedId"] == body["_id"]
        assert body["email"] == user.email
        assert body["name"] == user.name
        assert body["partsName"] == part.name
        assert (body["pricePerUnit"], body["totalPrice"]) == (40.0, 120.0)
        assert (body["paid"], body["status"], body["state"]) == (False, None, "unpaid")
        part.refresh_from_db()
        assert part.available_quantity == 7

    def test_an_order_of_one_line_is_seventeen_sql_statements(
        self, as_user, user, part, django_assert_max_num_queries
    ):
        """The token's user, the part, lapsed holds; the account's lock and the client
        address's lock in one statement; the holds of both; kept deadlines; the part's lock;
        the default shipping method, its bands, the tax rate (pricing's quote); the order, its
        history, its line; the stock and its movement (on the row already locked); the
        transaction. The answer's lines are those just written."""
        pricing_factories.method("Standard", bands=[(2000, "6.95")])
        as_user.post("/api/booking", order(part), format="json")  # the account holds some
        with django_assert_max_num_queries(17):
            response = as_user.post("/api/booking", order(part, quantity=2), format="json")
        assert response.status_code == 201

    def test_prices_and_identity_cannot_be_forged(self, as_user, user, part):
        forged = order(
            part,
            pricePerUnit=0.01,
            totalPrice=0.03,
            email="someone@else.com",
            name="Mallory",
            partsName="Free stuff",
        )
        body = as_user.post("/api/booking", forged, format="json").json()
        booking = Booking.objects.get(pk=body["_id"])
        assert (booking.price_per_unit, booking.total_price) == (
            Decimal("40.00"),
            Decimal("120.00"),
        )
        assert (booking.email, booking.parts_name) == (user.email, part.name)

    def test_the_spec_payload_without_part_id_finds_the_part_by_name(self, as_user, part):
        payload = {"partsName": part.name, "quantity": "2", "address": "x", "phone": "555123"}
        response = as_user.post("/api/booking", payload, format="json")
        assert response.status_code == 201
        assert response.json()["partId"] == part.pk

    def test_anonymous_cannot_order(self, anon, part):
        assert anon.post("/api/booking", order(part), format="json").status_code == 401

    @pytest.mark.parametrize(
        ("quantity", "message"),
        [
            (1, "Quantity must be at least 2 (the minimum order quantity)"),
            (11, "Only 10 units are available"),
            (0, "Quantity must be at least 2 (the minimum order quantity)"),
            (-3, "Quantity must be at least 2 (the minimum order quantity)"),
            ("-3", "Quantity must be at least 2 (the minimum order quantity)"),
            (10**12, "Only 10 units are available"),
            ("many", "Quantity must be a whole number"),
            ("2.5", "Quantity must be a whole number"),
        ],
    )
    def test_quantity_bounds(self, as_user, part, quantity, message):
        response = as_user.post("/api/booking", order(part, quantity=quantity), format="json")
        assert response.status_code == 400
        assert response.json() == {"quantity": [message]}
        part.refresh_from_db()
        assert part.available_quantity == 10
        assert not Booking.objects.exists()

    def test_the_last_unit_is_one_unit(self, as_user, db):
        last = PartFactory(minimum_order_quantity=1, available_quantity=1)
        response = as_user.post("/api/booking", order(last, quantity=2), format="json")
        assert response.status_code == 400
        assert response.json() == {"quantity": ["Only 1 unit is available"]}

    @pytest.mark.parametrize(
        ("field", "message"),
        [
            ("address", "Address is required"),
            ("phone", "Phone is required"),
            ("quantity", "Quantity is required"),
        ],
    )
    def test_required_fields(self, as_user, part, field, message):
        payload = {k: v for k, v in order(part).items() if k != field}
        response = as_user.post("/api/booking", payload, format="json")
        assert response.status_code == 400
        assert response.json()[field] == [message]

    @pytest.mark.parametrize("part_id", [987654, 2**31, 2**63 - 1])
    def test_unknown_part(self, as_user, db, part_id):
        payload = {"partId": part_id, "quantity": 1, "address": "x", "phone": "12345"}
        response = as_user.post("/api/booking", payload, format="json")
        assert response.status_code == 400
        assert response.json() == {"partId": ["There is no part with this id"]}

    def test_no_part_named(self, as_user, db):
        payload = {"quantity": 1, "address": "x", "phone": "12345"}
        response = as_user.post("/api/booking", payload, format="json")
        assert response.json() == {"partId": ["Choose a part to order"]}

    @pytest.mark.parametrize("parts_named", [0, 2])
    def test_a_name_that_is_not_exactly_one_parts_names_no_part(self, as_user, db, parts_named):
        for _ in range(parts_named):
            PartFactory(name="Chain kit")
        payload = {"partsName": "Chain kit", "quantity": 2, "address": "x", "phone": "12345"}
        response = as_user.post("/api/booking", payload, format="json")
        assert response.status_code == 400
        assert response.json() == {"partId": ["Choose a part to order"]}

    def test_stock_taken_meanwhile_is_a_409(self, user, part):
        """The shopper saw 10 units; other orders took 9 before the row was locked."""
        stale = Part.objects.get(pk=part.pk)
        for quantity in (5, 2, 2):  # one account may hold at most half (MAX_HELD_SHARE)
            services.booking_place(
                user=UserFactory(), part=part, quantity=quantity, address="a", phone="12345"
            )
        with pytest.raises(Conflict, match="only 1 unit is left"):
            services.booking_place(user=user, part=stale, quantity=5, address="a", phone="12345")


class TestListOrders:
    def test_user_sees_own_orders_newest_first(self, as_user, user):
        first, second = BookingFactory(user=user), BookingFactory(user=user)
        BookingFactory()
        for url in ("/api/booking", f"/api/booking?email={user.email}"):
            body = as_user.get(url).json()
            assert [b["_id"] for b in body] == [second.pk, first.pk]
            assert set(body[0]) == BOOKING_FIELDS

    def test_other_users_orders_are_forbidden(self, as_other, user):
        BookingFactory(user=user)
        response = as_other.get(f"/api/booking?email={user.email}")
        assert response.status_code == 403
        assert "detail" in response.json()

    def test_admin_reads_anyones_orders(self, as_admin, user):
        booking = BookingFactory(user=user)
        body = as_admin.get(f"/api/booking?email={user.email.upper()}").json()
        assert [b["_id"] for b in body] == [booking.pk]

    def test_anonymous_is_401(self, anon, user):
        assert anon.get(f"/api/booking?email={user.email}").status_code == 401

    @pytest.mark.parametrize(
        ("client_name", "status"), [("anon", 401), ("as_user", 403), ("as_admin", 200)]
    )
    def test_all_bookings_for_admins_only(self, request, db, client_name, status):
        BookingFactory.create_batch(2)
        response = request.getfixturevalue(client_name).get("/api/bookings")
        assert response.status_code == status
        if status == 200:
            assert len(response.json()) == 2


class TestOneOrder:
    @pytest.mark.parametrize(
        ("client_name", "status"),
        [("anon", 401), ("as_user", 200), ("as_other", 404), ("as_admin", 200)],
    )
    def test_get(self, request, user, client_name, status):
        booking = BookingFactory(user=user)
        response = request.getfixturevalue(client_name).get(f"/api/booking/{booking.pk}")
        assert response.status_code == status
        if status == 200:
            assert response.json()["_id"] == booking.pk

    def test_owner_deletes_unpaid_order_and_stock_returns(self, as_user, user, part):
        booking = services.booking_place(
            user=user, part=part, quantity=4, address="a", phone="12345"
        )
        response = as_user.delete(f"/api/booking/{booking.pk}")
        assert response.status_code == 200
        assert response.json() == {"deletedCount": 1}
        part.refresh_from_db()
        assert part.available_quantity == 10
        assert not Booking.objects.exists()

    def test_owner_cannot_delete_a_paid_order(self, as_user, user):
        booking = BookingFactory(user=user, paid_order=True)
        response = as_user.delete(f"/api/booking/{booking.pk}")
        assert response.status_code == 409
        assert response.json() == {"detail": services.PAID_ORDER_LOCKED}
        assert Booking.objects.filter(pk=booking.pk).exists()

    def test_other_user_cannot_delete(self, as_other, user):
        booking = BookingFactory(user=user)
        assert as_other.delete(f"/api/booking/{booking.pk}").status_code == 404
        assert Booking.objects.filter(pk=booking.pk).exists()

    @pytest.mark.parametrize("kind", ["paid_order", "shipped"])
    def test_not_even_an_admin_deletes_a_paid_order(self, as_admin, user, kind):
        booking = BookingFactory(user=user, **{kind: True})
        response = as_admin.delete(f"/api/booking/{booking.pk}")
        assert response.status_code == 409
        assert response.json() == {"detail": services.PAID_ORDER_LOCKED}
        assert Booking.objects.filter(pk=booking.pk).exists()

    def test_anonymous_cannot_delete(self, anon, user):
        booking = BookingFactory(user=user)
        assert anon.delete(f"/api/booking/{booking.pk}").status_code == 401


class TestApprove:
    def test_admin_approves_a_paid_order(self, as_admin, user):
        booking = BookingFactory(user=user, paid_order=True)
        response = as_admin.put(f"/api/booking/{booking.pk}", {"status": "approved"}, format="json")
        assert response.status_code == 200
        body = response.json()
        assert (body["status"], body["state"], body["modifiedCount"]) == ("approved", "shipped", 1)
        again = as_admin.put(f"/api/booking/{booking.pk}", {"status": "approved"}, format="json")
        assert again.json()["modifiedCount"] == 0

    def test_unpaid_order_cannot_be_approved(self, as_admin, user):
        booking = BookingFactory(user=user)
        response = as_admin.put(f"/api/booking/{booking.pk}", {"status": "approved"}, format="json")
        assert response.status_code == 409
        assert response.json() == {"detail": "This order is not paid yet, so it can't be approved"}

    @pytest.mark.parametrize("status_value", ["shipped", "", None])
    def test_only_approved_is_a_status(self, as_admin, user, status_value):
        booking = BookingFactory(user=user, paid_order=True)
        response = as_admin.put(
            f"/api/booking/{booking.pk}", {"status": status_value}, format="json"
        )
        assert response.status_code == 400
        assert list(response.json()) == ["status"]

    @pytest.mark.parametrize(("client_name", "status"), [("anon", 401), ("as_user", 403)])
    def test_only_admins_approve(self, request, user, client_name, status):
        booking = BookingFactory(user=user, paid_order=True)
        client = request.getfixturevalue(client_name)
        response = client.put(f"/api/booking/{booking.pk}", {"status": "approved"}, format="json")
        assert response.status_code == status
        booking.refresh_from_db()
        assert booking.status is None

    def test_approving_an_unknown_order_is_404(self, as_admin, db):
        response = as_admin.put("/api/booking/31337", {"status": "approved"}, format="json")
        assert response.status_code == 404


def test_a_part_id_beyond_the_database_range_is_a_400(as_user, db):
    payload = {"partId": 2**70, "quantity": 1, "address": "x", "phone": "12345"}
    response = as_user.post("/api/booking", payload, format="json")
    assert response.status_code == 400
    assert response.json() == {"partId": ["There is no part with this id"]}


def test_approving_an_order_deleted_meanwhile_is_a_404(admin_user, user):
    booking = BookingFactory(user=user, paid_order=True)
    Booking.objects.filter(pk=booking.pk).delete()
    with pytest.raises(NotFound):
        services.booking_approve(booking=booking)


def test_cancelling_an_order_already_gone_reports_nothing_deleted(user):
    booking = BookingFactory(user=user)
    assert services.booking_cancel(booking=booking) is True
    assert services.booking_cancel(booking=booking) is False
