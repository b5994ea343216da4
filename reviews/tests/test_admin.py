"""The review admin for staff: pages, search and the ratings filter."""

import pytest

from accounts.tests.factories import UserFactory
from reviews.models import Review
from reviews.tests.factories import ReviewFactory

CHANGELIST = "/admin/reviews/review/"


@pytest.fixture
def reviews(db):
    reviewer = UserFactory()
    return [
        ReviewFactory(user=reviewer, name="Ana", ratings=5),
        ReviewFactory(user=reviewer, name="Ben", ratings=2, review="Box arrived dented."),
    ]


def rows(response) -> list[Review]:
    return list(response.context["cl"].result_list)


@pytest.mark.parametrize("query", ["", "?q=chain", "?ratings__exact=5", "?o=-3"])
def test_changelist_answers(staff_client, reviews, query):
    assert staff_client.get(CHANGELIST + query).status_code == 200


def test_search_looks_in_name_and_text(staff_client, reviews):
    assert rows(staff_client.get(CHANGELIST + "?q=dented")) == [reviews[1]]
    assert rows(staff_client.get(CHANGELIST + "?q=ana")) == [reviews[0]]


def test_ratings_filter(staff_client, reviews):
    assert rows(staff_client.get(CHANGELIST + "?ratings__exact=2")) == [reviews[1]]


def test_change_and_add_pages_answer(staff_client, reviews):
    assert staff_client.get(f"{CHANGELIST}{reviews[0].pk}/change/").status_code == 200
    assert staff_client.get(f"{CHANGELIST}add/").status_code == 200


def test_user_autocomplete_answers(staff_client, reviews):
    response = staff_client.get(
        "/admin/autocomplete/",
        {
            "app_label": "reviews",
            "model_name": "review",
            "field_name": "user",
            "term": reviews[0].user.email,
        },
    )
    assert response.status_code == 200
    assert [r["id"] for r in response.json()["results"]] == [str(reviews[0].user.pk)]


def test_ratings_out_of_range_are_rejected(staff_client, reviews):
    review = reviews[0]
    response = staff_client.post(
        f"{CHANGELIST}{review.pk}/change/",
        {"user": review.user.pk, "name": review.name, "review": review.review, "ratings": "6"},
    )
    assert response.status_code == 200
    review.refresh_from_db()
    assert review.ratings == 5
