from decimal import Decimal

import factory

from catalog.models import Part


class PartFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Part

    name = factory.Sequence(lambda n: f"Brake pad set {n}")
    img = "/static/img/parts/brake-pads.svg"
    description = "Sintered pads for the front caliper."
    price = Decimal("25.50")
    minimum_order_quantity = 2
    available_quantity = 50
