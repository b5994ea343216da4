"""Reviews API for every kind of caller."""

from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.tests.factories import UserFactory
from accounts.tests.helpers import assert_no_secrets, bearer
from reviews.models import Review
from reviews.serializers import RATINGS_INVALID, REVIEW_REQUIRED
from reviews.tests.factories import ReviewFactory

REVIEW_FIELDS = {"_id", "name", "review", "ratings", "createdAt"}
PAYLOAD = {"name": "Jane R.", "review": "Chain arrived in two days.", "ratings": 4}


def review_json(review: Review) -> dict:
    return {
        "_id": review.pk,
        "name": review.name,
        "review": review.review,
        "ratings": review.ratings,
        "createdAt": review.created_at,
    }


def parsed(item: dict) -> dict:
    """An answer's review with createdAt parsed (it must be ISO 8601)."""
    return {**item, "createdAt": datetime.fromisoformat(item["createdAt"].replace("Z", "+00:00"))}


class TestList:
    @pytest.mark.parametrize("caller", ["anon", "as_user", "as_other", "as_admin"])
    @pytest.mark.parametrize("path", ["/api/review", "/api/review/"])
    def test_anyone_reads_newest_first(self, request, caller, path, db):
        now = timezone.now()
        oldest = ReviewFactory(ratings=3)
        newest = ReviewFactory(ratings=5)
        middle = ReviewFactory(ratings=4)
        # created_at, not the id, decides the order
        for review, age in ((oldest, 3), (newest, 1), (middle, 2)):
            Review.objects.filter(pk=review.pk).update(created_at=now - timedelta(days=age))
            review.refresh_from_db()

        response = request.getfixturevalue(caller).get(path)

        assert response.status_code == 200
        body = response.json()
        assert all(set(item) == REVIEW_FIELDS for item in body)
        assert [parsed(item) for item in body] == [
            review_json(newest),
            review_json(middle),
            review_json(oldest),
        ]
        assert_no_secrets(response)

    def test_one_query_for_the_list(self, anon, db, django_assert_max_num_queries):
        ReviewFactory.create_batch(5)
        with django_assert_max_num_queries(1):
            assert len(anon.get("/api/review").json()) == 5

    def test_empty(self, anon, db):
        response = anon.get("/api/review")
        assert response.status_code == 200
        assert response.json() == []


class TestCreate:
    @pytest.mark.parametrize(
        ("caller", "account"), [("as_user", "user"), ("as_admin", "admin_user")]
    )
    @pytest.mark.parametrize("path", ["/api/review", "/api/review/"])
    def test_signed_in_caller_adds_review(self, request, caller, account, path):
        client, author = request.getfixturevalue(caller), request.getfixturevalue(account)
        response = client.post(path, PAYLOAD, format="json")

        assert response.status_code == 201, response.content
        body = response.json()
        assert set(body) == REVIEW_FIELDS | {"insertedId"}
        assert body["insertedId"] == body["_id"]
        stored = Review.objects.get()
        assert stored.user == author
        assert parsed(body) == {**review_json(stored), "insertedId": stored.pk}
        assert (body["name"], body["review"], body["ratings"]) == ("Jane R.", PAYLOAD["review"], 4)
        assert_no_secrets(response)

        listed = APIClient().get("/api/review").json()
        assert [item["_id"] for item in listed] == [stored.pk]

    @pytest.mark.parametrize("name", ["", "   ", ...])
    def test_name_defaults_to_display_name(self, as_user, user, name):
        payload = {**PAYLOAD, "name": name}
        if name is ...:
            del payload["name"]
        response = as_user.post("/api/review", payload, format="json")
        assert response.status_code == 201, response.content
        assert user.name
        assert response.json()["name"] == user.name
        assert Review.objects.get().name == user.name

    def test_nameless_user_defaults_to_email_local_part(self, db):
        author = UserFactory(email="quiet@example.com", name="")
        client = bearer(APIClient(), str(RefreshToken.for_user(author).access_token))
        response = client.post("/api/review", {**PAYLOAD, "name": ""}, format="json")
        assert response.status_code == 201
        assert response.json()["name"] == "quiet"

    @pytest.mark.parametrize("ratings", [1, 5, "4", "1", " 3 "])
    def test_integer_ratings_accepted(self, as_user, ratings):
        response = as_user.post("/api/review", {**PAYLOAD, "ratings": ratings}, format="json")
        assert response.status_code == 201, response.content
        assert response.json()["ratings"] == int(str(ratings).strip())
        assert Review.objects.get().ratings == int(str(ratings).strip())

    @pytest.mark.parametrize(
        "ratings", [0, 6, -1, "abc", 4.5, "4.5", None, "", True, [4], {"v": 4}, ...]
    )
    def test_ratings_must_be_integer_1_to_5(self, as_user, ratings):
        payload = {**PAYLOAD, "ratings": ratings}
        if ratings is ...:
            del payload["ratings"]
        response = as_user.post("/api/review", payload, format="json")
        assert response.status_code == 400
        assert set(response.json()) == {"ratings"}
        assert response.json()["ratings"] == [RATINGS_INVALID]
        assert not Review.objects.exists()

    @pytest.mark.parametrize("review", ["", "   ", None, ...])
    def test_review_must_not_be_empty(self, as_user, review):
        payload = {**PAYLOAD, "review": review}
        if review is ...:
            del payload["review"]
        response = as_user.post("/api/review", payload, format="json")
        assert response.status_code == 400
        assert response.json() == {"review": [REVIEW_REQUIRED]}
        assert not Review.objects.exists()

    def test_anonymous_is_401(self, anon, db):
        response = anon.post("/api/review", PAYLOAD, format="json")
        assert response.status_code == 401
        assert set(response.json()) == {"detail"}
        assert not Review.objects.exists()

    def test_bad_bearer_token_is_401(self, db):
        client = bearer(APIClient(), "not.a.jwt")
        assert client.post("/api/review", PAYLOAD, format="json").status_code == 401
        assert not Review.objects.exists()

    @pytest.mark.parametrize("raw", ['{"review": ', "{'ratings': 4}", b"\xff\xfe{}"])
    def test_malformed_json_is_400(self, as_user, raw):
        as_user.raise_request_exception = False
        response = as_user.post("/api/review", data=raw, content_type="application/json")
        assert response.status_code == 400
        assert set(response.json()) == {"detail"}

    @pytest.mark.parametrize("method", ["put", "patch", "delete"])
    def test_other_methods_are_405(self, as_admin, method):
        review = ReviewFactory()
        response = getattr(as_admin, method)("/api/review", {"_id": review.pk}, format="json")
        assert response.status_code == 405
        assert Review.objects.filter(pk=review.pk).exists()


class TestSession:
    def test_logged_in_session_reads(self, client, user):
        client.force_login(user)
        assert client.get("/api/review").status_code == 200

    def test_post_without_csrf_token_is_403(self, user):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(user)
        response = client.post("/api/review", PAYLOAD, format="json")
        assert response.status_code == 403
        assert "CSRF" in response.json()["detail"]
        assert not Review.objects.exists()

    def test_post_with_csrf_token_is_201(self, user):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(user)
        secret = "b" * 32  # a well-formed CSRF secret, sent as cookie and header
        client.cookies[settings.CSRF_COOKIE_NAME] = secret
        response = client.post("/api/review", PAYLOAD, format="json", HTTP_X_CSRFTOKEN=secret)
        assert response.status_code == 201, response.content
        assert Review.objects.get().user == user


class TestPaging:
    """GET /api/review: `limit` (default 50, at most 500) and `offset`, newest first."""

    def test_fifty_newest_by_default(self, anon, db):
        reviews = ReviewFactory.create_batch(52)
        body = anon.get("/api/review").json()
        assert [r["_id"] for r in body] == [r.pk for r in reversed(reviews)][:50]

    def test_limit_and_offset(self, anon, db):
        reviews = list(reversed(ReviewFactory.create_batch(5)))
        body = anon.get("/api/review?limit=2&offset=1").json()
        assert [r["_id"] for r in body] == [reviews[1].pk, reviews[2].pk]

    @pytest.mark.parametrize(
        ("query", "field"),
        [
            ("limit=0", "limit"),
            ("limit=501", "limit"),
            ("limit=x", "limit"),
            ("offset=-1", "offset"),
        ],
    )
    def test_invalid_paging_is_a_400_on_that_parameter(self, anon, db, query, field):
        response = anon.get(f"/api/review?{query}")
        assert response.status_code == 400
        assert list(response.json()) == [field]
