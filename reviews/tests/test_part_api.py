"""The part reviews API (API.md "Riders' word"): reading a part's reviews with its rating and
the verified buyers' fit answers, writing one's own once, changing it, and admins hiding one."""

import re

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from catalog.models import Vehicle
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders.tests.factories import BookingFactory
from reviews.models import PartReview
from reviews.serializers import (
    BODY_TOO_LONG,
    RATING_INVALID,
    TITLE_REQUIRED,
    TITLE_TOO_LONG,
)
from reviews.services import part_review_set_hidden
from reviews.tests.factories import PartReviewFactory

pytestmark = pytest.mark.django_db

REVIEW_FIELDS = {
    "_id",
    "rating",
    "title",
    "body",
    "name",
    "vehicle",
    "fits",
    "verifiedBuyer",
    "createdAt",
}


@pytest.fixture
def mt07():
    return Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)


def payload(**changes) -> dict:
    return {"rating": 5, "title": "Great pads", "body": "Stop well.", **changes}


def test_anyone_reads_a_parts_reviews_with_its_rating_and_fit(mt07):
    part = PartFactory()
    buyer = UserFactory(name="Ann Rider")
    BookingFactory(user=buyer, part=part, paid_order=True)
    PartReviewFactory(user=buyer, part=part, rating=5, vehicle=mt07, fits=True)
    PartReviewFactory(part=part, rating=4, vehicle=mt07, fits=False)  # not a buyer: not counted
    hidden = PartReviewFactory(part=part, rating=1)
    part_review_set_hidden(reviews=PartReview.objects.filter(pk=hidden.pk), hidden=True)

    answer = APIClient().get(f"/api/allparts/{part.pk}/reviews")

    assert answer.status_code == 200
    body = answer.json()
    assert (body["average"], body["count"]) == (4.5, 2)
    assert body["fit"] == [
        {
            "vehicle": {"_id": mt07.pk, "make": "Yamaha", "model": "MT-07", "year": 2019,
                        "name": "2019 Yamaha MT-07"},
            "fits": 1,
            "doesNotFit": 0,
        }
    ]  # fmt: skip
    assert [r["rating"] for r in body["reviews"]] == [4, 5]  # newest first, hidden left out
    assert set(body["reviews"][0]) == REVIEW_FIELDS
    assert [r["verifiedBuyer"] for r in body["reviews"]] == [False, True]
    assert body["reviews"][1]["name"] == buyer.get_short_name()


def test_no_reviews_gives_a_null_average():
    part = PartFactory()
    body = APIClient().get(f"/api/allparts/{part.pk}/reviews").json()
    assert body == {"average": None, "count": 0, "fit": [], "reviews": []}


def test_limit_and_offset_page_through_the_reviews():
    part = PartFactory()
    reviews = [PartReviewFactory(part=part, title=f"R{n}") for n in range(3)]
    body = APIClient().get(f"/api/allparts/{part.pk}/reviews?limit=1&offset=1").json()
    assert [r["_id"] for r in body["reviews"]] == [reviews[1].pk]
    assert APIClient().get(f"/api/allparts/{part.pk}/reviews?limit=0").status_code == 400


def test_an_unknown_part_is_not_found():
    assert APIClient().get("/api/allparts/999999/reviews").status_code == 404


def test_the_part_gains_its_rating():
    part = PartFactory()
    PartReviewFactory(part=part, rating=5)
    PartReviewFactory(part=part, rating=4)
    assert APIClient().get(f"/api/allparts/{part.pk}").json()["rating"] == {
        "average": 4.5,
        "count": 2,
    }
    listed = APIClient().get("/api/allparts").json()
    assert listed[0]["rating"] == {"average": 4.5, "count": 2}


def test_a_rider_posts_their_review(user, mt07):
    part = PartFactory()
    answer = bearer_client(user).post(
        f"/api/allparts/{part.pk}/reviews", payload(vehicle=mt07.pk, fits=True), format="json"
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert set(body) == REVIEW_FIELDS
    assert body["vehicle"]["name"] == "2019 Yamaha MT-07"
    assert (body["fits"], body["verifiedBuyer"]) == (True, False)


def test_a_second_post_is_a_conflict_and_put_mine_changes_it(user):
    part = PartFactory()
    client = bearer_client(user)
    client.post(f"/api/allparts/{part.pk}/reviews", payload(), format="json")
    again = client.post(f"/api/allparts/{part.pk}/reviews", payload(), format="json")
    assert again.status_code == 409
    changed = client.put(
        f"/api/allparts/{part.pk}/reviews/mine", payload(rating=2, fits=False), format="json"
    )
    assert changed.status_code == 200
    assert (changed.json()["rating"], changed.json()["fits"]) == (2, False)
    assert PartReview.objects.get().rating == 2


def test_put_mine_without_a_review_is_not_found(user, other_user):
    review = PartReviewFactory(user=other_user)
    answer = bearer_client(user).put(
        f"/api/allparts/{review.part_id}/reviews/mine", payload(), format="json"
    )
    assert answer.status_code == 404
    assert PartReview.objects.get().title == review.title  # nobody edits another's review


def test_signing_in_is_needed_to_post():
    part = PartFactory()
    answer = APIClient().post(f"/api/allparts/{part.pk}/reviews", payload(), format="json")
    assert answer.status_code == 401


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"rating": 0}, "rating", RATING_INVALID),
        ({"rating": 6}, "rating", RATING_INVALID),
        ({"rating": "five"}, "rating", RATING_INVALID),
        ({"rating": None}, "rating", RATING_INVALID),
        ({"title": ""}, "title", TITLE_REQUIRED),
        ({"title": "x" * 121}, "title", TITLE_TOO_LONG),
        ({"body": "x" * 5001}, "body", BODY_TOO_LONG),
        ({"body": "   "}, "body", None),
        ({"vehicle": 999999}, "vehicle", "There is no vehicle with this id."),
        ({"vehicle": "abc"}, "vehicle", "There is no vehicle with this id."),
        ({"vehicle": 10**30}, "vehicle", "There is no vehicle with this id."),
        ({"fits": "maybe"}, "fits", None),
    ],
)
def test_bad_input_is_a_400_naming_its_field(user, changes, field, message):
    part = PartFactory()
    answer = bearer_client(user).post(
        f"/api/allparts/{part.pk}/reviews", payload(**changes), format="json"
    )
    assert answer.status_code == 400
    assert field in answer.json()
    if message:
        assert answer.json()[field] == [message]
    assert not PartReview.objects.exists()


def test_lengths_at_their_limits_are_accepted(user):
    part = PartFactory()
    answer = bearer_client(user).post(
        f"/api/allparts/{part.pk}/reviews",
        payload(title="x" * 120, body="y" * 5000, rating=1),
        format="json",
    )
    assert answer.status_code == 201


def test_admins_hide_and_show_a_review(admin_user, user):
    review = PartReviewFactory(rating=2)
    path = f"/api/part-reviews/{review.pk}"
    assert bearer_client(user).put(path, {"hidden": True}, format="json").status_code == 403
    assert bearer_client(admin_user).put(path, {"hidden": True}, format="json").status_code == 200
    listed = APIClient().get(f"/api/allparts/{review.part_id}/reviews").json()
    assert (listed["count"], listed["reviews"]) == (0, [])
    assert bearer_client(admin_user).put(path, {"hidden": "x"}, format="json").status_code == 400
    bearer_client(admin_user).put(path, {"hidden": False}, format="json")
    assert APIClient().get(f"/api/allparts/{review.part_id}/reviews").json()["count"] == 1


THROTTLED = re.compile(r"^Request was throttled\. Expected available in \d+ seconds?\.$")


def test_review_writes_are_throttled_per_user(user):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["part_reviews"]
    allowed = int(rate.split("/")[0])
    client = bearer_client(user)
    for _ in range(allowed):
        part = PartFactory()
        assert (
            client.post(f"/api/allparts/{part.pk}/reviews", payload(), format="json").status_code
            == 201
        )
    part = PartFactory()
    throttled = client.post(f"/api/allparts/{part.pk}/reviews", payload(), format="json")
    assert throttled.status_code == 429
    assert THROTTLED.match(throttled.json()["detail"])


def test_review_writes_refused_for_a_mistake_do_not_count(user):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["part_reviews"]
    client = bearer_client(user)
    part = PartFactory()
    path = f"/api/allparts/{part.pk}/reviews"
    for _ in range(int(rate.split("/")[0])):
        assert client.post(path, payload(rating=0), format="json").status_code == 400
    assert client.post(path, payload(), format="json").status_code == 201
