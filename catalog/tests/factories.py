import inspect
from decimal import Decimal

import factory

from catalog import services
from catalog.models import Part


class PartFactory(factory.django.DjangoModelFactory):
    """Parts made as the shop makes them: through part_create (its initial stock movement,
    the cached catalog made stale)."""

    class Meta:
        model = Part

    name = factory.Sequence(lambda n: f"Brake pad set {n}")
    img = "/static/img/parts/brake-pads.svg"
    description = "Sintered pads for the front caliper."
    price = Decimal("25.50")
    minimum_order_quantity = 2
    available_quantity = 50

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        if set(kwargs) <= set(inspect.signature(services.part_create).parameters):
            return services.part_create(*args, **kwargs)
        return super()._create(model_class, *args, **kwargs)  # an id or date set by hand
