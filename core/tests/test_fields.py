"""The serializer pieces the apps share: one message for a missing, null or blank field, the
phone number rule, and a list whose bad items are messages on the list itself."""

import pytest
from rest_framework import serializers

from core.fields import FlatListField, PhoneField, required
from core.phones import PHONE_INVALID, PHONE_REQUIRED


class Shape(serializers.Serializer):
    address = serializers.CharField(error_messages=required("Address is required"))
    phone = PhoneField()


@pytest.mark.parametrize("address", [None, "", "missing"])
def test_required_says_one_message_for_missing_null_and_blank(address):
    data = (
        {"phone": "5550100"} if address == "missing" else {"address": address, "phone": "5550100"}
    )
    shape = Shape(data=data)

    assert not shape.is_valid()
    assert shape.errors == {"address": ["Address is required"]}


@pytest.mark.parametrize(
    ("typed", "kept"), [("+44 (113) 496-0000", "+441134960000"), ("555.0100", "5550100")]
)
def test_a_phone_number_is_kept_without_its_separators(typed, kept):
    shape = Shape(data={"address": "1 Main St", "phone": typed})

    assert shape.is_valid(), shape.errors
    assert shape.validated_data["phone"] == kept


@pytest.mark.parametrize(
    ("phone", "message"),
    [
        ("", PHONE_REQUIRED),
        (None, PHONE_REQUIRED),
        ("call me", PHONE_INVALID),
        ("++4411", PHONE_INVALID),
    ],
)
def test_a_phone_number_is_required_and_digits(phone, message):
    shape = Shape(data={"address": "1 Main St", "phone": phone})

    assert not shape.is_valid()
    assert shape.errors == {"phone": [message]}


class Words(serializers.Serializer):
    words = FlatListField(
        child=serializers.CharField(max_length=3, error_messages={"max_length": "Too long"}),
        max_length=2,
        error_messages={"max_length": "Too many"},
    )


@pytest.mark.parametrize(
    ("words", "messages"),
    [
        (["long"], ["Too long"]),
        (["ok", "long"], ["Too long"]),
        (["long", "longer"], ["Too long"]),  # the same words once
        (["a\x00", "long"], ["Null characters are not allowed.", "Too long"]),
        (["a", "b", "c"], ["Too many"]),  # the list's own message, as DRF gives it
    ],
)
def test_bad_items_are_the_fields_own_messages_each_once(words, messages):
    found = Words(data={"words": words})
    assert not found.is_valid()
    assert found.errors == {"words": messages}


def test_good_items_pass_as_the_list_field_passes_them():
    found = Words(data={"words": ["ab", "c"]})
    assert found.is_valid(), found.errors
    assert found.validated_data == {"words": ["ab", "c"]}
