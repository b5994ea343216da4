"""The stored search vector (PostgreSQL) is right after every kind of write: a part found by a
word of its name, brand, description or category at once, whoever wrote it and however."""

import pytest
from django.core.management import call_command
from django.db import connection

from catalog import services, stock
from catalog.models import Category, Part
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


def found(anon, word: str) -> list[str]:
    response = anon.get(f"/api/allparts?q={word}")
    assert response.status_code == 200
    return [part["name"] for part in response.json()]


@pytest.fixture
def exhausts(db):
    return Category.objects.create(name="Exhausts", slug="exhausts")


def test_a_part_made_by_the_service_is_found_by_each_of_its_fields(anon, exhausts):
    PartFactory(name="Titanium silencer", description="Quieter baffles.", category=exhausts)

    assert found(anon, "silencer") == ["Titanium silencer"]
    assert found(anon, "baffle") == ["Titanium silencer"]
    assert found(anon, "exhaust") == ["Titanium silencer"]


def test_a_part_is_found_by_its_brand_and_then_by_its_new_brand_only(anon, exhausts):
    part = PartFactory(name="Iridium plug CR9EIX", brand="NGK", description="Long life.")
    PartFactory(name="Copper plug", brand="Champion")

    assert found(anon, "ngk") == ["Iridium plug CR9EIX"]
    assert found(anon, "NGK plug")[0] == "Iridium plug CR9EIX"  # its maker's first

    services.part_update(part=part, brand="Denso")

    assert found(anon, "ngk") == []
    assert found(anon, "denso") == ["Iridium plug CR9EIX"]


def test_parts_made_in_bulk_are_found(anon, exhausts):
    Part.objects.bulk_create(
        Part(name=f"Header pipe {n}", description="Stainless.", category=exhausts, price=10)
        for n in range(3)
    )

    assert len(found(anon, "stainless")) == 3
    assert len(found(anon, "exhausts")) == 3


def test_a_changed_part_is_found_by_its_new_words_only(anon, exhausts):
    part = PartFactory(name="Slip-on baffle", description="Carbon sleeve.")

    services.part_update(part=part, name="Slip-on can", category=exhausts)

    assert found(anon, "baffle") == []
    assert found(anon, "exhausts") == ["Slip-on can"]
    Part.objects.filter(pk=part.pk).update(description="Titanium sleeve.")  # a queryset update
    assert found(anon, "titanium") == ["Slip-on can"]
    assert found(anon, "carbon") == []


def test_a_renamed_category_finds_its_parts_by_the_new_name(anon, exhausts):
    PartFactory(name="Link pipe", category=exhausts)
    PartFactory(name="Mirror", category=None)

    exhausts.name = "Pipes and silencers"
    services.category_save(category=exhausts)

    assert found(anon, "exhausts") == []
    assert found(anon, "silencers") == ["Link pipe"]


def test_a_deleted_category_leaves_its_parts_found_by_their_own_words(anon, exhausts):
    PartFactory(name="Link pipe", description="Short.", category=exhausts)

    services.category_delete(category=exhausts)

    assert found(anon, "exhausts") == []
    assert found(anon, "short") == ["Link pipe"]


NO_INLINE_CHANGES = {  # other numbers and fitment (none), the stock history (read-only)
    "other_numbers-TOTAL_FORMS": "0",
    "other_numbers-INITIAL_FORMS": "0",
    "fitments-TOTAL_FORMS": "0",
    "fitments-INITIAL_FORMS": "0",
    "stock_movements-TOTAL_FORMS": "1",
    "stock_movements-INITIAL_FORMS": "1",
    "stock_movements-MIN_NUM_FORMS": "0",
    "stock_movements-MAX_NUM_FORMS": "1000",
}


def test_admin_writes_are_found(anon, staff_client, exhausts):
    form = {
        "name": "Race exhaust",
        "img": "",
        "description": "Decat pipe.",
        "category": exhausts.pk,
        "price": "499.00",
        "minimum_order_quantity": "1",
        "available_quantity": "3",
    }
    assert staff_client.post("/admin/catalog/part/add/", form).status_code == 302
    assert found(anon, "decat") == ["Race exhaust"]

    part = Part.objects.get(name="Race exhaust")
    changed = {**form, "description": "Full system.", **NO_INLINE_CHANGES}
    del changed["available_quantity"]
    assert staff_client.post(f"/admin/catalog/part/{part.pk}/change/", changed).status_code == 302
    assert found(anon, "decat") == []
    assert found(anon, "system") == ["Race exhaust"]

    renamed = {"name": "Silencers", "slug": "exhausts"}
    response = staff_client.post(f"/admin/catalog/category/{exhausts.pk}/change/", renamed)
    assert response.status_code == 302
    assert found(anon, "silencers") == ["Race exhaust"]


def test_api_writes_are_found(anon, as_admin, exhausts):
    body = {
        "name": "Heat wrap",
        "description": "Fibreglass tape.",
        "price": "19.90",
        "minimumOrderQuantity": "1",
        "availableQuantity": "5",
    }
    response = as_admin.post("/api/allparts", {**body, "category": "exhausts"}, format="json")
    assert response.status_code == 201
    assert found(anon, "fibreglass") == ["Heat wrap"]

    pk = response.json()["insertedId"]
    response = as_admin.patch(f"/api/allparts/{pk}", {"name": "Exhaust wrap"}, format="json")
    assert response.status_code == 200
    assert found(anon, "wrap") == ["Exhaust wrap"]
    assert found(anon, "heat") == []


def test_the_demo_data_is_found(anon):
    call_command("seed_demo", verbosity=0)

    assert found(anon, "brake")


@pytest.mark.postgres(reason="the stored vector is PostgreSQL's full-text search")
def test_the_stored_vector_is_the_one_computed_from_the_fields(exhausts):
    part = PartFactory(
        name="Titanium silencer", brand="Akrapovic", description="Quieter.", category=exhausts
    )
    part.refresh_from_db()

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setweight(to_tsvector('english', %s), 'A')"
            " || setweight(to_tsvector('english', %s), 'B')"
            " || setweight(to_tsvector('english', %s), 'B')"
            " || setweight(to_tsvector('english', %s), 'C')",
            [part.name, part.brand, exhausts.name, part.description],
        )
        assert part.search_vector == cursor.fetchone()[0]


def test_a_search_answer_shows_a_part_as_it_is_now(anon):
    """Each part's JSON is kept per catalog version: a stock change or a rename shows at once."""
    part = PartFactory(name="Chain lube", available_quantity=5)
    assert anon.get("/api/allparts?q=lube").json()[0]["availableQuantity"] == 5

    stock.stock_adjust(part=part, change=3, by=None)
    assert anon.get("/api/allparts?q=lube").json()[0]["availableQuantity"] == 8

    services.part_update(part=part, name="Chain lube spray")
    assert anon.get("/api/allparts?q=lube").json()[0]["name"] == "Chain lube spray"
