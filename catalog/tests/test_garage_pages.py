"""My Garage in the pages (BEYOND.md, "My Garage"): the picker as a plain form (no
JavaScript: plain HTTP round trips), /garage, the navbar's bike, /allparts for the active bike
with its badges and "Show all parts", the part page's badge, and the garage kept at sign-in."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from accounts.tests.factories import TEST_PASSWORD
from catalog import services
from catalog.garage import fit_warnings, parts_not_fitting
from catalog.models import Fitment, GarageBike, Vehicle
from catalog.selectors import PARTS, part_version
from catalog.tests.factories import PartFactory
from core.caching import versions

pytestmark = pytest.mark.django_db

MT07 = "2019 Yamaha MT-07"


def bike(model="MT-07", year=2019, make="Yamaha") -> Vehicle:
    return Vehicle.objects.get_or_create(make=make, model=model, year=year)[0]


def text(response) -> str:
    """The page's text, tags dropped and spaces squeezed."""
    assert response.status_code == 200
    html = re.sub(r"<script.*?</script>", " ", response.content.decode(), flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def options(response, name: str) -> list[str]:
    html = response.content.decode()
    select = re.search(rf'<select [^>]*name="{name}".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', select)[1:]  # the placeholder's is ""


@pytest.fixture
def shop():
    """Parts that fit the MT-07, one universal, one for another bike only."""
    mt07, z900 = bike(), bike("Z900", 2020, "Kawasaki")
    bike("MT-07", 2014), bike("MT-09", 2021)
    fits = PartFactory(name="MT-07 brake pads")
    Fitment.objects.create(part=fits, vehicle=mt07)
    universal = PartFactory(name="Chain lube", universal=True)
    other = PartFactory(name="Z900 clutch lever")
    Fitment.objects.create(part=other, vehicle=z900)
    return {"mt07": mt07, "fits": fits, "universal": universal, "other": other}


def pick(client, **values):
    return client.post("/garage", values)


# --- The picker without JavaScript -------------------------------------------------------------


def test_allparts_has_the_picker_with_every_make(client, shop):
    response = client.get("/allparts")
    page = text(response)
    for label in ("Make", "Model", "Year", "Show parts for this bike"):
        assert label in page
    assert options(response, "make") == ["Kawasaki", "Yamaha"]
    assert options(response, "model") == []
    assert re.search(r'<form method="get" action="/garage"', response.content.decode())


def test_a_make_added_later_is_in_every_pages_picker(client, shop):
    """The picker is kept under the makes it lists: a search (never a kept page) shows the
    new make too."""
    for path in ("/allparts", "/allparts?q=pads"):
        assert options(client.get(path), "make") == ["Kawasaki", "Yamaha"]
    services.vehicle_save(vehicle=Vehicle(make="Ducati", model="Monster", year=2021))
    for path in ("/allparts", "/allparts?q=pads"):
        assert options(client.get(path), "make") == ["Ducati", "Kawasaki", "Yamaha"], path


def test_each_round_trip_fills_the_next_select(client, shop):
    response = client.get("/garage", {"make": "Yamaha"})  # /allparts' form
    assert options(response, "model") == ["MT-07", "MT-09"]
    assert "Choose a model" in text(response)
    response = pick(client, make="Yamaha", model="MT-07")
    assert response.status_code == 200
    assert options(response, "year") == ["2019", "2014"]
    assert "Choose a year" in text(response)
    response = pick(client, make="Yamaha", model="MT-07", year="2019")
    assert (response.status_code, response["Location"]) == (302, "/allparts")
    assert f"Parts that fit your {MT07}" in text(client.get("/allparts"))


def test_a_make_that_does_not_exist_asks_for_a_make(client, shop):
    response = pick(client, make="Vespa", model="MT-07", year="2019")
    assert response.status_code == 200
    assert "Choose a make" in text(response)
    assert options(response, "model") == []


def test_the_navbar_names_the_active_bike(client, shop):
    assert "Select your bike" in text(client.get("/blogs"))
    pick(client, make="Yamaha", model="MT-07", year="2019")
    html = client.get("/blogs").content.decode()
    assert re.search(rf'<a href="/garage"[^>]*>{MT07}</a>', html)
    assert "Select your bike" not in html


# --- /allparts and the badges ------------------------------------------------------------------


def test_without_a_bike_universal_parts_say_so_and_others_show_no_fit_badge(client, shop):
    page = text(client.get("/allparts"))
    assert "Chain lube" in page and "MT-07 brake pads" in page and "Z900 clutch lever" in page
    assert page.count("Universal fit") == 1
    assert "Fits your" not in page and "Does not fit" not in page


def test_with_a_bike_only_the_parts_that_fit_it_or_every_bike(client, shop):
    pick(client, make="Yamaha", model="MT-07", year="2019")
    page = text(client.get("/allparts"))
    assert f"Parts that fit your {MT07}" in page
    assert "MT-07 brake pads" in page and "Chain lube" in page
    assert "Z900 clutch lever" not in page
    assert f"Fits your {MT07}" in page and "Universal fit" in page
    assert "2 parts" in page


def test_show_all_parts_and_back(client, shop):
    pick(client, make="Yamaha", model="MT-07", year="2019")
    html = client.get("/allparts").content.decode()
    assert '<a class="link link-primary" href="/allparts?all=1">Show all parts</a>' in html
    page = text(client.get("/allparts?all=1"))
    assert "Z900 clutch lever" in page
    assert f"Does not fit your {MT07}" in page
    assert f"Fits your {MT07}" in page and "Universal fit" in page
    assert f"Show parts that fit your {MT07}" in page


def test_the_part_page_badge(client, shop):
    assert "Universal fit" in text(client.get(shop["universal"].get_absolute_url()))
    assert "fit" not in text(client.get(shop["fits"].get_absolute_url())).replace("Benefit", "")
    pick(client, make="Yamaha", model="MT-07", year="2019")
    assert f"Fits your {MT07}" in text(client.get(shop["fits"].get_absolute_url()))
    assert f"Does not fit your {MT07}" in text(client.get(shop["other"].get_absolute_url()))
    assert "Universal fit" in text(client.get(shop["universal"].get_absolute_url()))


@pytest.mark.parametrize(
    "path", ["/", "/parts/{other}", "/allparts", "/allparts?all=1", "/allparts?fits=junk"]
)
def test_with_a_bike_chosen_every_page_answers(client, shop, path):
    """The pages that broke on SQLite once a bike was chosen (a UNION of two ordered queries)."""
    pick(client, make="Yamaha", model="MT-07", year="2019")

    page = text(client.get(path.format(other=shop["other"].pk)))

    assert MT07 in page


def test_the_home_page_cards_carry_the_badges(client, shop):
    pick(client, make="Yamaha", model="MT-07", year="2019")
    page = text(client.get("/"))
    assert f"Fits your {MT07}" in page and f"Does not fit your {MT07}" in page


# --- /garage --------------------------------------------------------------------------------------


def test_the_garage_page_makes_active_and_removes(client, shop):
    pick(client, make="Yamaha", model="MT-07", year="2019")
    pick(client, make="Yamaha", model="MT-09", year="2021")
    page = text(client.get("/garage"))
    assert "2019 Yamaha MT-07" in page and "2021 Yamaha MT-09" in page
    assert page.count("Make active") == 1 and page.count("Remove") == 2
    response = client.post("/garage", {"activate": shop["mt07"].pk})
    assert (response.status_code, response["Location"]) == (302, "/garage")
    assert f"Parts that fit your {MT07}" in text(client.get("/allparts"))
    client.post("/garage", {"remove": shop["mt07"].pk})
    assert "Parts that fit your 2021 Yamaha MT-09" in text(client.get("/allparts"))
    client.post("/garage", {"remove": bike("MT-09", 2021).pk})
    assert "No bikes saved yet" in text(client.get("/garage"))
    assert "Parts that fit" not in text(client.get("/allparts"))


def test_the_garage_page_is_private(client, shop):
    response = client.get("/garage")
    assert response["Cache-Control"] == "private, no-store"


def test_making_a_bike_active_that_is_not_saved_says_so(client, shop):
    response = client.post("/garage", {"activate": shop["mt07"].pk})
    assert "This bike is not in your garage." in text(response)


def test_an_accounts_garage_page(client, user, shop):
    client.force_login(user)
    pick(client, make="Yamaha", model="MT-07", year="2019")
    assert GarageBike.objects.get(user=user).vehicle == shop["mt07"]
    assert MT07 in text(client.get("/dashboard/myorder"))


# --- Sign-in keeps the visitor's garage ------------------------------------------------------------


def test_page_sign_in_merges_the_visitors_garage(client, user, shop):
    mt09 = bike("MT-09", 2021)
    GarageBike.objects.create(user=user, vehicle=mt09, active=True)
    pick(client, make="Yamaha", model="MT-07", year="2019")
    response = client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    assert response.status_code == 302
    rows = GarageBike.objects.filter(user=user).order_by("id")
    assert [(r.vehicle.name, r.active) for r in rows] == [
        ("2021 Yamaha MT-09", False),
        (MT07, True),
    ]
    assert f"Parts that fit your {MT07}" in text(client.get("/allparts"))


def test_sign_up_keeps_the_visitors_garage(client, shop):
    pick(client, make="Yamaha", model="MT-07", year="2019")
    response = client.post(
        "/signup", {"name": "New Rider", "email": "new@example.com", "password1": "secret1x"}
    )
    assert response.status_code == 302
    assert [r.vehicle.name for r in GarageBike.objects.filter(user__email="new@example.com")] == [
        MT07
    ]
    assert MT07 in text(client.get("/garage"))


def test_sign_in_with_a_full_garage_keeps_the_accounts_ten(client, user, shop):
    for year in range(2000, 2010):
        GarageBike.objects.create(user=user, vehicle=bike(year=year))
    pick(client, make="Yamaha", model="MT-07", year="2019")
    client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    assert GarageBike.objects.filter(user=user).count() == 10
    assert not GarageBike.objects.filter(user=user, active=True).exists()


def test_signing_out_leaves_the_account_garage_behind(client, user, shop):
    client.force_login(user)
    pick(client, make="Yamaha", model="MT-07", year="2019")
    client.post("/logout")
    assert "Select your bike" in text(client.get("/blogs"))
    assert APIClient().get("/api/garage").json()["vehicles"] == []


def test_a_visitors_garage_stays_theirs(shop):
    one, two = Client(), Client()
    pick(one, make="Yamaha", model="MT-07", year="2019")
    assert "Select your bike" in text(two.get("/garage"))


# --- An account's active bike on its pages ---------------------------------------------------------


def test_another_device_of_the_account_shows_the_new_active_bike_at_once(user, shop):
    phone, laptop = Client(), Client()
    phone.force_login(user)
    laptop.force_login(user)
    assert "Select your bike" in text(laptop.get("/blogs"))
    pick(phone, make="Yamaha", model="MT-07", year="2019")
    assert MT07 in text(laptop.get("/blogs"))
    assert f"Parts that fit your {MT07}" in text(laptop.get("/allparts"))


def test_the_sessions_copy_serves_when_the_shared_cache_is_flushed(client, user, shop):
    client.force_login(user)
    pick(client, make="Yamaha", model="MT-07", year="2019")
    cache.clear()
    assert f"Parts that fit your {MT07}" in text(client.get("/allparts"))


def test_an_accounts_bike_is_noted_at_sign_in(client, user, shop):
    GarageBike.objects.create(user=user, vehicle=shop["mt07"], active=True)
    cache.clear()
    client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    cache.clear()
    assert MT07 in text(client.get("/blogs"))


def test_a_signed_in_page_for_a_bike_stays_within_five_queries(
    client, user, shop, django_assert_max_num_queries
):
    client.force_login(user)
    pick(client, make="Yamaha", model="MT-07", year="2019")
    client.get("/allparts")
    client.get("/allparts?all=1")  # the bike's parts, the makes, the categories now kept
    versions.bump(PARTS)  # as after a stock change
    with django_assert_max_num_queries(5):
        assert f"Parts that fit your {MT07}" in text(client.get("/allparts"))
    with django_assert_max_num_queries(5):
        assert "Show parts that fit your" in text(client.get("/allparts?all=1"))


# --- The cart's check --------------------------------------------------------------------------------


def test_parts_not_fitting_names_the_parts_neither_listed_nor_universal(
    shop, django_assert_num_queries
):
    ids = [shop["fits"].pk, shop["universal"].pk, shop["other"].pk, 999_999]
    with django_assert_num_queries(1):
        assert parts_not_fitting(shop["mt07"], ids) == {shop["other"].pk, 999_999}
    with django_assert_num_queries(0):
        assert parts_not_fitting(None, ids) == set()
        assert parts_not_fitting(shop["mt07"], []) == set()


def test_fit_warnings_for_the_cart(client, user, shop):
    ids = [shop["fits"].pk, shop["universal"].pk, shop["other"].pk]
    assert fit_warnings(user=None, session=client.session, part_ids=ids) == {}
    pick(client, make="Yamaha", model="MT-07", year="2019")
    warned = {shop["other"].pk: f"Does not fit your {MT07}"}
    assert fit_warnings(user=None, session=client.session, part_ids=ids) == warned
    client.force_login(user)  # the visitor's bike joins the account
    assert fit_warnings(user=user, session=client.session, part_ids=ids) == warned


def test_a_kept_personal_page_names_the_new_active_bike(client, user, shop):
    client.force_login(user)
    pick(client, make="Yamaha", model="MT-07", year="2019")
    assert MT07 in text(client.get("/dashboard/myorder"))  # (its CSRF cookie made)
    client.get("/dashboard/myorder")
    assert not client.get("/dashboard/myorder").templates  # kept for this session
    pick(client, make="Yamaha", model="MT-09", year="2021")
    page = text(client.get("/dashboard/myorder"))
    assert "2021 Yamaha MT-09" in page and MT07 not in page


def test_a_visitors_page_for_a_bike_stays_within_five_queries(
    client, shop, django_assert_max_num_queries
):
    pick(client, make="Yamaha", model="MT-07", year="2019")
    client.get("/allparts")
    client.get(shop["fits"].get_absolute_url())
    versions.bump(PARTS, part_version(shop["fits"].pk))  # as after a stock change: made again
    with django_assert_max_num_queries(5):
        assert f"Parts that fit your {MT07}" in text(client.get("/allparts"))
    with django_assert_max_num_queries(5):
        assert f"Fits your {MT07}" in text(client.get(shop["fits"].get_absolute_url()))


def test_a_visitors_posts_past_the_limit_get_the_page_with_a_message(client, shop):
    """The picker and the garage's buttons post without JavaScript: a visitor's posts count
    as the API's writes do (THROTTLE_VISITOR_WRITES, 60/minute per address); past it, the page
    again (429, Retry-After) saying so, and nothing saved."""
    for _ in range(60):
        assert pick(client, make="Yamaha").status_code == 200

    refused = pick(client, make="Yamaha", model="MT-07", year="2019")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    html = refused.content.decode()
    assert (
        "Too many changes from your address in a short time. Please try again in a minute." in html
    )
    assert "No bikes saved yet" in html
    assert "Parts that fit" not in text(client.get("/allparts"))
    assert text(client.get("/garage"))  # reading is not limited


def test_an_account_posts_past_the_visitors_limit(client, user, shop):
    client.force_login(user)
    for _ in range(61):
        assert pick(client, make="Yamaha").status_code == 200
    assert pick(client, make="Yamaha", model="MT-07", year="2019").status_code == 302
