"""Reviews cannot be flooded: THROTTLE_REVIEWS reviews posted per user and hour, by the API
and by the Add Review page (one counter; a post refused for a mistake does not count), and at
most 2,000 characters of text."""

import re

import pytest
from django.conf import settings
from drf_spectacular.generators import SchemaGenerator

from core.tests.pages import field_error, toasts
from reviews.models import Review
from reviews.serializers import MAX_REVIEW_LENGTH, REVIEW_TOO_LONG
from reviews.views import TOO_MANY_REVIEWS

THROTTLED = re.compile(r"^Request was throttled\. Expected available in \d+ seconds?\.$")
PAYLOAD = {"name": "Jane R.", "review": "Chain arrived in two days.", "ratings": 4}
URL = "/dashboard/review"

pytestmark = pytest.mark.django_db


def reviews_allowed() -> int:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["reviews"]
    assert rate.endswith("/hour")
    return int(rate.split("/")[0])


def post(client, **overrides):
    return client.post("/api/review", {**PAYLOAD, **overrides}, format="json")


def test_default_is_five_an_hour():
    assert reviews_allowed() == 5


def test_reviews_per_user_are_limited(as_user, as_other, user):
    limit = reviews_allowed()
    for _ in range(limit):
        assert post(as_user).status_code == 201
    throttled = post(as_user)
    assert throttled.status_code == 429
    assert THROTTLED.match(throttled.json()["detail"])
    assert 0 < int(throttled["Retry-After"]) <= 3600
    assert Review.objects.filter(user=user).count() == limit
    assert as_user.get("/api/review").status_code == 200  # reading is not limited
    assert post(as_other).status_code == 201  # another reviewer is not affected


def test_posts_refused_for_a_mistake_do_not_count(as_user, client, user):
    """A rider who gets the rating wrong five times still posts their review."""
    client.force_login(user)
    for _ in range(reviews_allowed()):
        assert post(as_user, ratings=6).status_code == 400
        assert client.post(URL, {**PAYLOAD, "review": ""}).status_code == 200  # the form again
    assert post(as_user).status_code == 201
    assert client.post(URL, PAYLOAD).status_code == 302


def test_the_page_shares_the_limit(client, as_user, user):
    client.force_login(user)
    for _ in range(reviews_allowed() - 1):
        assert post(as_user).status_code == 201
    assert client.post(URL, {**PAYLOAD, "review": "Last one."}).status_code == 302
    response = client.post(URL, {**PAYLOAD, "review": "One too many."})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert TOO_MANY_REVIEWS in toasts(response)
    assert "One too many." in response.content.decode()  # the text is not lost
    assert post(as_user).status_code == 429
    assert not Review.objects.filter(review="One too many.").exists()


def test_schema_documents_the_429():
    operation = SchemaGenerator().get_schema(public=True)["paths"]["/api/review"]["post"]
    assert "429" in operation["responses"]


def test_2000_characters_are_accepted(as_user):
    response = post(as_user, review="x" * MAX_REVIEW_LENGTH)
    assert response.status_code == 201, response.content
    assert len(response.json()["review"]) == 2000


@pytest.mark.parametrize("length", [2001, 5000])
def test_longer_reviews_are_refused(as_user, length):
    response = post(as_user, review="x" * length)
    assert response.status_code == 400
    assert response.json() == {"review": ["Review must be at most 2,000 characters"]}
    assert REVIEW_TOO_LONG == "Review must be at most 2,000 characters"
    assert not Review.objects.exists()


def test_the_page_says_so_next_to_the_field(client, user):
    client.force_login(user)
    response = client.post(URL, {**PAYLOAD, "review": "x" * 2001})
    assert response.status_code == 200
    assert field_error(response, "review") == REVIEW_TOO_LONG
    assert not Review.objects.exists()
