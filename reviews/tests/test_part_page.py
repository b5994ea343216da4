"""The riders' reviews on a part's page: rating, reviews with their badges, "Fit confirmed by
N riders of …" for the active bike, the form for signed-in riders only (never in the page kept
for visitors), a new review shown at once on the kept page, and JSON-LD."""

import json
import re

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from catalog.models import Fitment, Vehicle
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from reviews.tests.factories import PartReviewFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def mt07():
    return Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)


def visitor(vehicle=None) -> Client:
    client = Client()
    if vehicle is not None:
        client.post("/api/garage", {"vehicle": vehicle.pk}, "application/json")
    return client


def page(client, part) -> str:
    response = client.get(f"/parts/{part.pk}")
    assert response.status_code == 200
    return response.content.decode()


def product_ld(html: str) -> dict:
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_no_reviews_yet():
    html = page(Client(), PartFactory())
    assert "No reviews yet" in html
    assert "Sign in to write a review" in html


def test_the_rating_and_each_review_with_its_badges(mt07):
    part = PartFactory()
    buyer = UserFactory()
    BookingFactory(user=buyer, part=part, paid_order=True)
    PartReviewFactory(
        user=buyer, part=part, rating=5, title="Bite well", body="Cold or wet.", vehicle=mt07,
        fits=True,
    )  # fmt: skip
    PartReviewFactory(part=part, rating=4, title="Fine", fits=False)
    html = page(Client(), part)
    assert "4.5 out of 5 (2 reviews)" in html
    assert "Bite well" in html and "Cold or wet." in html
    assert html.count("Verified buyer") == 1
    assert "Rides a 2019 Yamaha MT-07" in html
    assert "Fit: yes" in html and "Fit: no" in html
    assert buyer.get_short_name() in html


def test_fit_confirmed_for_the_active_bike_counts_verified_buyers_only(mt07):
    part = PartFactory()
    Fitment.objects.create(part=part, vehicle=mt07)
    buyer = UserFactory()
    BookingFactory(user=buyer, part=part, paid_order=True)
    PartReviewFactory(user=buyer, part=part, vehicle=mt07, fits=True)
    PartReviewFactory(part=part, vehicle=mt07, fits=True)  # not a buyer
    html = page(visitor(mt07), part)
    assert "Fit confirmed by 1 rider of the 2019 Yamaha MT-07" in html
    assert "Fit confirmed" not in page(Client(), part)  # no bike: nothing to confirm
    z900 = Vehicle.objects.create(make="Kawasaki", model="Z900", year=2020)
    assert "Fit confirmed" not in page(visitor(z900), part)

    second = UserFactory()
    BookingFactory(user=second, part=part, paid_order=True)
    PartReviewFactory(user=second, part=part, vehicle=mt07, fits=True)
    assert "Fit confirmed by 2 riders of the 2019 Yamaha MT-07" in page(visitor(mt07), part)


def test_a_new_review_shows_at_once_on_the_page_kept_for_visitors():
    part = PartFactory()
    client = Client()
    page(client, part)
    assert "Second coming" not in page(client, part)  # kept now
    PartReviewFactory(part=part, title="Second coming")
    html = page(client, part)
    assert "Second coming" in html and "4.0 out of 5 (1 review)" in html


def test_the_form_is_only_on_a_signed_in_riders_page_and_never_kept(user):
    part = PartFactory()
    visitors = page(Client(), part)
    assert "Write a review" not in visitors and "csrfmiddlewaretoken" not in visitors
    rider = Client()
    rider.force_login(user)
    html = page(rider, part)
    assert "Write a review" in html
    for label in ("Rating", "Title", "Review", "Your bike", "Did it fit?"):
        assert f">{label}<" in html
    assert "Write a review" not in page(Client(), part)  # the visitors' page did not take it


def test_the_author_sees_their_review_to_edit_it(user):
    part = PartFactory()
    PartReviewFactory(user=user, part=part, title="My first go", rating=3)
    rider = Client()
    rider.force_login(user)
    html = page(rider, part)
    assert "Edit your review" in html
    assert 'value="My first go"' in html
    assert '<option value="3" selected>' in html


def test_the_active_bike_is_chosen_in_the_form(user, mt07):
    part = PartFactory()
    rider = Client()
    rider.force_login(user)
    rider.post("/api/garage", {"vehicle": mt07.pk}, "application/json")
    assert f'<option value="{mt07.pk}" selected>2019 Yamaha MT-07</option>' in page(rider, part)


def test_json_ld_gains_aggregate_rating_and_reviews():
    part = PartFactory()
    PartReviewFactory(part=part, rating=5, title="Top", body="Really good.")
    ld = product_ld(page(Client(), part))
    assert ld["aggregateRating"]["ratingValue"] == "5.0"
    assert ld["aggregateRating"]["reviewCount"] == 1
    assert ld["review"][0]["name"] == "Top"
    assert ld["review"][0]["reviewBody"] == "Really good."
    assert ld["review"][0]["reviewRating"]["ratingValue"] == 5


def test_a_script_in_a_review_is_plain_text_on_the_page_and_in_json_ld():
    part = PartFactory()
    evil = "<script>alert(1)</script>"
    PartReviewFactory(part=part, title=evil, body=f"</script>{evil}")
    html = page(Client(), part)
    assert evil not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    ld = product_ld(html)
    assert ld["review"][0]["name"] == evil  # read back as the text it is


def test_hidden_reviews_are_not_shown():
    part = PartFactory()
    PartReviewFactory(part=part, title="Spam spam", hidden=True)
    html = page(Client(), part)
    assert "Spam spam" not in html and "No reviews yet" in html


def test_cards_show_the_stars_and_count():
    part = PartFactory(name="Sintered pads")
    PartReviewFactory(part=part, rating=4)
    html = Client().get("/allparts").content.decode()
    assert 'aria-label="Rated 4.0 out of 5"' in html
    assert "4.0 (1)" in html
