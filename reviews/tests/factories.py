import factory

from accounts.tests.factories import UserFactory
from reviews.models import Review


class ReviewFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Review

    user = factory.SubFactory(UserFactory)
    name = factory.SelfAttribute("user.name")
    review = "Fast delivery and the chain fitted perfectly."
    ratings = 5
