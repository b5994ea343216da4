"""Part reviews in Django admin: listed and searchable by a shop admin (the "Shop admins"
group), hidden and shown again by the action (the part's rating follows), shown as plain
text."""

from decimal import Decimal

import pytest

from catalog.models import Part
from reviews.models import PartReview
from reviews.tests.factories import PartReviewFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/reviews/partreview/"


def test_listed_and_searchable(staff_client):
    PartReviewFactory(title="Squeaky pads")
    PartReviewFactory(title="Great chain")
    html = staff_client.get(CHANGELIST, {"q": "squeaky"}).content.decode()
    assert "Squeaky pads" in html and "Great chain" not in html


def test_hide_and_show_keep_the_rating(staff_client):
    low = PartReviewFactory(rating=1)
    PartReviewFactory(part=low.part, rating=5)
    response = staff_client.post(CHANGELIST, {"action": "hide", "_selected_action": [low.pk]})
    assert response.status_code == 302
    assert PartReview.objects.get(pk=low.pk).hidden
    part = Part.objects.get(pk=low.part_id)
    assert (part.rating_average, part.rating_count) == (Decimal("5.0"), 1)
    staff_client.post(CHANGELIST, {"action": "show", "_selected_action": [low.pk]})
    assert Part.objects.get(pk=low.part_id).rating_count == 2


def test_a_script_is_plain_text_in_the_admin(staff_client):
    review = PartReviewFactory(title="<script>alert(1)</script>")
    for path in (CHANGELIST, f"{CHANGELIST}{review.pk}/change/"):
        html = staff_client.get(path).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
