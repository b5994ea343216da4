"""The admin API's shapes of shipping methods, tax rates and vouchers (API.md, "Addresses,
shipping and tax" and "Vouchers"). The rules that span fields or rows are the services'."""

from decimal import Decimal

from django_countries import countries
from rest_framework import serializers

from core.fields import required

from .models import CODE_RULE, Voucher, validate_code

NAME_REQUIRED = "Name is required"
COUNTRY_UNKNOWN = "Give a country as its ISO 3166-1 code, such as US or DE"
COUNTRIES_LIST = 'Give a list of ISO 3166-1 country codes, such as ["US", "CA"] ([]: everywhere)'
# (No braces: DRF fills a message's {placeholders}.)
BANDS_LIST = "Give a list of weight bands, each with upToGrams and price ([]: free at any weight)"
GRAMS_RULE = "Up to (g) must be a whole number of grams, at least 1"
MONEY_RULE = "Give an amount of dollars, 0 or more, with at most 2 decimals"
RATE_RULE = "A rate is a percentage from 0 to 100, with at most 3 decimals"
KIND_RULE = "Kind is percent, fixed or shipping"
USES_RULE = "Total uses must be a whole number, at least 1 (or null: no limit)"
DATE_RULE = "Give a date and time in ISO 8601, such as 2026-12-01T00:00:00Z (or null)"
MAX_MONEY = Decimal("99999999.99")

# The services' field names, as the payloads name them.
PAYLOAD_NAMES = {
    "is_default": "isDefault",
    "free_over": "freeOver",
    "min_subtotal": "minSubtotal",
    "starts_at": "startsAt",
    "ends_at": "endsAt",
    "usage_limit": "usageLimit",
    "once_per_customer": "oncePerCustomer",
    "__all__": "non_field_errors",
}


def money(**kwargs) -> serializers.DecimalField:
    """Dollars, 0 or more, in cents."""
    return serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0"),
        max_value=MAX_MONEY,
        coerce_to_string=False,
        error_messages=dict.fromkeys(
            (
                "invalid",
                "min_value",
                "max_value",
                "max_digits",
                "max_decimal_places",
                "max_whole_digits",
                "max_string_length",
            ),
            MONEY_RULE,
        ),
        **kwargs,
    )


class CountryCodeField(serializers.CharField):
    """An ISO 3166-1 alpha-2 code, any case in, upper case out."""

    def __init__(self, **kwargs):
        kwargs.setdefault("error_messages", required(COUNTRY_UNKNOWN))
        super().__init__(max_length=2, min_length=2, **kwargs)
        self.error_messages.update(max_length=COUNTRY_UNKNOWN, min_length=COUNTRY_UNKNOWN)

    def to_internal_value(self, data):
        code = super().to_internal_value(data).upper()
        if code not in countries:
            raise serializers.ValidationError(COUNTRY_UNKNOWN)
        return code

    def to_representation(self, value):
        return getattr(value, "code", value) or ""


class BandSerializer(serializers.Serializer):
    upToGrams = serializers.IntegerField(
        source="up_to_grams",
        min_value=1,
        max_value=10_000_000,
        error_messages=dict.fromkeys(
            ("required", "null", "invalid", "min_value", "max_value", "max_string_length"),
            GRAMS_RULE,
        ),
    )
    price = money()


def _flat(field: str, detail) -> list[str]:
    """A list field's errors, which DRF keys by item ({"1": {"price": [...]}}), as the API's
    plain messages: "Band 2: Give an amount of dollars, …"."""
    if not isinstance(detail, dict):
        return [str(message) for message in detail]
    item = ITEM_NAMES.get(field, "Item")
    return [
        f"{item} {int(index) + 1}: {message}"
        for index, errors in detail.items()
        for message in (
            [m for ms in errors.values() for m in ms] if isinstance(errors, dict) else errors
        )
    ]


ITEM_NAMES = {"bands": "Band", "countries": "Country"}


class ShippingMethodInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, error_messages=required(NAME_REQUIRED))
    countries = serializers.ListField(
        child=CountryCodeField(),
        required=False,
        default=list,
        max_length=300,
        error_messages={"not_a_list": COUNTRIES_LIST, "null": COUNTRIES_LIST},
    )
    bands = serializers.ListField(
        child=BandSerializer(),
        required=False,
        default=list,
        max_length=100,
        error_messages={"not_a_list": BANDS_LIST, "null": BANDS_LIST},
    )
    freeOver = money(source="free_over", required=False, allow_null=True, default=None)
    eta = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    active = serializers.BooleanField(required=False, default=True)
    isDefault = serializers.BooleanField(source="is_default", required=False, default=False)

    def validate_bands(self, bands):
        return [(band["up_to_grams"], band["price"]) for band in bands]

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as refusal:
            if isinstance(refusal.detail, dict):
                refusal.detail = {
                    field: _flat(field, detail) for field, detail in refusal.detail.items()
                }
            raise


class ShippingMethodOutputSerializer(serializers.Serializer):
    _id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    countries = serializers.SerializerMethodField()
    bands = BandSerializer(many=True, source="bands.all")
    freeOver = money(source="free_over", allow_null=True)
    eta = serializers.CharField()
    active = serializers.BooleanField()
    isDefault = serializers.BooleanField(source="is_default")

    def get_countries(self, method) -> list[str]:
        return [country.code for country in method.countries]


class TaxRateInputSerializer(serializers.Serializer):
    country = CountryCodeField()
    region = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    name = serializers.CharField(max_length=100, error_messages=required(NAME_REQUIRED))
    rate = serializers.DecimalField(
        max_digits=6,
        decimal_places=3,
        min_value=Decimal("0"),
        max_value=Decimal("100"),
        coerce_to_string=False,
        error_messages={
            **required(RATE_RULE),
            **dict.fromkeys(
                (
                    "invalid",
                    "min_value",
                    "max_value",
                    "max_digits",
                    "max_decimal_places",
                    "max_whole_digits",
                    "max_string_length",
                ),
                RATE_RULE,
            ),
        },
    )


class TaxRateOutputSerializer(serializers.Serializer):
    _id = serializers.IntegerField(source="pk")
    country = CountryCodeField()
    region = serializers.CharField()
    name = serializers.CharField()
    rate = serializers.DecimalField(max_digits=6, decimal_places=3, coerce_to_string=False)


class VoucherInputSerializer(serializers.Serializer):
    code = serializers.CharField(validators=[validate_code], error_messages=required(CODE_RULE))
    kind = serializers.ChoiceField(
        choices=Voucher.Kind.choices,
        error_messages={**required(KIND_RULE), "invalid_choice": KIND_RULE},
    )
    value = money(required=False, default=Decimal("0"))
    minSubtotal = money(source="min_subtotal", required=False, default=Decimal("0"))
    startsAt = serializers.DateTimeField(
        source="starts_at",
        required=False,
        allow_null=True,
        default=None,
        error_messages=dict.fromkeys(("invalid", "date", "overflow", "make_aware"), DATE_RULE),
    )
    endsAt = serializers.DateTimeField(
        source="ends_at",
        required=False,
        allow_null=True,
        default=None,
        error_messages=dict.fromkeys(("invalid", "date", "overflow", "make_aware"), DATE_RULE),
    )
    usageLimit = serializers.IntegerField(
        source="usage_limit",
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=2_000_000_000,
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value", "max_string_length"), USES_RULE
        ),
    )
    oncePerCustomer = serializers.BooleanField(
        source="once_per_customer", required=False, default=False
    )
    active = serializers.BooleanField(required=False, default=True)


class VoucherOutputSerializer(serializers.Serializer):
    _id = serializers.IntegerField(source="pk")
    code = serializers.CharField()
    kind = serializers.CharField()
    value = money()
    minSubtotal = money(source="min_subtotal")
    startsAt = serializers.DateTimeField(source="starts_at", allow_null=True)
    endsAt = serializers.DateTimeField(source="ends_at", allow_null=True)
    usageLimit = serializers.IntegerField(source="usage_limit", allow_null=True)
    oncePerCustomer = serializers.BooleanField(source="once_per_customer")
    active = serializers.BooleanField()
    uses = serializers.IntegerField(source="use_count")


class QuoteShippingSerializer(serializers.Serializer):
    method = serializers.CharField()
    price = money()
    eta = serializers.CharField()


class QuoteOutputSerializer(serializers.Serializer):
    """What an order costs (pricing.quotes.Quote), in the API's names: the breakdown a cart, a
    checkout and an order show."""

    subtotal = money()
    discount = money()
    voucher = serializers.CharField(allow_null=True)
    shipping = QuoteShippingSerializer()
    tax = money()
    taxIncluded = serializers.BooleanField(source="tax_included")
    total = money()


class ShippingChoiceSerializer(serializers.Serializer):
    """`<shippingMethod>` of API.md: a method that delivers an order, priced for it, with the
    order's whole breakdown by it (`quote`: what the checkout shows and places it at)
    (pricing.quotes.Choice)."""

    _id = serializers.IntegerField(source="method.pk")
    name = serializers.CharField(source="method.name")
    price = money(source="quote.shipping.price")
    eta = serializers.CharField(source="method.eta")
    freeOver = money(source="method.free_over", allow_null=True)
    isDefault = serializers.BooleanField(source="method.is_default")
    quote = QuoteOutputSerializer()
