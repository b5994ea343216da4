"""Editing a part and adjusting its stock from the dashboard; categories on the part forms and
the API; the shop's own words for bad numbers."""

from decimal import Decimal

import pytest

from catalog import serializers as s
from catalog.models import Category, Part, StockMovement
from catalog.stock import CHANGE_ZERO
from catalog.tests.factories import PartFactory
from core.tests.pages import field_error, field_names, toasts

pytestmark = pytest.mark.django_db


@pytest.fixture
def brakes(db):
    return Category.objects.create(name="Brakes", slug="brakes")


@pytest.fixture
def admin(client, admin_user):
    client.force_login(admin_user)
    return client


def edit(client, part, **changes):
    form = {
        "name": part.name,
        "price": str(part.price),
        "minimumOrderQuantity": part.minimum_order_quantity,
        "description": part.description,
        "img": part.img,
        **changes,
    }
    return client.post(f"/dashboard/parts/{part.pk}/edit", form, follow=True)


def test_manage_parts_offers_edit_and_adjust_stock(admin):
    part = PartFactory(name="Chain kit")

    html = admin.get("/dashboard/manageparts").content.decode()

    assert f'href="/dashboard/parts/{part.pk}/edit"' in html
    assert f'href="/dashboard/parts/{part.pk}/stock"' in html


# The add-product order, then the shop's own fields.
PART_FIELDS = [
    "name",
    "minimumOrderQuantity",
    "description",
    "availableQuantity",
    "price",
    "img",
    "image",
    "category",
    "weight",
    "partNumber",
    "brand",
]


def test_add_parts_and_edit_part_show_their_fields_in_one_order(admin):
    part = PartFactory()

    added = field_names(admin.get("/dashboard/addparts"))
    edited = field_names(admin.get(f"/dashboard/parts/{part.pk}/edit"))

    assert added == PART_FIELDS
    part_form = edited[: edited.index("form")]  # then "Also known as", "Fits these bikes"
    assert part_form == [name for name in PART_FIELDS if name != "availableQuantity"]


def test_editing_changes_every_field_but_the_stock(admin, brakes):
    part = PartFactory(name="Old name", available_quantity=10)

    response = edit(
        admin, part, name="Floating disc", price="199.00", category="brakes", description="New"
    )

    part.refresh_from_db()
    assert (part.name, part.price, part.category, part.description) == (
        "Floating disc",
        Decimal("199.00"),
        brakes,
        "New",
    )
    assert part.available_quantity == 10
    assert "Part updated" in toasts(response)


def test_the_edit_form_shows_the_part_and_its_category(admin, brakes):
    part = PartFactory(name="Pads", category=brakes)

    html = admin.get(f"/dashboard/parts/{part.pk}/edit").content.decode()

    assert 'value="Pads"' in html
    assert '<option value="brakes" selected>Brakes</option>' in html
    assert 'name="availableQuantity"' not in html


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("price", "abc", s.PRICE_INVALID),
        ("price", "12.345", s.PRICE_CENTS),
        ("minimumOrderQuantity", "1.5", s.MIN_ORDER_WHOLE),
        ("category", "no-such-shelf", s.CATEGORY_UNKNOWN),
        ("weight", "-1", s.WEIGHT_NEGATIVE),
        ("weight", "1.5", s.WEIGHT_WHOLE),
        ("weight", "1000001", s.WEIGHT_TOO_HIGH),
    ],
)
def test_bad_input_is_said_in_the_shops_words(admin, field, value, message):
    part = PartFactory(name="Pads")

    response = edit(admin, part, **{field: value})

    assert field_error(response, field) == message
    part.refresh_from_db()
    assert part.name == "Pads"


def test_add_parts_takes_a_category(admin, brakes):
    admin.post(
        "/dashboard/addparts",
        {
            "name": "Disc",
            "category": "brakes",
            "price": "99",
            "minimumOrderQuantity": "1",
            "availableQuantity": "5",
        },
    )

    assert Part.objects.get(name="Disc").category == brakes


def test_add_parts_says_a_stock_that_is_not_a_whole_number(admin):
    response = admin.post(
        "/dashboard/addparts",
        {"name": "Disc", "price": "99", "minimumOrderQuantity": "1", "availableQuantity": "lots"},
    )

    assert field_error(response, "availableQuantity") == s.STOCK_WHOLE


def test_the_api_takes_a_category_slug(as_admin, brakes):
    created = as_admin.post(
        "/api/allparts",
        {"name": "Disc", "category": "brakes", "price": 99, "minimumOrderQuantity": 1,
         "availableQuantity": 5},
        format="json",
    )  # fmt: skip
    unknown = as_admin.patch(
        f"/api/allparts/{created.json()['_id']}", {"category": "nope"}, format="json"
    )

    assert created.json()["category"] == {"slug": "brakes", "name": "Brakes"}
    assert unknown.status_code == 400
    assert unknown.json() == {"category": [s.CATEGORY_UNKNOWN]}


def test_adjusting_stock_keeps_who_and_why(admin, admin_user):
    part = PartFactory(available_quantity=10)

    response = admin.post(
        f"/dashboard/parts/{part.pk}/stock", {"change": "5", "reason": "Delivery 4411"}, follow=True
    )

    part.refresh_from_db()
    assert part.available_quantity == 15
    assert "Stock updated" in toasts(response)
    movement = StockMovement.objects.filter(part=part).order_by("-id").first()
    assert (movement.change, movement.note, movement.by) == (5, "Delivery 4411", admin_user)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("0", CHANGE_ZERO),
        ("many", CHANGE_ZERO),
        ("-11", "Only 10 units are in stock, so 11 can't be taken away: stock can't go below 0"),
    ],
)
def test_a_bad_adjustment_is_said_and_changes_nothing(admin, change, message):
    part = PartFactory(available_quantity=10)

    response = admin.post(f"/dashboard/parts/{part.pk}/stock", {"change": change})

    assert field_error(response, "change") == message
    part.refresh_from_db()
    assert part.available_quantity == 10


def test_shoppers_are_signed_out_of_the_part_pages(client, user):
    part = PartFactory()

    for path in (f"/dashboard/parts/{part.pk}/edit", f"/dashboard/parts/{part.pk}/stock"):
        client.force_login(user)  # each admin page signs a shopper out
        response = client.get(path)
        assert (response.status_code, response["Location"]) == (302, "/login")


def test_weight_g_is_added_edited_and_cleared_to_not_given(admin):
    admin.post(
        "/dashboard/addparts",
        {
            "name": "Disc",
            "price": "99",
            "minimumOrderQuantity": "1",
            "availableQuantity": "5",
            "weight": "1150",
        },
    )
    part = Part.objects.get(name="Disc")
    assert part.weight == 1150
    assert 'value="1150"' in admin.get(f"/dashboard/parts/{part.pk}/edit").content.decode()

    edit(admin, part, weight="900")
    part.refresh_from_db()
    assert part.weight == 900

    edit(admin, part, weight="")
    part.refresh_from_db()
    assert part.weight == 0


def test_a_part_added_without_a_weight_weighs_0_not_given(admin):
    admin.post(
        "/dashboard/addparts",
        {"name": "Disc", "price": "99", "minimumOrderQuantity": "1", "availableQuantity": "5"},
    )

    assert Part.objects.get(name="Disc").weight == 0
