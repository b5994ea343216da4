"""Part shapes: the API's input rules are also import_parts' rules."""

from decimal import Decimal

from rest_framework import serializers

from accounts.serializers import required

from .models import Part
from .stock import CHANGE_ZERO
from .validators import validate_image_url

NAME_REQUIRED = "Name is required"
PRICE_REQUIRED = "Price is required"
PRICE_POSITIVE = "Price must be greater than 0"
MIN_ORDER_REQUIRED = "Minimum order quantity is required"
MIN_ORDER_TOO_LOW = "Minimum order quantity must be at least 1"
STOCK_REQUIRED = "Available quantity is required"
STOCK_NEGATIVE = "Available quantity can't be negative"


class CategoryOutputSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class PartOutputSerializer(serializers.ModelSerializer):
    _id = serializers.IntegerField(source="pk", read_only=True)
    minimumOrderQuantity = serializers.IntegerField(source="minimum_order_quantity")
    availableQuantity = serializers.IntegerField(source="available_quantity")
    price = serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False)
    category = CategoryOutputSerializer(allow_null=True)

    class Meta:
        model = Part
        fields = [
            "_id",
            "name",
            "img",
            "description",
            "price",
            "minimumOrderQuantity",
            "availableQuantity",
            "category",
        ]


class PartInputSerializer(serializers.Serializer):
    """Validates a new part (or, with partial=True, changed fields of one)."""

    name = serializers.CharField(max_length=200, error_messages=required(NAME_REQUIRED))
    img = serializers.CharField(
        max_length=500, required=False, allow_blank=True, validators=[validate_image_url]
    )
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    price = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0.01"),
        error_messages={**required(PRICE_REQUIRED), "min_value": PRICE_POSITIVE},
    )
    minimumOrderQuantity = serializers.IntegerField(
        source="minimum_order_quantity",
        min_value=1,
        max_value=1_000_000,
        error_messages={**required(MIN_ORDER_REQUIRED), "min_value": MIN_ORDER_TOO_LOW},
    )
    availableQuantity = serializers.IntegerField(
        source="available_quantity",
        min_value=0,
        max_value=1_000_000_000,
        error_messages={**required(STOCK_REQUIRED), "min_value": STOCK_NEGATIVE},
    )


class DeletedCountSerializer(serializers.Serializer):
    deletedCount = serializers.IntegerField()


class StockChangeInputSerializer(serializers.Serializer):
    """POST /api/allparts/{id}/stock: units received (+) or written off (−), and why."""

    change = serializers.IntegerField(min_value=-1_000_000_000, max_value=1_000_000_000)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")

    def validate_change(self, value):
        if value == 0:
            raise serializers.ValidationError(CHANGE_ZERO)
        return value
