"""A part's review form page (/parts/{id}/review): the shipped mail's link fills in the bike,
posting without JavaScript writes (or changes) one's review and goes back to the part page
with a message, bad input is the form again with each field's message, and the throttle."""

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.test import Client

from catalog.models import Vehicle
from catalog.tests.factories import PartFactory
from reviews.models import PartReview
from reviews.part_views import REVIEW_ADDED, REVIEW_UPDATED
from reviews.serializers import RATING_INVALID, TITLE_REQUIRED
from reviews.tests.factories import PartReviewFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rider(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def mt07():
    return Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)


FORM = {"rating": "5", "title": "Great", "body": "Fitted in ten minutes.", "fits": "true"}


def test_signing_in_is_needed():
    part = PartFactory()
    response = Client().get(f"/parts/{part.pk}/review")
    assert response.status_code == 302 and response["Location"].startswith("/login?next=")


def test_the_mail_links_vehicle_is_filled_in(rider, mt07):
    part = PartFactory()
    html = rider.get(f"/parts/{part.pk}/review?vehicle={mt07.pk}").content.decode()
    assert "Write a review" in html
    assert f'<option value="{mt07.pk}" selected>2019 Yamaha MT-07</option>' in html


def test_an_unknown_vehicle_in_the_link_is_ignored(rider):
    part = PartFactory()
    assert rider.get(f"/parts/{part.pk}/review?vehicle=abc").status_code == 200


def test_posting_writes_the_review_and_goes_back_to_the_part(rider, user, mt07):
    part = PartFactory()
    response = rider.post(f"/parts/{part.pk}/review", {**FORM, "vehicle": str(mt07.pk)})
    assert (response.status_code, response["Location"]) == (302, f"/parts/{part.pk}#reviews")
    review = PartReview.objects.get()
    assert (review.user, review.vehicle, review.fits, review.rating) == (user, mt07, True, 5)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [REVIEW_ADDED]


def test_posting_again_changes_ones_own_review(rider, user):
    part = PartFactory()
    PartReviewFactory(user=user, part=part, title="Before")
    response = rider.post(f"/parts/{part.pk}/review", {**FORM, "fits": ""})
    assert response.status_code == 302
    review = PartReview.objects.get()
    assert (review.title, review.fits) == ("Great", None)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [REVIEW_UPDATED]


def test_bad_input_shows_each_fields_message(rider):
    part = PartFactory()
    response = rider.post(f"/parts/{part.pk}/review", {"rating": "9", "title": "", "body": "x"})
    assert response.status_code == 400
    html = response.content.decode()
    assert RATING_INVALID in html and TITLE_REQUIRED in html
    assert not PartReview.objects.exists()


def test_nobody_changes_another_riders_review(rider, other_user):
    theirs = PartReviewFactory(user=other_user, title="Theirs")
    rider.post(f"/parts/{theirs.part_id}/review", FORM)
    theirs.refresh_from_db()
    assert theirs.title == "Theirs"  # the rider wrote their own instead
    assert PartReview.objects.count() == 2


def test_posts_are_throttled(rider):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["part_reviews"]
    for _ in range(int(rate.split("/")[0])):
        part = PartFactory()
        assert rider.post(f"/parts/{part.pk}/review", FORM).status_code == 302
    part = PartFactory()
    response = rider.post(f"/parts/{part.pk}/review", FORM)
    assert response.status_code == 429
    assert "Retry-After" in response


def test_posts_sent_back_with_a_mistake_do_not_count(rider):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["part_reviews"]
    part = PartFactory()
    for _ in range(int(rate.split("/")[0])):
        assert rider.post(f"/parts/{part.pk}/review", {**FORM, "rating": "9"}).status_code == 400
    assert rider.post(f"/parts/{part.pk}/review", FORM).status_code == 302


def test_both_forms_carry_the_csrf_token(user):
    part = PartFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    for path in (f"/parts/{part.pk}/review", f"/parts/{part.pk}"):
        html = client.get(path).content.decode()
        token = html.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
        assert token, path
    response = client.post(f"/parts/{part.pk}/review", {**FORM, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
