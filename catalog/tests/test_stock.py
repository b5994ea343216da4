"""catalog.stock: every stock change locked, checked, kept as a movement, shown at once."""

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError

from catalog import selectors, stock
from catalog.models import Part, StockMovement
from catalog.tests.factories import PartFactory
from core.errors import Conflict

pytestmark = pytest.mark.django_db


def shown_stock(part) -> int:
    """The stock the cached catalog shows for `part`."""
    page = selectors.part_page(page=1)
    return next(p.available_quantity for p in page.items if p.pk == part.pk)


def test_a_new_part_keeps_its_initial_stock_as_a_movement():
    part = PartFactory(available_quantity=12)
    (movement,) = part.stock_movements.all()
    assert (movement.change, movement.reason, movement.stock_after) == (12, "initial", 12)
    assert not PartFactory(available_quantity=0).stock_movements.exists()


def test_reserve_takes_units_keeps_the_order_and_refreshes_the_cached_catalog(user):
    part = PartFactory(available_quantity=10)
    assert shown_stock(part) == 10
    locked = stock.stock_reserve(part_id=part.pk, quantity=4, order_id=77, by=user)
    assert locked.available_quantity == 6
    assert shown_stock(part) == 6
    movement = part.stock_movements.first()
    assert (movement.change, movement.reason, movement.order_id, movement.by) == (
        -4,
        "order_placed",
        77,
        user,
    )


def test_an_orders_lines_are_taken_at_once_each_with_its_movement(user):
    pads, rotor = PartFactory(available_quantity=10), PartFactory(available_quantity=5)
    assert (shown_stock(pads), shown_stock(rotor)) == (10, 5)
    with transaction.atomic():
        rows = stock.stock_lock_parts(part_ids=[rotor.pk, pads.pk])
        lines = [(rows[pads.pk], 3), (rows[rotor.pk], 5)]
        stock.stock_take_lines(lines=lines, order_id=78, by=user)
    assert (rows[pads.pk].available_quantity, rows[rotor.pk].available_quantity) == (7, 0)
    assert (shown_stock(pads), shown_stock(rotor)) == (7, 0)
    taken = StockMovement.objects.filter(order_id=78).order_by("part_id")
    assert list(taken.values_list("part_id", "change", "stock_after", "by")) == [
        (pads.pk, -3, 7, user.pk),
        (rotor.pk, -5, 0, user.pk),
    ]


def test_two_lines_of_one_part_are_refused_and_nothing_is_taken(user):
    pads = PartFactory(available_quantity=10)
    with transaction.atomic():
        locked = stock.stock_lock_parts(part_ids=[pads.pk])[pads.pk]
        with pytest.raises(ValueError, match="one line per part"):
            stock.stock_take_lines(lines=[(locked, 3), (locked, 2)], order_id=79, by=user)
    assert shown_stock(pads) == 10
    assert not StockMovement.objects.filter(order_id=79).exists()


def test_reserve_beyond_the_stock_is_the_409_with_the_units_left():
    part = PartFactory(available_quantity=3)
    with pytest.raises(Conflict) as refusal:
        stock.stock_reserve(part_id=part.pk, quantity=4)
    assert refusal.value.message == "The stock changed while you ordered: only 3 units are left"
    part.refresh_from_db()
    assert part.available_quantity == 3
    assert part.stock_movements.count() == 1  # the initial stock only


def test_release_puts_units_back_and_does_nothing_for_a_deleted_part():
    part = PartFactory(available_quantity=3)
    assert stock.stock_release(part_id=part.pk, quantity=2, order_id=5).available_quantity == 5
    assert part.stock_movements.first().reason == "order_cancelled"
    part_id = part.pk
    part.delete()
    assert stock.stock_release(part_id=part_id, quantity=2) is None


def test_adjust_never_goes_below_zero(user):
    part = PartFactory(available_quantity=3)
    with pytest.raises(Conflict, match="can't go below 0"):
        stock.stock_adjust(part=part, change=-4, note="Broken", by=user)
    stock.stock_adjust(part=part, change=-3, note="Broken", by=user)
    assert part.available_quantity == 0
    assert Part.objects.get(pk=part.pk).available_quantity == 0


@pytest.mark.parametrize(
    ("left", "message"),
    [
        (1, "Only 1 unit is in stock, so 2 can't be taken away: stock can't go below 0"),
        (0, "Only 0 units are in stock, so 2 can't be taken away: stock can't go below 0"),
    ],
)
def test_a_refused_write_off_counts_what_is_left(user, left, message):
    part = PartFactory(available_quantity=left)
    with pytest.raises(Conflict) as refusal:
        stock.stock_adjust(part=part, change=-2, note="Broken", by=user)
    assert refusal.value.message == message


def test_the_last_unit_taken_meanwhile_is_one_unit():
    part = PartFactory(available_quantity=1)
    with pytest.raises(Conflict) as refusal:
        stock.stock_reserve(part_id=part.pk, quantity=2)
    assert refusal.value.message == "The stock changed while you ordered: only 1 unit is left"


def test_movements_outlive_their_part_with_its_name():
    part = PartFactory(name="Clutch lever", available_quantity=3)
    part.delete()
    movement = StockMovement.objects.get(part_name="Clutch lever")
    assert movement.part is None


def test_patch_refuses_to_set_the_stock(as_admin):
    part = PartFactory(available_quantity=10)
    response = as_admin.patch(
        f"/api/allparts/{part.pk}", {"availableQuantity": 7, "name": "New"}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()) == ["availableQuantity"]
    part.refresh_from_db()
    assert (part.available_quantity, part.name) == (10, part.name)
    assert part.name != "New"


class TestStockApi:
    def test_admin_receives_and_writes_off(self, as_admin, admin_user):
        part = PartFactory(available_quantity=10)
        url = f"/api/allparts/{part.pk}/stock"
        response = as_admin.post(url, {"change": 5, "reason": "Delivery 4411"}, format="json")
        assert response.status_code == 200
        assert response.json()["availableQuantity"] == 15
        response = as_admin.post(url, {"change": "-15", "reason": "Flood"}, format="json")
        assert response.json()["availableQuantity"] == 0
        movement = part.stock_movements.first()
        assert (movement.change, movement.reason, movement.note, movement.by) == (
            -15,
            "written_off",
            "Flood",
            admin_user,
        )

    def test_below_zero_is_409_and_zero_is_400(self, as_admin):
        part = PartFactory(available_quantity=2)
        url = f"/api/allparts/{part.pk}/stock"
        response = as_admin.post(url, {"change": -3}, format="json")
        assert response.status_code == 409
        assert "can't go below 0" in response.json()["detail"]
        response = as_admin.post(url, {"change": 0}, format="json")
        assert response.json() == {"change": [stock.CHANGE_ZERO]}

    @pytest.mark.parametrize(("client_name", "status"), [("anon", 401), ("as_user", 403)])
    def test_only_admins(self, request, client_name, status):
        part = PartFactory(available_quantity=2)
        client = request.getfixturevalue(client_name)
        response = client.post(f"/api/allparts/{part.pk}/stock", {"change": 5}, format="json")
        assert response.status_code == status
        part.refresh_from_db()
        assert part.available_quantity == 2


@pytest.mark.django_db(transaction=True)
def test_parts_are_locked_inside_a_transaction_only():
    """Outside one, the locks would end with the statement: refused, as Django refuses it."""
    pads = PartFactory(available_quantity=10)
    with pytest.raises(TransactionManagementError):
        stock.stock_lock_parts(part_ids=[pads.pk])
    with transaction.atomic():
        assert stock.stock_lock_parts(part_ids=[pads.pk])[pads.pk].available_quantity == 10
