import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command

from accounts.models import User
from accounts.tests.factories import UserFactory
from catalog.models import Category, Part, Vehicle
from catalog.serializers import PartInputSerializer, numbers_clean
from catalog.tests.factories import PartFactory
from core import background
from orders.models import Booking
from pricing import services
from pricing.models import TaxRate, Voucher
from pricing.quotes import Line, quote
from pricing.selectors import method_list
from pricing.vouchers import voucher_find
from reviews.models import PartReview, Review
from reviews.selectors import part_reviews
from shop import demo_data

PARTS_IMG_DIR = Path(settings.BASE_DIR) / "static" / "img" / "parts"


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    models = (Part, Review, PartReview, User, EmailAddress, Booking)
    return {model.__name__: model.objects.count() for model in models}


@pytest.fixture
def debug_on(settings):
    """A development checkout (`make run`): the well-known demo passwords are allowed."""
    settings.DEBUG = True


def test_seeds_parts_reviews_and_accounts(db, debug_on):
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


def test_demo_parts_get_brands_and_other_numbers_once(db):
    call_command("seed_demo", stdout=StringIO())
    filter_ = Part.objects.get(name="Spin-On Oil Filter HF204")
    assert filter_.brand == "HiFlo"
    kinds = list(filter_.other_numbers.values_list("number", "kind"))
    assert ("15410-MFJ-D01", "superseded") in kinds
    call_command("seed_demo", stdout=StringIO())
    assert filter_.other_numbers.count() == len(kinds)
    assert set(demo_data.OTHER_NUMBERS) <= set(Part.objects.values_list("name", flat=True))


def test_every_part_is_on_a_category(db):
    seed()

    assert not Part.objects.filter(category=None).exists()
    slugs = set(Category.objects.values_list("slug", flat=True))
    assert slugs == set(demo_data.CATEGORIES)


def test_a_demo_part_without_a_category_gets_its_own(db):
    PartFactory(name=demo_data.PARTS[0]["name"], category=None)

    seed()

    part = Part.objects.get(name=demo_data.PARTS[0]["name"])
    assert part.category.slug == demo_data.PARTS[0]["category"]


def test_the_shopper_has_an_order_in_each_state(db):
    seed()

    orders = Booking.objects.filter(user__email="user@example.com")
    states = ["expired", "pending", "refunded", "shipped", "unpaid"]
    assert sorted(order.state for order in orders) == states
    for order in orders:
        part = Part.objects.get(name=order.parts_name)
        assert order.total_price == part.price * order.quantity
        assert order.paid == (order.state not in {"unpaid", "expired"})
        assert order.transaction_id.startswith("pi_demo_") == order.paid
    refunded = orders.get(refunded_at__isnull=False)
    assert refunded.refund_id == ""  # recorded without Stripe: no card was charged


def test_demo_orders_reserve_their_stock(db):
    seed()

    for order in Booking.objects.all():
        initial = next(p for p in demo_data.PARTS if p["name"] == order.parts_name)
        part = Part.objects.get(name=order.parts_name)
        # Expired and refunded orders gave their stock back; the others hold it.
        held = 0 if order.state in {"expired", "refunded"} else order.quantity
        assert part.available_quantity == initial["available_quantity"] - held


def test_the_shopper_reviews_what_they_bought_for_their_bike(db, client):
    seed()

    chain = Part.objects.get(name="520 O-Ring Chain and Sprocket Kit 15/45")
    [review] = part_reviews(part_id=chain.pk)
    assert (review.name, review.verified_buyer, review.fits) == ("Demo Rider", True, True)
    assert str(review.vehicle) == "2019 Yamaha MT-07"
    assert PartReview.objects.count() == len(demo_data.PART_REVIEWS) >= 2
    for demo in demo_data.PART_REVIEWS:  # each for a bike the part fits, by a verified buyer
        part = Part.objects.get(name=demo.part)
        assert part.fitments.filter(vehicle__in=Vehicle.objects.filter(model="MT-07")).exists()
        assert part_reviews(part_id=part.pk).get().verified_buyer
    chain.refresh_from_db()
    assert (chain.rating_count, chain.rating_average) == (1, 5)

    client.post("/garage", {"make": "Yamaha", "model": "MT-07", "year": "2019"})
    page = client.get(f"/parts/{chain.pk}").content.decode()
    assert "Fit confirmed by 1 rider of the 2019 Yamaha MT-07" in page


def test_running_twice_creates_no_duplicates(db):
    seed()
    first = counts()

    out = seed()

    assert counts() == first
    assert "0 new parts, 0 new vehicles, 0 new reviews, 0 new orders" in out


def test_prints_the_demo_credentials_in_development(db, debug_on):
    out = seed()

    for account in (demo_data.ADMIN, demo_data.USER):
        assert re.search(rf"{re.escape(account.email)} +password: {account.password}\b", out)


def test_production_never_sets_the_demo_passwords(db):
    out = seed()  # DEBUG is off, as in production

    for account in (demo_data.ADMIN, demo_data.USER):
        user = User.objects.get(email=account.email)
        assert not user.check_password(account.password)
        assert account.password not in out
        printed = re.search(rf"{re.escape(account.email)} +password: (\S+)", out).group(1)
        assert len(printed) >= 12
        assert user.check_password(printed)


def test_production_prints_a_random_password_only_once(db):
    first = seed()
    password = re.search(r"admin@example.com +password: (\S+)", first).group(1)

    again = seed()

    assert password not in again
    assert re.search(r"admin@example.com +password: \(not shown: set earlier\)", again)


def test_a_changed_password_is_kept_and_not_printed(db, debug_on):
    UserFactory(email="user@example.com", password="my-own-secret")

    out = seed()

    assert User.objects.filter(email="user@example.com").count() == 1
    assert User.objects.get(email="user@example.com").check_password("my-own-secret")
    assert re.search(r"user@example.com +password: \(not shown: set earlier\)", out)
    assert demo_data.USER.password not in out


def test_an_account_it_did_not_create_is_never_promoted(db, debug_on):
    UserFactory(email="admin@example.com", password="someone-elses")

    out = seed()

    admin = User.objects.get(email="admin@example.com")
    assert (admin.role, admin.is_staff, admin.is_superuser) == (User.Role.USER, False, False)
    assert admin.check_password("someone-elses")
    assert "also logs in to the Django admin" not in out


def test_a_shopper_it_did_not_create_gets_no_demo_orders(db):
    UserFactory(email="user@example.com")

    seed()

    assert not Booking.objects.exists()


def test_if_empty_skips_a_shop_that_has_parts(db):
    PartFactory()

    out = seed("--if-empty")

    assert "already has parts" in out
    assert counts() == {
        "Part": 1,
        "Review": 0,
        "PartReview": 0,
        "User": 0,
        "EmailAddress": 0,
        "Booking": 0,
    }


def test_if_empty_on_a_seeded_shop_still_prints_the_accounts_last(db, debug_on):
    seed()

    out = seed("--if-empty")

    assert "already has parts" in out
    assert out.splitlines()[-3:] == [
        "Demo accounts:",
        "  Shop admin:  admin@example.com  password: admin123  "
        "(also logs in to the Django admin at /admin/)",
        "  Shopper:     user@example.com   password: user123",
    ]


def test_the_accounts_are_the_last_lines(db, debug_on):
    out = seed()

    assert out.splitlines()[-3] == "Demo accounts:"


def test_seeding_mails_nobody(transactional_db, mailoutbox):
    """The demo orders are made-up history: nobody is mailed about them (and `make run`
    prints no mail while seeding)."""
    seed()

    assert background.wait_idle(timeout=30)
    assert Booking.objects.count() == len(demo_data.ORDERS)
    assert mailoutbox == []


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
        "partNumber": part["part_number"],
        "brand": part["brand"],
        "weight": part["weight"],
    }
    serializer = PartInputSerializer(data=data)
    assert serializer.is_valid(), serializer.errors
    assert part["brand"]  # a real maker's name
    numbers_clean(demo_data.OTHER_NUMBERS.get(part["name"], []))  # the API's rules
    assert part["available_quantity"] >= part["minimum_order_quantity"]
    assert part["weight"] > 0  # a real weight, not "not given"


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


def test_seeds_the_shipping_methods_and_vouchers_once(db):
    seed()
    seed()

    methods = {m.name: m for m in method_list()}
    assert sorted(methods) == ["Express", "Standard"]
    standard, express = methods["Standard"], methods["Express"]
    assert (standard.is_default, standard.eta, list(standard.bands.all())) == (
        True,
        "3–5 business days",
        [],
    )
    assert express.eta == "1–2 business days"
    assert [(b.up_to_grams, b.price) for b in express.bands.all()] == [(50_000, Decimal("14.99"))]
    assert not TaxRate.objects.exists()
    vouchers = {v.code: (v.kind, v.value) for v in Voucher.objects.all()}
    assert vouchers == {"RIDE10": ("percent", Decimal("10")), "FREESHIP": ("shipping", 0)}


def test_a_demo_order_still_totals_price_per_unit_times_quantity(db):
    seed()

    for part in Part.objects.all():
        quantity = part.minimum_order_quantity + 1
        line = Line(part.price, quantity, part.weight)
        got = quote(lines=[line], country=settings.SHOP_COUNTRY)
        assert got.total == part.price * quantity, part.name
        assert (got.shipping.method, got.shipping.price) == ("Standard", 0)


def test_the_demo_vouchers_work_on_a_demo_order(db):
    seed()
    disc = Part.objects.get(name="Apex 320 mm Floating Front Brake Disc")
    express = next(m for m in method_list() if m.name == "Express")
    line = Line(disc.price, 1, disc.weight)

    ride10 = quote(lines=[line], country="US", voucher=voucher_find("ride10"))
    freeship = quote(lines=[line], country="US", method=express, voucher=voucher_find("FREESHIP"))

    assert (ride10.discount, ride10.total) == (Decimal("19.00"), Decimal("170.99"))
    assert (freeship.shipping.price, freeship.total) == (0, disc.price)


def test_a_shop_with_methods_of_its_own_keeps_its_default(db):
    own = services.shipping_method_create(name="Courier", bands=[(1000, Decimal("5"))])

    seed()

    own.refresh_from_db()
    assert own.is_default
    assert sorted(m.name for m in method_list()) == ["Courier", "Express", "Standard"]
