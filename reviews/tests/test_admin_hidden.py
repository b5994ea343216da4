"""Staff hide an abusive review in Django admin: it leaves the home page and GET /api/review."""

import pytest
from django.test import Client

from accounts.services import user_make_admin
from accounts.tests.factories import UserFactory
from reviews.models import Review
from reviews.services import review_set_hidden
from reviews.tests.factories import ReviewFactory

CHANGELIST = "/admin/reviews/review/"
ABUSE = "This shop is run by crooks, call 555-0100 instead"
FAIR = "Brake pads arrived quickly and fit well."

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviews():
    return ReviewFactory(review=ABUSE), ReviewFactory(review=FAIR)


def api_texts(client) -> list[str]:
    return [review["review"] for review in client.get("/api/review").json()]


def act(client, action: str, review: Review):
    return client.post(CHANGELIST, {"action": action, "_selected_action": [review.pk]})


def test_hide_and_show_from_the_admin_list(staff_client, reviews):
    abusive, _ = reviews
    assert act(staff_client, "hide", abusive).status_code == 302
    abusive.refresh_from_db()
    assert abusive.hidden
    assert api_texts(Client()) == [FAIR]
    act(staff_client, "show", abusive)
    abusive.refresh_from_db()
    assert not abusive.hidden
    assert ABUSE in api_texts(Client())


def test_a_hidden_review_leaves_the_cached_home_page(staff_client, reviews):
    abusive, _ = reviews
    visitor = Client()
    assert ABUSE in visitor.get("/").content.decode()  # the page is cached for visitors now
    act(staff_client, "hide", abusive)
    home = visitor.get("/").content.decode()
    assert ABUSE not in home
    assert FAIR in home


def test_a_shop_admin_may_hide_reviews(client, reviews):
    abusive, _ = reviews
    shop_admin = UserFactory()
    user_make_admin(user=shop_admin)
    client.force_login(shop_admin)
    act(client, "hide", abusive)
    abusive.refresh_from_db()
    assert abusive.hidden


def test_hidden_filter(staff_client, reviews):
    review_set_hidden(reviews=Review.objects.filter(pk=reviews[0].pk), hidden=True)
    response = staff_client.get(CHANGELIST + "?hidden__exact=1")
    assert list(response.context["cl"].result_list) == [reviews[0]]


def test_the_service_counts_only_changes(reviews):
    everything = Review.objects.all()
    assert review_set_hidden(reviews=everything, hidden=True) == 2
    assert review_set_hidden(reviews=everything, hidden=True) == 0
