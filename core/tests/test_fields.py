"""The serializer pieces the apps share: one message for a missing, null or blank field, and
the phone number rule."""

import pytest
from rest_framework import serializers

from core.fields import PhoneField, required
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
