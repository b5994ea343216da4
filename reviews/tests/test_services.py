"""review_create for callers without an account (seed data, imports): a name is needed."""

import pytest
from django.core.exceptions import ValidationError

from reviews.models import Review
from reviews.services import NAME_REQUIRED, review_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["", None, "   "])
def test_a_review_without_an_account_or_a_name_is_refused_on_name(name):
    with pytest.raises(ValidationError) as refusal:
        review_create(user=None, name=name, review="Great shop.", ratings=5)
    assert refusal.value.message_dict == {"name": [NAME_REQUIRED]}
    assert not Review.objects.exists()


def test_a_review_without_an_account_keeps_the_name_given():
    review = review_create(user=None, name="Sam K.", review="Great shop.", ratings=5)
    assert (review.user, review.name) == (None, "Sam K.")
