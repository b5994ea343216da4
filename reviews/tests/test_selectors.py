"""Reads of part reviews: the part page's one query (the author's own first, hidden or not),
verified buyers' fit answers per vehicle, and the rating rounded to one decimal."""

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from catalog.models import Vehicle
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from reviews import selectors
from reviews.tests.factories import PartReviewFactory

pytestmark = pytest.mark.django_db


def test_the_page_reads_the_authors_own_review_first_even_hidden(django_assert_num_queries):
    part = PartFactory()
    author = UserFactory()
    own = PartReviewFactory(user=author, part=part, hidden=True)
    others = [PartReviewFactory(part=part) for _ in range(selectors.PART_REVIEWS_SHOWN + 2)]
    with django_assert_num_queries(1):
        rows = selectors.part_page_reviews(part_id=part.pk, user=author)
    assert rows[0] == own and rows[0].mine
    assert rows[1] == others[-1]  # then the newest
    visitors = selectors.part_page_reviews(part_id=part.pk)
    assert own not in visitors and not any(r.mine for r in visitors)


def test_fit_counts_only_verified_buyers_answers_per_vehicle():
    part = PartFactory()
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    buyers = UserFactory.create_batch(3)
    for buyer in buyers:
        BookingFactory(user=buyer, part=part, paid_order=True)
    PartReviewFactory(user=buyers[0], part=part, vehicle=mt07, fits=True)
    PartReviewFactory(user=buyers[1], part=part, vehicle=mt07, fits=False)
    PartReviewFactory(user=buyers[2], part=part, vehicle=mt07, fits=None)  # not said
    PartReviewFactory(part=part, vehicle=mt07, fits=True)  # not a buyer
    [row] = selectors.part_fit_counts(part_id=part.pk)
    assert (row["vehicle"].name, row["fits"], row["doesNotFit"]) == ("2019 Yamaha MT-07", 1, 1)


def test_a_refunded_order_does_not_count():
    part = PartFactory()
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    buyer = UserFactory()
    BookingFactory(user=buyer, part=part, paid_order=True, refunded_at="2026-01-01T00:00Z")
    review = PartReviewFactory(user=buyer, part=part, vehicle=mt07, fits=True)
    assert selectors.part_fit_counts(part_id=part.pk) == []
    assert not selectors.part_review_get(pk=review.pk).verified_buyer


def test_the_rating_is_rounded_half_up_to_one_decimal():
    part = PartFactory()
    for rating in (5, 5, 4, 4):  # 4.5
        PartReviewFactory(part=part, rating=rating)
    PartReviewFactory(part=part, rating=4, hidden=True)  # left out
    assert selectors.part_rating_of(part_id=part.pk) == (Decimal("4.5"), 4)
    other = PartFactory()
    for rating in (5, 5, 4):  # 4.666…
        PartReviewFactory(part=other, rating=rating)
    assert selectors.part_rating_of(part_id=other.pk) == (Decimal("4.7"), 3)
