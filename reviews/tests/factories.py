import factory

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from reviews import services
from reviews.models import PartReview, Review


class ReviewFactory(factory.django.DjangoModelFactory):
    """Reviews made as the shop makes them: through review_create (the cached reviews made
    stale)."""

    class Meta:
        model = Review

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        if set(kwargs) == {"user", "name", "review", "ratings"}:
            return services.review_create(**kwargs)
        return super()._create(model_class, *args, **kwargs)  # hidden, or a date set by hand

    user = factory.SubFactory(UserFactory)
    name = factory.SelfAttribute("user.name")
    review = "Fast delivery and the chain fitted perfectly."
    ratings = 5


class PartReviewFactory(factory.django.DjangoModelFactory):
    """Part reviews made as the shop makes them: through part_review_create (the part's
    rating kept, its pages made stale)."""

    class Meta:
        model = PartReview

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        made = {"user", "part", "rating", "title", "body", "vehicle", "fits"}
        if set(kwargs) <= made:
            return services.part_review_create(**kwargs)
        return super()._create(model_class, *args, **kwargs)  # hidden, or a date set by hand

    user = factory.SubFactory(UserFactory)
    part = factory.SubFactory(PartFactory)
    rating = 4
    title = "Good pads"
    body = "Bite well from cold."
    vehicle = None
    fits = None
