"""Parts API for every kind of caller."""

from decimal import Decimal

import pytest

from catalog import serializers as rules
from catalog.models import Category, Part
from catalog.serializers import MIN_ORDER_TOO_LOW, NAME_REQUIRED, PRICE_POSITIVE, STOCK_NEGATIVE
from catalog.tests.factories import PartFactory
from catalog.validators import IMG_INVALID

PART_FIELDS = {
    "_id",
    "brand",
    "otherNumbers",
    "name",
    "img",
    "description",
    "price",
    "minimumOrderQuantity",
    "availableQuantity",
    "category",
    "url",
    "partNumber",
    "universal",
    "weight",
    "rating",
}
NEW_PART = {
    "name": "Iridium spark plug",
    "img": "https://cdn.example.com/plug.png",
    "description": "Long-life plug.",
    "price": "9.95",
    "minimumOrderQuantity": "4",
    "availableQuantity": "120",
}


@pytest.fixture
def part(db):
    return PartFactory()


class TestListAndDetail:
    def test_anyone_lists_parts_newest_first(self, anon, db):
        older, newer = PartFactory(), PartFactory()
        response = anon.get("/api/allparts")
        assert response.status_code == 200
        body = response.json()
        assert [p["_id"] for p in body] == [newer.pk, older.pk]
        assert set(body[0]) == PART_FIELDS

    def test_numbers_are_json_numbers(self, anon, db):
        PartFactory(price=Decimal("12.50"), minimum_order_quantity=3, available_quantity=7)
        (item,) = anon.get("/api/allparts/").json()
        assert item["price"] == 12.5
        assert item["minimumOrderQuantity"] == 3
        assert item["availableQuantity"] == 7

    def test_limit_and_offset(self, anon, db):
        parts = [PartFactory() for _ in range(5)]
        body = anon.get("/api/allparts?limit=2&offset=1").json()
        assert [p["_id"] for p in body] == [parts[3].pk, parts[2].pk]

    @pytest.mark.parametrize("query", ["limit=abc", "limit=0", "offset=-1", f"offset={2**70}"])
    def test_bad_paging_is_a_400(self, anon, db, query):
        response = anon.get(f"/api/allparts?{query}")
        assert response.status_code == 400
        assert set(response.json()) <= {"limit", "offset"}

    def test_catalog_read_is_constant_in_queries(self, anon, db, django_assert_max_num_queries):
        PartFactory.create_batch(30)
        with django_assert_max_num_queries(1):  # other numbers in a column of each row
            assert len(anon.get("/api/allparts").json()) == 30

    def test_detail(self, anon, part):
        response = anon.get(f"/api/allparts/{part.pk}")
        assert response.status_code == 200
        assert response.json()["name"] == part.name

    @pytest.mark.parametrize("pk", ["999999", "99999999999999999999999"])
    def test_unknown_part_is_404(self, anon, db, pk):
        response = anon.get(f"/api/allparts/{pk}")
        assert response.status_code == 404
        assert "detail" in response.json()


class TestCreate:
    def test_a_part_has_a_weight_in_grams_0_when_not_given(self, as_admin):
        without = as_admin.post("/api/allparts", NEW_PART, format="json").json()
        weighed = as_admin.post("/api/allparts", {**NEW_PART, "weight": "45"}, format="json")

        assert without["weight"] == 0
        assert weighed.status_code == 201
        assert weighed.json()["weight"] == 45
        assert Part.objects.get(pk=weighed.json()["_id"]).weight == 45

    @pytest.mark.parametrize(
        ("weight", "message"),
        [
            (-1, rules.WEIGHT_NEGATIVE),
            ("heavy", rules.WEIGHT_WHOLE),
            (2.5, rules.WEIGHT_WHOLE),
            (1_000_001, rules.WEIGHT_TOO_HIGH),
        ],
    )
    def test_a_bad_weight_is_a_400_on_weight(self, as_admin, weight, message):
        response = as_admin.post("/api/allparts", {**NEW_PART, "weight": weight}, format="json")

        assert response.status_code == 400
        assert response.json() == {"weight": [message]}
        assert not Part.objects.exists()

    def test_a_patch_changes_the_weight(self, as_admin, part):
        response = as_admin.patch(f"/api/allparts/{part.pk}", {"weight": 300}, format="json")

        assert response.json()["weight"] == 300
        part.refresh_from_db()
        assert part.weight == 300

    def test_admin_adds_a_part(self, as_admin):
        response = as_admin.post("/api/allparts", NEW_PART, format="json")
        assert response.status_code == 201
        body = response.json()
        part = Part.objects.get()
        assert body["insertedId"] == body["_id"] == part.pk
        assert body["price"] == 9.95
        assert (part.minimum_order_quantity, part.available_quantity) == (4, 120)

    def test_local_static_image_path_is_accepted(self, as_admin):
        payload = {**NEW_PART, "img": "/static/img/parts/spark-plug.svg"}
        assert as_admin.post("/api/allparts", payload, format="json").status_code == 201

    @pytest.mark.parametrize(
        ("client_name", "status"), [("anon", 401), ("as_user", 403), ("as_admin", 201)]
    )
    def test_who_may_add(self, request, db, client_name, status):
        client = request.getfixturevalue(client_name)
        assert client.post("/api/allparts", NEW_PART, format="json").status_code == status

    @pytest.mark.parametrize(
        ("field", "value", "message"),
        [
            ("name", "", NAME_REQUIRED),
            ("price", "0", PRICE_POSITIVE),
            ("price", "-3", PRICE_POSITIVE),
            ("minimumOrderQuantity", "0", MIN_ORDER_TOO_LOW),
            ("availableQuantity", "-1", STOCK_NEGATIVE),
            ("img", "javascript:alert(1)", IMG_INVALID),
            ("img", "/etc/passwd", IMG_INVALID),
            ("img", "/static/../settings.py", IMG_INVALID),
        ],
    )
    def test_field_rules(self, as_admin, field, value, message):
        response = as_admin.post("/api/allparts", {**NEW_PART, field: value}, format="json")
        assert response.status_code == 400
        assert response.json() == {field: [message]}
        assert not Part.objects.exists()

    @pytest.mark.parametrize("field", ["price", "minimumOrderQuantity", "availableQuantity"])
    def test_non_numbers_get_a_field_message(self, as_admin, field):
        response = as_admin.post("/api/allparts", {**NEW_PART, field: "lots"}, format="json")
        assert response.status_code == 400
        assert list(response.json()) == [field]

    def test_missing_name_says_name_is_required(self, as_admin):
        payload = {k: v for k, v in NEW_PART.items() if k != "name"}
        response = as_admin.post("/api/allparts", payload, format="json")
        assert response.json() == {"name": [NAME_REQUIRED]}


class TestUpdateAndDelete:
    def test_admin_patches_a_field_and_only_that_one(self, as_admin, part):
        stock = part.available_quantity
        response = as_admin.patch(f"/api/allparts/{part.pk}", {"name": "Renamed"}, format="json")
        assert response.status_code == 200
        assert response.json()["modifiedCount"] == 1
        part.refresh_from_db()
        assert (part.name, part.available_quantity) == ("Renamed", stock)

    def test_patch_validates(self, as_admin, part):
        response = as_admin.patch(f"/api/allparts/{part.pk}", {"price": "0"}, format="json")
        assert response.json() == {"price": [PRICE_POSITIVE]}

    @pytest.mark.parametrize(("client_name", "status"), [("anon", 401), ("as_user", 403)])
    def test_only_admins_change_parts(self, request, part, client_name, status):
        client = request.getfixturevalue(client_name)
        assert (
            client.patch(f"/api/allparts/{part.pk}", {"name": "x"}, format="json").status_code
            == status
        )
        assert client.delete(f"/api/allparts/{part.pk}").status_code == status
        assert Part.objects.filter(pk=part.pk, name=part.name).exists()

    def test_deleting_an_unknown_part_is_404(self, as_admin, db):
        assert as_admin.delete("/api/allparts/424242").status_code == 404


def test_a_part_names_its_category(anon, db):
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    part = PartFactory(category=brakes)
    loose = PartFactory(category=None)

    listed = {p["_id"]: p["category"] for p in anon.get("/api/allparts").json()}
    one = anon.get(f"/api/allparts/{part.pk}").json()

    assert listed == {part.pk: {"slug": "brakes", "name": "Brakes"}, loose.pk: None}
    assert one["category"] == {"slug": "brakes", "name": "Brakes"}
