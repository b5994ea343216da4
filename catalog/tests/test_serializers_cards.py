"""Cards and part JSON kept in this process by what they show (templates/catalog/_part_cards.html,
catalog.serializers.parts_json_body): a change of any field a card or the JSON shows gives a new
key, so a kept copy is never served stale; the same values give the same copy."""

from contextlib import contextmanager
from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.test.signals import template_rendered
from rest_framework.renderers import JSONRenderer

from catalog.models import Category, Part
from catalog.serializers import PartOutputSerializer, parts_json_body
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

# A new value for each field of a part; the fields a card or the JSON cannot show are named
# below, so a new field of Part must be placed in one list or the other.
NEW_VALUES = {
    "name": "O-ring chain",
    "img": "/static/img/parts/chain-sprocket-kit.svg",
    "description": "Another description.",
    "price": Decimal("99.90"),
    "minimum_order_quantity": 7,
    "available_quantity": 3,
    "weight": 1234,
    "rating_average": Decimal("4.5"),
    "rating_count": 12,
}
NOT_SHOWN = {  # category: its own test
    "id",
    "created_at",
    "search_vector",
    "category",
    "part_number",
    "part_number_normalised",
    "universal",
    "brand",  # the part page's, not a card's
}


def test_every_field_of_a_part_is_either_shown_or_named_as_not_shown():
    fields = {field.name for field in Part._meta.concrete_fields}
    assert fields == set(NEW_VALUES) | NOT_SHOWN


def cards(parts, heading="h2") -> str:
    return render_to_string("catalog/_part_cards.html", {"parts": parts, "heading": heading})


def fresh_card(part, heading="h2") -> str:
    return render_to_string("catalog/_part_card.html", {"part": part, "heading": heading})


@pytest.mark.parametrize("field", NEW_VALUES)
def test_a_kept_card_follows_every_field_it_shows(field):
    part = PartFactory(available_quantity=50, minimum_order_quantity=2)
    assert fresh_card(part) in cards([part])  # kept now
    setattr(part, field, NEW_VALUES[field])
    assert fresh_card(part) in cards([part])


def test_a_card_is_kept_per_heading():
    part = PartFactory()
    assert fresh_card(part, "h2") in cards([part], "h2")
    assert fresh_card(part, "h3") in cards([part], "h3")


@contextmanager
def cards_rendered():
    """The card templates rendered meanwhile (Django's test renderer reports each one)."""
    seen = []

    def record(sender, template, **kwargs):
        seen.append(template.name)

    template_rendered.connect(record)
    try:
        yield seen
    finally:
        template_rendered.disconnect(record)


def test_the_same_values_give_the_kept_card_and_a_new_one_a_fresh_card():
    chain, pads = PartFactory(name="Chain"), PartFactory(name="Pads")
    first = cards([chain, pads])
    with cards_rendered() as seen:
        again = cards([Part.objects.get(pk=chain.pk), Part.objects.get(pk=pads.pk)])
    assert again == first and "catalog/_part_card.html" not in seen
    chain.available_quantity -= 1
    with cards_rendered() as seen:
        cards([chain, pads])
    assert seen.count("catalog/_part_card.html") == 1


def json_body(parts) -> bytes:
    return JSONRenderer().render(PartOutputSerializer(parts, many=True).data)


@pytest.mark.parametrize("field", NEW_VALUES)
def test_kept_json_follows_every_field_it_shows(field):
    part = PartFactory()
    assert parts_json_body([part]) == json_body([part])  # kept now
    setattr(part, field, NEW_VALUES[field])
    assert parts_json_body([part]) == json_body([part])


def test_kept_json_follows_its_category():
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    part = PartFactory(category=brakes)
    assert parts_json_body([part]) == json_body([part])
    brakes.name = "Brakes and discs"
    assert parts_json_body([part]) == json_body([part])
    part.category = None
    assert parts_json_body([part]) == json_body([part])
