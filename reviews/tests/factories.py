import factory

from accounts.tests.factories import UserFactory
from reviews import services
from reviews.models import Review


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
