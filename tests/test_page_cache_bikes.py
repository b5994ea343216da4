"""Visitors' pages kept per bike (core.caching.pages, catalog.garage): a visitor who chose a bike
is still served from the visitors' page cache, and never gets the page of another bike or of
no bike, whatever cookie they send."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.models import Fitment, Vehicle
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

PATHS = ["/", "/allparts", "/allparts?page=1", "/blogs", "/parts/{part}"]


@pytest.fixture
def bikes():
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    z900 = Vehicle.objects.create(make="Kawasaki", model="Z900", year=2020)
    part = PartFactory(name="Brake pads")
    Fitment.objects.create(part=part, vehicle=mt07)
    return mt07, z900, part


def visitor(vehicle: Vehicle | None = None) -> Client:
    client = Client()
    if vehicle is not None:
        response = client.post("/api/garage", {"vehicle": vehicle.pk}, "application/json")
        assert response.status_code == 200
    return client


def visit(client, path: str) -> tuple[str, bool, int]:
    """The page's HTML, whether it was rendered now (not served kept), its query count."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return response.content.decode(), bool(response.templates), len(queries)


def bike_shown(html: str) -> str:
    """The bike the page was made for, as its navbar names it."""
    for name in ("2019 Yamaha MT-07", "2020 Kawasaki Z900"):
        if f'data-testid="navbar-bike">{name}<' in html:
            return name
    assert 'data-testid="navbar-bike">Select your bike<' in html
    return ""


@pytest.mark.parametrize("path", PATHS)
def test_each_bike_gets_its_own_kept_page(bikes, path):
    mt07, z900, part = bikes
    path = path.format(part=part.pk)
    nobody, rider, other_rider = visitor(), visitor(mt07), visitor(z900)
    for client, name in ((nobody, ""), (rider, mt07.name), (other_rider, z900.name)):
        html, rendered, _ = visit(client, path)
        assert (bike_shown(html), rendered) == (name, True)
    # Again: each served kept, without a query, and still their own.
    for client, name in ((nobody, ""), (rider, mt07.name), (other_rider, z900.name)):
        html, rendered, queries = visit(client, path)
        assert (bike_shown(html), rendered, queries) == (name, False, 0)
    # A newcomer with the same bike gets the kept page too.
    html, rendered, _ = visit(visitor(mt07), path)
    assert (bike_shown(html), rendered) == (mt07.name, False)


def test_a_forged_bike_cookie_never_brings_another_bikes_page(bikes):
    mt07, z900, _ = bikes
    visit(visitor(z900), "/allparts")  # Z900's page kept
    visit(visitor(), "/allparts")  # no bike's page kept
    rider = visitor(mt07)
    rider.cookies["bike"] = str(z900.pk)
    html, rendered, _ = visit(rider, "/allparts")
    assert (bike_shown(html), rendered) == (mt07.name, True)
    assert "Parts that fit your 2019 Yamaha MT-07" in html
    assert rider.cookies["bike"].value == str(mt07.pk)  # set right again
    rider.cookies["bike"] = ""
    html, _, _ = visit(rider, "/allparts")
    assert bike_shown(html) == mt07.name
    # Without a session there is no garage: a bike cookie alone changes nothing.
    stranger = Client()
    stranger.cookies["bike"] = str(mt07.pk)
    html, _, _ = visit(stranger, "/allparts")
    assert bike_shown(html) == ""


def test_changing_bike_changes_the_page_at_once(bikes):
    mt07, z900, _ = bikes
    rider = visitor(mt07)
    assert bike_shown(visit(rider, "/allparts")[0]) == mt07.name
    rider.post("/api/garage", {"vehicle": z900.pk}, "application/json")
    assert bike_shown(visit(rider, "/allparts")[0]) == z900.name
    rider.put("/api/garage", {"active": mt07.pk}, "application/json")
    assert bike_shown(visit(rider, "/allparts")[0]) == mt07.name
    rider.delete(f"/api/garage/{mt07.pk}")
    rider.delete(f"/api/garage/{z900.pk}")
    html, _, _ = visit(rider, "/allparts")
    assert bike_shown(html) == ""
    assert rider.cookies["bike"].value == "0"  # a visitor's session, with no bike
    # Such a session is served the page kept for no bike, like a visitor without one.
    visit(visitor(), "/blogs")
    html, rendered, queries = visit(rider, "/blogs")
    assert (bike_shown(html), rendered, queries) == ("", False, 0)


def test_a_signed_in_shopper_never_gets_a_visitors_page(bikes, user):
    mt07, _, _ = bikes
    visit(visitor(), "/allparts")
    visit(visitor(mt07), "/allparts")
    shopper = Client()
    shopper.force_login(user)
    shopper.cookies["bike"] = str(mt07.pk)
    html, rendered, _ = visit(shopper, "/allparts")
    assert (bike_shown(html), rendered) == ("", True)
    assert f"{user.get_short_name()} (Sign Out)" in html
    assert shopper.cookies["bike"].value == ""  # deleted: a signed-in session carries none


def test_visitors_pages_with_a_bike_are_private_to_the_browser(bikes):
    mt07, _, _ = bikes
    rider = visitor(mt07)
    visit(rider, "/allparts")
    response = rider.get("/allparts")
    assert response["Cache-Control"] == "private, no-store"
