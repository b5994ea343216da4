import re
import xml.etree.ElementTree as ET
from io import StringIO
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command

from accounts.models import User
from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.serializers import PartInputSerializer
from catalog.tests.factories import PartFactory
from reviews.models import Review
from shop import demo_data

PARTS_IMG_DIR = Path(settings.BASE_DIR) / "static" / "img" / "parts"


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    models = (Part, Review, User, EmailAddress)
    return {model.__name__: model.objects.count() for model in models}


def test_seeds_parts_reviews_and_accounts(db):
    seed()

    assert Part.objects.count() == len(demo_data.PARTS) >= 12
    assert 4 <= Review.objects.count() == len(demo_data.REVIEWS) <= 6
    assert set(Review.objects.values_list("ratings", flat=True)) <= {1, 2, 3, 4, 5}
    admin = User.objects.get(email="admin@example.com")
    assert admin.role == User.Role.ADMIN
    assert admin.is_staff and admin.is_superuser
    assert admin.check_password(demo_data.ADMIN.password)
    shopper = User.objects.get(email="user@example.com")
    assert shopper.role == User.Role.USER
    assert not (shopper.is_staff or shopper.is_superuser)
    assert shopper.check_password(demo_data.USER.password)


def test_running_twice_creates_no_duplicates(db):
    seed()
    first = counts()

    out = seed()

    assert counts() == first
    assert "0 new parts, 0 new reviews" in out


def test_prints_the_demo_credentials(db):
    out = seed()

    for account in (demo_data.ADMIN, demo_data.USER):
        assert re.search(rf"{re.escape(account.email)} +password: {account.password}\b", out)


def test_a_changed_password_is_kept_and_not_printed(db):
    UserFactory(email="user@example.com", password="my-own-secret")

    out = seed()

    assert User.objects.filter(email="user@example.com").count() == 1
    assert User.objects.get(email="user@example.com").check_password("my-own-secret")
    assert "password: (changed)" in out
    assert demo_data.USER.password not in out


def test_an_existing_plain_account_becomes_the_demo_admin(db):
    UserFactory(email="admin@example.com")

    seed()

    admin = User.objects.get(email="admin@example.com")
    assert (admin.role, admin.is_staff, admin.is_superuser) == (User.Role.ADMIN, True, True)


def test_if_empty_skips_a_shop_that_has_parts(db):
    PartFactory()

    out = seed("--if-empty")

    assert "already has parts" in out
    assert counts() == {"Part": 1, "Review": 0, "User": 0, "EmailAddress": 0}


def test_if_empty_seeds_an_empty_shop(db):
    seed("--if-empty")

    assert Part.objects.count() == len(demo_data.PARTS)


def test_parts_are_listed_in_demo_data_order(db):
    seed()

    names = list(Part.objects.values_list("name", flat=True))  # newest first
    assert names == [part["name"] for part in demo_data.PARTS]


def test_every_part_image_is_a_static_file(db):
    seed()

    for img in Part.objects.values_list("img", flat=True):
        assert img.startswith(settings.STATIC_URL + "img/parts/")
        assert finders.find(img.removeprefix(settings.STATIC_URL)), img


@pytest.mark.parametrize("part", demo_data.PARTS, ids=lambda part: part["name"])
def test_demo_parts_pass_the_api_rules(part):
    data = {
        "name": part["name"],
        "img": part["img"],
        "description": part["description"],
        "price": str(part["price"]),
        "minimumOrderQuantity": part["minimum_order_quantity"],
        "availableQuantity": part["available_quantity"],
    }
    serializer = PartInputSerializer(data=data)
    assert serializer.is_valid(), serializer.errors
    assert part["available_quantity"] >= part["minimum_order_quantity"]


@pytest.mark.parametrize("path", sorted(PARTS_IMG_DIR.glob("*.svg")), ids=lambda path: path.name)
def test_part_illustrations_are_small_titled_svgs(path):
    assert path.stat().st_size < 4096
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 400 300"
    assert root.findtext("{http://www.w3.org/2000/svg}title")


def test_there_are_enough_illustrations_and_a_placeholder():
    names = {path.name for path in PARTS_IMG_DIR.glob("*.svg")}
    assert "placeholder.svg" in names
    assert len(names - {"placeholder.svg"}) >= 12
