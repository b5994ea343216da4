"""Part reviews' writes: one per account and part, the part's rating kept on the part (hidden
reviews left out), and "Verified buyer" following the author's paid, unrefunded order."""

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from catalog.models import Part, Vehicle
from catalog.selectors import part_version
from catalog.tests.factories import PartFactory
from core.caching import versions
from core.errors import Conflict
from orders import services as order_services
from orders.tests.factories import BookingFactory
from reviews import selectors, services
from reviews.models import PartReview
from reviews.tests.factories import PartReviewFactory

pytestmark = pytest.mark.django_db


def rating(part) -> tuple:
    part = Part.objects.get(pk=part.pk)
    return part.rating_average, part.rating_count


def verified(review) -> bool:
    return selectors.part_review_get(pk=review.pk).verified_buyer


def test_a_review_keeps_the_parts_average_and_count():
    part = PartFactory()
    assert rating(part) == (None, 0)
    PartReviewFactory(part=part, rating=5)
    PartReviewFactory(part=part, rating=4)
    PartReviewFactory(part=part, rating=4)
    assert rating(part) == (Decimal("4.3"), 3)


def test_one_review_per_account_and_part():
    review = PartReviewFactory()
    with pytest.raises(Conflict):
        PartReviewFactory(user=review.user, part=review.part)
    assert PartReview.objects.count() == 1


def test_the_author_changes_their_review_and_the_rating_follows():
    review = PartReviewFactory(rating=2)
    vehicle = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    services.part_review_update(
        review=review, rating=5, title="Better", body="Bedded in.", vehicle=vehicle, fits=True
    )
    review.refresh_from_db()
    assert (review.rating, review.title, review.vehicle, review.fits) == (
        5,
        "Better",
        vehicle,
        True,
    )
    assert rating(review.part) == (Decimal("5.0"), 1)


def test_hidden_reviews_are_left_out_of_the_rating_and_back_when_shown():
    part = PartFactory()
    low = PartReviewFactory(part=part, rating=1)
    PartReviewFactory(part=part, rating=5)
    assert (
        services.part_review_set_hidden(reviews=PartReview.objects.filter(pk=low.pk), hidden=True)
        == 1
    )
    assert rating(part) == (Decimal("5.0"), 1)
    services.part_review_set_hidden(reviews=PartReview.objects.filter(pk=low.pk), hidden=False)
    assert rating(part) == (Decimal("3.0"), 2)


def test_deleting_reviews_refreshes_the_rating():
    review = PartReviewFactory(rating=3)
    services.part_review_delete(reviews=PartReview.objects.filter(pk=review.pk))
    assert rating(review.part) == (None, 0)


def test_a_review_makes_the_parts_page_stale():
    part = PartFactory()
    before = versions.current(part_version(part.pk))
    PartReviewFactory(part=part)
    assert versions.current(part_version(part.pk)) != before


def test_paying_makes_the_author_a_verified_buyer_and_a_refund_takes_it_back():
    user, part = UserFactory(), PartFactory()
    booking = BookingFactory(user=user, part=part)
    review = PartReviewFactory(user=user, part=part)
    assert not verified(review)
    page = versions.current(part_version(part.pk))

    assert order_services.booking_mark_paid(booking_id=booking.pk, transaction_id="pi_1")
    assert verified(review)
    assert versions.current(part_version(part.pk)) != page  # its page says so at once
    page = versions.current(part_version(part.pk))

    order_services.booking_refund(booking=booking, outside_stripe=True)
    assert not verified(review)
    assert versions.current(part_version(part.pk)) != page


def test_another_accounts_order_or_another_part_does_not_verify():
    part = PartFactory()
    review = PartReviewFactory(part=part)
    BookingFactory(part=part, paid_order=True)  # someone else's
    BookingFactory(user=review.user, paid_order=True)  # another part
    BookingFactory(user=review.user, part=part)  # unpaid
    assert not verified(review)


def test_a_paid_guest_order_joining_the_account_verifies_its_review():
    user, part = UserFactory(), PartFactory()
    review = PartReviewFactory(user=user, part=part)
    BookingFactory(guest=True, email=user.email, part=part, paid_order=True)
    page = versions.current(part_version(part.pk))
    order_services.booking_guest_join(user=user, email=user.email)
    assert verified(review)
    assert versions.current(part_version(part.pk)) != page
