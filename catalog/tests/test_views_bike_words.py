"""/allparts and the bike in a search's words (BEYOND.md, "Finding parts fast": A bike in the
words, Not for your bike) and the search boxes of the pages (The navbar, Suggestions)."""

import re

import pytest
from django.test import Client

from catalog import services
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

OFFER = "Shop for your 2019 Yamaha MT-07?"
OFFERED = re.compile(r"Shop for your \d{4} .*?\?")  # (not "Shop for your bike")


def text(response) -> str:
    assert response.status_code == 200
    html = re.sub(r"<script.*?</script>", " ", response.content.decode(), flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def active(client, vehicle) -> None:
    assert client.post("/api/garage", {"vehicle": vehicle.pk}, "application/json").status_code in (
        200,
        201,
    )


def test_a_bike_in_the_words_lists_its_parts_and_offers_it(client, garage_shelf):
    page = text(client.get("/allparts", {"q": "mt07 brake pads"}))
    assert "Brake pads front" in page
    assert "Brake pads Z" not in page
    assert OFFER in page


def test_the_offer_saves_the_bike_and_makes_it_active(client, garage_shelf):
    html = client.get("/allparts", {"q": "mt07 pads"}).content.decode()
    form = re.search(
        r'<form method="post" action="/garage"[^>]*data-testid="bike-offer".*?</form>', html, re.S
    )
    values = dict(re.findall(r'name="(make|model|year)" value="([^"]*)"', form.group(0)))
    assert values == {"make": "Yamaha", "model": "MT-07", "year": "2019"}
    assert client.post("/garage", values).status_code == 302
    page = text(client.get("/allparts", {"q": "mt07 pads"}))
    assert "Parts that fit your 2019 Yamaha MT-07" in page
    assert not OFFERED.search(page)


def test_another_active_bike_is_offered_the_named_one(client, garage_shelf):
    active(client, garage_shelf["z900"])
    page = text(client.get("/allparts", {"q": "mt07 pads"}))
    assert OFFER in page
    assert "Brake pads front" in page  # the named bike's list, not the Z900's


def test_an_active_year_of_the_named_model_is_not_offered_another(client, garage_shelf):
    active(client, garage_shelf["mt07_2018"])
    page = text(client.get("/allparts", {"q": "mt07 chain"}))
    assert not OFFERED.search(page)
    assert "Drive chain 525" in page


def test_without_a_bike_in_the_words_nothing_is_offered(client, garage_shelf):
    assert not OFFERED.search(text(client.get("/allparts", {"q": "brake pads"})))


def test_n_parts_match_but_do_not_fit(client, garage_shelf):
    active(client, garage_shelf["mt07_2019"])
    PartFactory(name="Brake pads rear", description="Rear")
    page = text(client.get("/allparts", {"q": "brake"}))
    assert "Brake pads front" in page
    assert "2 parts match but do not fit your 2019 Yamaha MT-07 Show them" in page
    html = client.get("/allparts", {"q": "brake"}).content.decode()
    link = re.search(r'<a [^>]*href="([^"]+)"[^>]*>Show them</a>', html).group(1)
    every = text(client.get(link.replace("&amp;", "&")))
    assert "Brake pads Z" in every
    assert "Brake pads rear" in every


def test_1_part_matches_but_does_not_fit(client, garage_shelf):
    active(client, garage_shelf["mt07_2019"])
    page = text(client.get("/allparts", {"q": "brake"}))
    assert "1 part matches but does not fit your 2019 Yamaha MT-07" in page


def test_when_none_fits_the_sentence_stands_instead(client, garage_shelf):
    active(client, garage_shelf["mt07_2018"])
    page = text(client.get("/allparts", {"q": "brake"}))
    assert "2 parts match but do not fit your 2018 Yamaha MT-07" in page
    assert "No parts match your search." not in page


def test_a_bike_in_the_words_that_no_match_fits_says_so_instead(client, garage_shelf):
    """ "z900 drive": the drive chain matches but fits MT-07s only: said, with a link that
    shows it (the words without the bike), not "No parts match your search"."""
    html = client.get("/allparts", {"q": "z900 drive", "sort": "name"}).content.decode()
    page = text(client.get("/allparts", {"q": "z900 drive", "sort": "name"}))
    assert "0 parts" in page
    assert "1 part matches but does not fit your 2020 Kawasaki Z900 Show them" in page
    assert "No parts match your search." not in page
    assert "Shop for your 2020 Kawasaki Z900?" in page
    link = re.search(r'<a [^>]*href="([^"]+)"[^>]*>Show them</a>', html).group(1)
    assert link.replace("&amp;", "&") == "/allparts?q=drive&sort=name"
    every = text(client.get(link.replace("&amp;", "&")))
    assert "1 part" in every and "Drive chain 525" in every


def test_a_bike_in_the_words_alone_or_matching_nothing_says_no_more(client, garage_shelf):
    assert "not fit" not in text(client.get("/allparts", {"q": "z900 nothing-like-it"}))
    assert "No parts match your search." in text(
        client.get("/allparts", {"q": "z900 nothing-like-it"})
    )
    assert "Brake pads Z" in text(client.get("/allparts", {"q": "z900"}))


def test_nothing_said_when_every_match_fits_or_nothing_searched(client, garage_shelf):
    active(client, garage_shelf["mt07_2019"])
    assert "do not fit" not in text(client.get("/allparts", {"q": "chain"}))
    assert "not fit your" not in text(client.get("/allparts"))
    page = text(client.get("/allparts", {"q": "nothing-like-it"}))
    assert "No parts match your search." in page


def test_a_signed_in_shopper_sees_the_sentence_too(user, garage_shelf):
    client = Client()
    client.force_login(user)
    active(client, garage_shelf["mt07_2019"])
    services.part_update(part=garage_shelf["z_pads"], name="Brake pads Z")  # any write
    assert "1 part matches but does not fit" in text(client.get("/allparts", {"q": "brake"}))


SEARCH_BOX = re.compile(r'<input type="search" name="q"[^>]* id="([^"]+)"[^>]*role="combobox"')


@pytest.mark.parametrize("path", ["/", "/blogs", "/login", "/parts/{pk}", "/allparts"])
def test_every_page_has_one_search_parts_combobox(client, garage_shelf, path):
    """One in the page (/allparts' form) or the bar's and the phone menu's (one shown at any
    width: the bar's from 1024 px, the menu's below)."""
    html = client.get(path.format(pk=garage_shelf["pads"].pk)).content.decode()
    boxes = SEARCH_BOX.findall(html)
    assert boxes == (["search-q"] if path == "/allparts" else ["menu-q", "navbar-q"]), boxes
    for box in boxes:
        search_box_is_a_combobox(html, box)


def search_box_is_a_combobox(html: str, box: str) -> None:
    assert len(re.findall(rf'<label[^>]*for="{box}"[^>]*>(?:<span[^>]*>)?Search parts<', html)) == 1
    tag = re.search(rf'<input [^>]*id="{box}"[^>]*>', html).group(0)
    assert 'aria-expanded="false"' in tag
    assert f'aria-controls="{box}-list"' in tag
    assert re.search(rf'<ul id="{box}-list" role="listbox"', html)
    assert "data-suggest-status" not in html  # the script adds it: no empty status without
    form = re.search(
        rf'<form method="get" action="/allparts"[^>]*>(?:(?!</form>).)*id="{box}"', html, re.S
    )
    assert form, "a GET form to /allparts: the box works without JavaScript"


def test_the_pages_of_a_search_for_the_active_bike(client, garage_shelf):
    """25 universal brake parts and the bike's pads fit; the Z900's pads do not: 26 on two
    pages, whichever page is asked for."""
    for n in range(25):
        PartFactory(name=f"Brake cleaner {n}", universal=True, description="Spray")
    active(client, garage_shelf["mt07_2019"])
    first = text(client.get("/allparts", {"q": "brake"}))
    assert "26 parts" in first
    assert "1 part matches but does not fit" in first
    second = text(client.get("/allparts", {"q": "brake", "page": "2"}))
    beyond = text(client.get("/allparts", {"q": "brake", "page": "9"}))
    assert second == beyond  # the last page
    assert "26 parts" in second and "1 part matches but does not fit" in second
    shown = [re.findall(r"Brake (?:cleaner \d+|pads front)", page) for page in (first, second)]
    assert len(set(shown[0]) | set(shown[1])) == 26
    assert "Brake pads Z" not in first + second
