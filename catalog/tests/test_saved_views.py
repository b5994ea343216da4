"""Saved parts in the pages (BEYOND.md, "Riders' word"): "Save" on cards and part pages, /saved
with "Add to cart", "Price dropped" and "Remove", all working without JavaScript (plain POST
forms, a redirect and a message); the navbar's "Saved"; a visitor's saved parts kept at
sign-in."""

import re
from decimal import Decimal

import pytest
from django.test import Client

from accounts.tests.factories import TEST_PASSWORD
from catalog import services
from catalog.models import SavedPart
from catalog.saved import SAVED_FULL, UNKNOWN_PART
from catalog.saved_views import PART_REMOVED, PART_SAVED
from catalog.tests.factories import PartFactory
from core.throttles import VISITOR_WRITES_REFUSED

pytestmark = pytest.mark.django_db

EMPTY = 'No saved parts yet. Press "Save" on a part to keep it here.'


def text(response) -> str:
    """The page's text, tags dropped and spaces squeezed."""
    assert response.status_code in (200, 400, 429)
    html = re.sub(r"<script.*?</script>", " ", response.content.decode(), flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace("&quot;", '"')


def saved_list(response) -> str:
    """The text of the page's list of saved parts ("" when there is none)."""
    html = response.content.decode()
    found = re.search(r'<ul [^>]*aria-label="Saved parts".*?</ul>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split()) if found else ""


def save(client, part, **extra):
    return client.post("/saved", {"save": part.pk}, **extra)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages]


def test_the_page_when_nothing_is_saved(client):
    response = client.get("/saved")
    page = text(response)
    assert "<title>Saved parts · " in response.content.decode()
    assert re.search(r"<h1[^>]*>Saved parts</h1>", response.content.decode())
    assert EMPTY in page
    assert response["Cache-Control"] == "private, no-store"


def test_save_from_a_plain_form_comes_back_with_a_message(client):
    part = PartFactory(name="Chain lube", price=Decimal("9.90"))
    response = save(client, part)
    assert (response.status_code, response["Location"]) == (302, "/saved")
    assert messages_of(response) == [PART_SAVED]
    page = client.get("/saved")
    assert "Chain lube" in saved_list(page) and "$9.90" in saved_list(page)
    assert "Price dropped" not in text(page)
    assert EMPTY not in text(page)


def test_the_list_has_add_to_cart_and_remove(client):
    part = PartFactory(name="Chain lube")
    save(client, part)
    html = client.get("/saved").content.decode()
    assert f'data-add-to-cart="{part.pk}" data-quantity="{part.minimum_order_quantity}"' in html
    assert re.search(rf'<button type="submit" name="remove" value="{part.pk}"[^>]*>Remove<', html)
    assert 'name="csrfmiddlewaretoken"' in html  # the page is this browser's own


def test_an_out_of_stock_part_shows_it_and_no_add_to_cart(client):
    part = PartFactory(available_quantity=0)
    save(client, part)
    response = client.get("/saved")
    assert "Out of stock" in saved_list(response)
    assert "data-add-to-cart" not in response.content.decode()


def test_remove_from_a_plain_form(client):
    part, kept = PartFactory(name="Chain lube"), PartFactory(name="Brake lever")
    save(client, part), save(client, kept)
    response = client.post("/saved", {"remove": part.pk})
    assert (response.status_code, response["Location"]) == (302, "/saved")
    assert messages_of(response)[-1] == PART_REMOVED
    listed = saved_list(client.get("/saved"))
    assert "Brake lever" in listed and "Chain lube" not in listed


def test_price_dropped_shows_both_prices(client):
    part = PartFactory(name="Chain lube", price=Decimal("20.00"))
    save(client, part)
    services.part_update(part=part, price=Decimal("15.00"))
    listed = saved_list(client.get("/saved"))
    assert "Price dropped" in listed
    assert "Price per unit: $15.00 , was $20.00 when you saved it" in listed


def test_a_price_that_rose_is_no_drop(client):
    part = PartFactory(price=Decimal("20.00"))
    save(client, part)
    services.part_update(part=part, price=Decimal("21.00"))
    listed = saved_list(client.get("/saved"))
    assert "Price dropped" not in listed and "$21.00" in listed


@pytest.mark.parametrize("sent", ["abc", "", "999999", "-1", "9" * 40])
def test_a_bad_part_is_a_400_with_its_message_and_nothing_saved(client, sent):
    response = client.post("/saved", {"save": sent})
    assert response.status_code == 400
    assert UNKNOWN_PART in text(response)
    assert not client.session.get("saved_parts")


def test_the_hundred_and_first_is_refused_with_its_message(client, user, settings):
    client.force_login(user)
    parts = PartFactory.create_batch(101)
    SavedPart.objects.bulk_create(
        SavedPart(user=user, part=p, saved_price=p.price) for p in parts[:100]
    )
    response = save(client, parts[-1])
    assert response.status_code == 400
    assert SAVED_FULL in text(response)


def test_a_post_asking_nothing_goes_back_to_the_page(client):
    assert client.post("/saved", {}).status_code == 302


# --- Without this browser's CSRF token (a kept page's form): confirm first --------------------


def token_of(response) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode())[1]


def test_a_save_without_a_token_changes_nothing_and_asks_to_confirm():
    browser = Client(enforce_csrf_checks=True)
    part = PartFactory(name="Chain lube")
    response = save(browser, part)
    assert response.status_code == 200
    assert "Save Chain lube?" in text(response)
    assert not browser.session.get("saved_parts")
    confirmed = browser.post("/saved", {"save": part.pk, "csrfmiddlewaretoken": token_of(response)})
    assert (confirmed.status_code, confirmed["Location"]) == (302, "/saved")
    assert "Chain lube" in saved_list(browser.get("/saved"))


def test_a_save_with_another_browsers_token_asks_too(client):
    part = PartFactory(name="Chain lube")
    stranger, browser = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    theirs = token_of(save(stranger, part))
    token_of(save(browser, part))  # the browser has a CSRF cookie of its own
    response = browser.post("/saved", {"save": part.pk, "csrfmiddlewaretoken": theirs})
    assert (response.status_code, "Save Chain lube?" in text(response)) == (200, True)


def test_a_remove_without_a_token_asks_to_confirm_too(user):
    part = PartFactory(name="Chain lube")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    SavedPart.objects.create(user=user, part=part, saved_price=part.price)
    response = browser.post("/saved", {"remove": part.pk})
    assert "Remove Chain lube from your saved parts?" in text(response)
    assert SavedPart.objects.filter(user=user).exists()


def test_an_unknown_part_without_a_token_is_a_400():
    response = Client(enforce_csrf_checks=True).post("/saved", {"save": 999_999})
    assert (response.status_code, UNKNOWN_PART in text(response)) == (400, True)


# --- Cards, part pages, the navbar --------------------------------------------------------------


def save_forms(html: str) -> list[str]:
    return re.findall(r'<form method="post" action="/saved" data-save-part="(\d+)">', html)


def test_every_card_and_the_part_page_have_a_save_form_without_a_token(client):
    one, two = PartFactory.create_batch(2)
    for path in ("/", "/allparts"):
        html = client.get(path).content.decode()
        assert {str(one.pk), str(two.pk)} <= set(save_forms(html)), path
    html = client.get(f"/parts/{one.pk}").content.decode()
    assert save_forms(html) == [str(one.pk)]
    form = html[html.index('data-save-part="') :]
    form = form[: form.index("</form>")]
    assert 'name="save"' in form and ">Save</button>" in form
    assert "csrfmiddlewaretoken" not in form


def test_the_navbar_links_saved(client):
    html = client.get("/blogs").content.decode()
    assert re.search(r'<a href="/saved">Saved</a>', html)
    html = client.get("/saved").content.decode()
    assert re.search(r'<a href="/saved" aria-current="page"[^>]*>Saved</a>', html)


def test_the_page_sets_the_hint_while_there_are_saved_parts(client):
    part = PartFactory()
    save(client, part)
    assert client.get("/saved").cookies["saved_parts"].value == "1"
    client.post("/saved", {"remove": part.pk})
    assert client.get("/saved").cookies["saved_parts"].value == ""


# --- Sign-in ------------------------------------------------------------------------------------


def test_sign_in_keeps_the_visitors_saved_parts_and_shows_a_price_drop(client, user):
    mine = PartFactory(name="Brake lever")
    SavedPart.objects.create(user=user, part=mine, saved_price=mine.price)
    part = PartFactory(name="Chain lube", price=Decimal("20.00"))
    save(client, part)
    response = client.post("/login", {"login": user.email, "password": TEST_PASSWORD})
    assert response.status_code == 302
    services.part_update(part=part, price=Decimal("16.00"))
    listed = saved_list(client.get("/saved"))
    assert "Chain lube" in listed and "Brake lever" in listed
    assert "Price dropped" in listed and "was $20.00" in listed
    assert set(SavedPart.objects.filter(user=user).values_list("part", flat=True)) == {
        mine.pk,
        part.pk,
    }


def test_sign_up_keeps_them_too(client):
    part = PartFactory(name="Chain lube")
    save(client, part)
    client.post(
        "/signup", {"name": "New Rider", "email": "new@example.com", "password1": "secret1x"}
    )
    assert SavedPart.objects.get(user__email="new@example.com").part == part


def test_signing_out_leaves_the_accounts_saved_parts_behind(client, user):
    client.force_login(user)
    save(client, PartFactory(name="Chain lube"))
    client.post("/logout")
    assert EMPTY in text(client.get("/saved"))


# --- Limits and queries ---------------------------------------------------------------------


def test_a_visitors_posts_past_the_limit_get_the_page_with_a_message(client, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "visitor_writes": "2/minute"},
    }
    part, other = PartFactory.create_batch(2)
    save(client, part), save(client, part)
    response = save(client, other)
    assert response.status_code == 429 and response["Retry-After"]
    assert VISITOR_WRITES_REFUSED in text(response)
    assert [p.pk for p in response.context["parts"]] == [part.pk]


@pytest.mark.parametrize("who", ["visitor", "user"])
def test_the_page_stays_within_five_queries(client, user, who, django_assert_max_num_queries):
    from django.core.cache import cache

    if who == "user":
        client.force_login(user)
    for part in PartFactory.create_batch(3):
        save(client, part)
    client.get("/saved")
    cache.clear()
    with django_assert_max_num_queries(5):
        assert len(client.get("/saved").context["parts"]) == 3
