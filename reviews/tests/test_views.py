"""The Add Reviews page at /dashboard/review."""

import pytest

from accounts.tests.factories import UserFactory
from core.tests.pages import buttons, field_error, fields, label_of, toasts
from reviews.models import Review
from reviews.serializers import RATINGS_INVALID, REVIEW_REQUIRED
from reviews.views import REVIEW_ADDED

pytestmark = pytest.mark.django_db

URL = "/dashboard/review"


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def test_anonymous_visitors_go_to_login_remembering_the_page(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={URL}"
    assert client.post(URL, {"review": "x", "ratings": "5"})["Location"] == f"/login?next={URL}"
    assert not Review.objects.exists()


def test_the_form_has_the_specs_fields_placeholders_and_button(signed_in, user):
    response = signed_in.get(URL)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Add Reviews" in html
    form = fields(response)
    assert form["name"]["value"] == user.get_short_name() == user.name
    assert form["review"]["tag"] == "textarea"
    assert form["review"]["placeholder"] == "write review"
    ratings = form["ratings"]
    assert (ratings["type"], ratings["placeholder"], ratings["min"], ratings["max"]) == (
        "number",
        "Ratings out of 5",
        "1",
        "5",
    )
    assert [label_of(response, n) for n in ("name", "review", "ratings")] == [
        "Name",
        "Review",
        "Ratings",
    ]
    assert "Add review" in buttons(response)
    assert "novalidate data-loading" in html


def test_a_review_is_added_under_the_given_name(signed_in, user):
    response = signed_in.post(URL, {"name": "Sam R.", "review": "Fast shipping.", "ratings": "5"})

    assert response.status_code == 302
    assert response["Location"] == URL
    review = Review.objects.get()
    assert (review.user, review.name, review.review, review.ratings) == (
        user,
        "Sam R.",
        "Fast shipping.",
        5,
    )
    assert toasts(signed_in.get(URL)) == [REVIEW_ADDED] == ["Review Added"]


def test_a_blank_name_falls_back_to_the_display_name(signed_in, user):
    signed_in.post(URL, {"name": "  ", "review": "Good pads.", "ratings": "4"})

    assert Review.objects.get().name == user.get_short_name()


def test_a_user_without_a_display_name_gets_the_start_of_the_email(client):
    nameless = UserFactory(name="", email="rider7@example.com")
    client.force_login(nameless)

    assert fields(client.get(URL))["name"]["value"] == "rider7"


def test_an_empty_review_is_refused(signed_in):
    response = signed_in.post(URL, {"name": "Sam", "review": " ", "ratings": "3"})

    assert response.status_code == 200
    assert field_error(response, "review") == REVIEW_REQUIRED
    assert field_error(response, "ratings") == ""
    assert fields(response)["ratings"]["value"] == "3"
    assert not Review.objects.exists()
    assert toasts(response) == []


@pytest.mark.parametrize("ratings", [None, "", "0", "6", "-1", "4.5", "five"])
def test_ratings_must_be_a_whole_number_from_1_to_5(signed_in, ratings):
    data = {"name": "Sam", "review": "Solid chain kit."}
    if ratings is not None:
        data["ratings"] = ratings

    response = signed_in.post(URL, data)

    assert response.status_code == 200
    assert field_error(response, "ratings") == RATINGS_INVALID
    form = fields(response)
    assert form["review"]["value"] == "Solid chain kit."
    assert form["name"]["value"] == "Sam"
    assert not Review.objects.exists()


@pytest.mark.parametrize("ratings", ["1", "5", " 3 "])
def test_every_rating_from_1_to_5_is_accepted(signed_in, ratings):
    signed_in.post(URL, {"review": "Fine.", "ratings": ratings})

    assert Review.objects.get().ratings == int(ratings)


def test_beyond_md_s_address_is_the_same_page(signed_in, user):
    """BEYOND.md names the page /dashboard/addreview (the spec /dashboard/review): both work."""
    page = signed_in.get("/dashboard/addreview")
    assert page.status_code == 200
    assert 'placeholder="write review"' in page.content.decode()
    posted = signed_in.post("/dashboard/addreview", {"name": "S", "review": "Ok.", "ratings": "4"})
    assert posted.status_code == 302
    assert Review.objects.get().review == "Ok."
