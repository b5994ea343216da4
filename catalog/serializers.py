"""Part shapes: the API's input rules are also import_parts' rules."""

import hashlib
from decimal import Decimal

from django.core.cache import caches
from django.db.models import Prefetch, prefetch_related_objects
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from core.api import MAX_ID, PageInputSerializer
from core.caching.versions import LOCAL
from core.fields import FlatListField, SlugLookupField, required

from . import images
from .fitment_serializers import VehicleSerializer
from .models import Category, Part, PartNumber
from .search import SORTS, PartQuery
from .selectors import numbers_from_column, vehicle_exists
from .stock import CHANGE_ZERO
from .validators import validate_image_url

NAME_REQUIRED = "Name is required"
PRICE_REQUIRED = "Price is required"
PRICE_POSITIVE = "Price must be greater than 0"
MIN_ORDER_REQUIRED = "Minimum order quantity is required"
MIN_ORDER_TOO_LOW = "Minimum order quantity must be at least 1"
STOCK_REQUIRED = "Available quantity is required"
STOCK_NEGATIVE = "Available quantity can't be negative"
PRICE_INVALID = "Price must be a number of dollars, such as 25 or 25.50"
PRICE_CENTS = "Price can have at most 2 decimals (cents)"
PRICE_TOO_HIGH = "Price must be less than $100,000,000"
MIN_ORDER_WHOLE = "Minimum order quantity must be a whole number"
MIN_ORDER_TOO_HIGH = "Minimum order quantity can be at most 1,000,000"
STOCK_WHOLE = "Available quantity must be a whole number"
STOCK_TOO_HIGH = "Available quantity can be at most 1,000,000,000"
CATEGORY_UNKNOWN = "Choose one of the shop's categories"
PART_NUMBER_TOO_LONG = "Part number can be at most 100 characters"
BRAND_TOO_LONG = "Brand can be at most 60 characters"
NUMBERS_NOT_A_LIST = 'Send a list of numbers, each {"number", "kind", "brand"}'
NUMBERS_TOO_MANY = "A part can have at most 100 other numbers"
NUMBER_REQUIRED = "Number is required"
NUMBER_TOO_LONG = "Number can be at most 100 characters"
NUMBER_TWICE = "{number} is listed twice"
KIND_UNKNOWN = "Kind must be one of: oem, superseded, aftermarket"
MAX_OTHER_NUMBERS = 100
WEIGHT_WHOLE = "Weight must be a whole number of grams"
WEIGHT_NEGATIVE = "Weight can't be negative"
WEIGHT_TOO_HIGH = "Weight can be at most 1,000,000 g (1 tonne)"


class CategoryOutputSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class PartNumberSerializer(serializers.ModelSerializer):
    class Meta:
        model = PartNumber
        fields = ["number", "kind", "brand"]


class PartOutputSerializer(serializers.ModelSerializer):
    _id = serializers.IntegerField(source="pk", read_only=True)
    minimumOrderQuantity = serializers.IntegerField(source="minimum_order_quantity")
    availableQuantity = serializers.IntegerField(source="available_quantity")
    price = serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False)
    category = CategoryOutputSerializer(allow_null=True)
    url = serializers.CharField(source="get_absolute_url", read_only=True)
    partNumber = serializers.CharField(source="part_number")
    otherNumbers = PartNumberSerializer(source="numbers_shown", many=True, read_only=True)
    rating = serializers.SerializerMethodField()

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
            "url",
            "partNumber",
            "brand",
            "otherNumbers",
            "universal",
            "weight",
            "rating",
        ]

    def get_rating(self, part) -> dict:
        """{"average": 4.6 or null, "count": 23}: the riders' rating kept on the part."""
        return part_rating(part)


def part_rating(part) -> dict:
    average = part.rating_average
    return {"average": None if average is None else float(average), "count": part.rating_count}


FITS = b',"fits":true}'  # what a part's JSON ends with in a list for one bike (?fits=)


def parts_json_body(parts, *, fits: bool = False) -> bytes:
    """The body JSONRenderer writes for PartOutputSerializer(parts, many=True).data: each part's
    JSON kept in this process ("local") under what it shows (the part's fields and its
    category's: no write can make it stale), so a list is joined, not written again (the
    renderer writes a list as its items joined by commas, with no spaces). `fits`: each part
    also says "fits": true (a list for one bike holds only parts that fit it)."""
    local = caches[LOCAL]
    parts = list(parts)
    with_other_numbers(parts)
    keys = [_json_key(part) for part in parts]
    kept = local.get_many(keys)
    made = {
        key: JSONRenderer().render(PartOutputSerializer(part).data)
        for key, part in zip(keys, parts, strict=True)
        if key not in kept
    }
    local.set_many(made, PART_JSON_SECONDS)
    items = (kept.get(key) or made[key] for key in keys)
    if fits:
        items = (item[:-1] + FITS for item in items)
    return b"[" + b",".join(items) + b"]"


PART_JSON_SECONDS = 300


def with_other_numbers(parts: list[Part]) -> list[Part]:
    """The other numbers of a list of parts: read with the parts (selectors'
    with_numbers_column), else in one query (none for an empty list)."""
    numbers_from_column(parts)
    missing = [p for p in parts if getattr(p, "numbers_read", None) is None]
    if missing:
        prefetch_related_objects(missing, Prefetch("other_numbers", to_attr="numbers_read"))
    return parts


def numbers_clean(data) -> list[dict]:
    """PUT /api/allparts/{id}/numbers' body (and the Edit part form's, import_numbers' rows):
    a list of {"number", "kind", "brand"}, no number twice (whatever its case, spaces and
    dashes). A ValidationError names the field that is wrong."""
    if not isinstance(data, list):
        raise serializers.ValidationError({"numbers": [NUMBERS_NOT_A_LIST]})
    if len(data) > MAX_OTHER_NUMBERS:
        raise serializers.ValidationError({"numbers": [NUMBERS_TOO_MANY]})
    cleaned, seen = [], set()
    for item in data:
        if not isinstance(item, dict):
            raise serializers.ValidationError({"numbers": [NUMBERS_NOT_A_LIST]})
        one = PartNumberInputSerializer(data=item)
        one.is_valid(raise_exception=True)
        number = one.validated_data
        key = normalise_number(number["number"])
        if key in seen:
            raise serializers.ValidationError(
                {"number": [NUMBER_TWICE.format(number=number["number"])]}
            )
        seen.add(key)
        cleaned.append(number)
    return cleaned


def normalise_number(number: str) -> str:
    """As the database normalises part numbers: no case, spaces or dashes."""
    return number.lower().replace(" ", "").replace("-", "")


class PartNumberInputSerializer(serializers.Serializer):
    """One of a part's other numbers."""

    number = serializers.CharField(
        max_length=100,
        error_messages={**required(NUMBER_REQUIRED), "max_length": NUMBER_TOO_LONG},
    )
    kind = serializers.ChoiceField(
        choices=PartNumber.Kind.choices,
        error_messages=dict.fromkeys(("required", "null", "invalid_choice"), KIND_UNKNOWN),
    )
    brand = serializers.CharField(
        max_length=60,
        required=False,
        allow_blank=True,
        default="",
        error_messages={"max_length": BRAND_TOO_LONG},
    )

    def validate_number(self, value):
        if not normalise_number(value):
            raise serializers.ValidationError(NUMBER_REQUIRED)
        return value


def _json_key(part) -> str:
    """PartOutputSerializer's fields of `part`, as a key."""
    category = part.category
    shown = (
        part.pk,
        part.name,
        part.img,
        part.description,
        str(part.price),
        part.minimum_order_quantity,
        part.available_quantity,
        None if category is None else (category.slug, category.name),
        part.part_number,
        part.brand,
        tuple((n.number, n.kind, n.brand) for n in part.numbers_shown),
        part.universal,
        part.weight,
        str(part.rating_average),
        part.rating_count,
    )
    return "part-json:" + hashlib.sha256(repr(shown).encode()).hexdigest()


class PartImageField(serializers.FileField):
    """An uploaded image file (multipart `image`), checked and re-encoded by catalog.images:
    its value is a CleanImage, stored by the part's service."""

    default_error_messages = dict.fromkeys(
        ("required", "invalid", "no_name", "empty"), images.IMAGE_INVALID
    )

    def __init__(self, **kwargs):
        super().__init__(required=False, write_only=True, **kwargs)

    def to_internal_value(self, data):
        return images.image_clean(file=super().to_internal_value(data))


class PartInputSerializer(serializers.Serializer):
    """Validates a new part (or, with partial=True, changed fields of one). An `image` file
    (multipart) takes the place of `img`: the part's image becomes the stored file's URL."""

    name = serializers.CharField(max_length=200, error_messages=required(NAME_REQUIRED))
    img = serializers.CharField(
        max_length=500, required=False, allow_blank=True, validators=[validate_image_url]
    )
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    price = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0.01"),
        error_messages={
            **required(PRICE_REQUIRED),
            "min_value": PRICE_POSITIVE,
            "invalid": PRICE_INVALID,
            "max_decimal_places": PRICE_CENTS,
            "max_digits": PRICE_TOO_HIGH,
            "max_whole_digits": PRICE_TOO_HIGH,
            "max_string_length": PRICE_TOO_HIGH,
        },
    )
    minimumOrderQuantity = serializers.IntegerField(
        source="minimum_order_quantity",
        min_value=1,
        max_value=1_000_000,
        error_messages={
            **required(MIN_ORDER_REQUIRED),
            "min_value": MIN_ORDER_TOO_LOW,
            "invalid": MIN_ORDER_WHOLE,
            "max_value": MIN_ORDER_TOO_HIGH,
            "max_string_length": MIN_ORDER_TOO_HIGH,
        },
    )
    availableQuantity = serializers.IntegerField(
        source="available_quantity",
        min_value=0,
        max_value=1_000_000_000,
        error_messages={
            **required(STOCK_REQUIRED),
            "min_value": STOCK_NEGATIVE,
            "invalid": STOCK_WHOLE,
            "max_value": STOCK_TOO_HIGH,
            "max_string_length": STOCK_TOO_HIGH,
        },
    )
    category = SlugLookupField(
        slug_field="slug",
        queryset=Category.objects.all(),
        required=False,
        allow_null=True,
        error_messages={"does_not_exist": CATEGORY_UNKNOWN, "invalid": CATEGORY_UNKNOWN},
    )
    partNumber = serializers.CharField(
        source="part_number",
        max_length=100,
        required=False,
        allow_blank=True,
        error_messages={"max_length": PART_NUMBER_TOO_LONG},
    )
    brand = serializers.CharField(
        max_length=60,
        required=False,
        allow_blank=True,
        error_messages={"max_length": BRAND_TOO_LONG},
    )
    universal = serializers.BooleanField(required=False)
    weight = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=1_000_000,
        error_messages={
            "invalid": WEIGHT_WHOLE,
            "min_value": WEIGHT_NEGATIVE,
            "max_value": WEIGHT_TOO_HIGH,
            "max_string_length": WEIGHT_TOO_HIGH,
        },
    )
    image = PartImageField()

    def validate(self, attrs):
        if "image" in attrs:  # the file wins over a URL sent beside it
            attrs.pop("img", None)
        return attrs


class PartEditSerializer(PartInputSerializer):
    """Edit a part's page: every field but the stock, which changes on purpose only, and
    "universal", which the page's "Fits these bikes" form sets (a form without the box would
    say False)."""

    availableQuantity = None
    universal = None


class DeletedCountSerializer(serializers.Serializer):
    deletedCount = serializers.IntegerField()


class StockChangeInputSerializer(serializers.Serializer):
    """POST /api/allparts/{id}/stock: units received (+) or written off (−), and why."""

    change = serializers.IntegerField(
        min_value=-1_000_000_000,
        max_value=1_000_000_000,
        error_messages={
            "required": CHANGE_ZERO,
            "invalid": CHANGE_ZERO,
            "max_value": STOCK_TOO_HIGH,
            "min_value": STOCK_TOO_HIGH,
            "max_string_length": STOCK_TOO_HIGH,
        },
    )
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")

    def validate_change(self, value):
        if value == 0:
            raise serializers.ValidationError(CHANGE_ZERO)
        return value


PRICE_NOT_A_NUMBER = "Enter a price in dollars, such as 25 or 25.50"
VEHICLE_UNKNOWN = "Choose one of the shop's vehicles"
SORT_UNKNOWN = "Sort by one of: " + ", ".join(SORTS)


def price_bound() -> serializers.DecimalField:
    """A search's lowest or highest price in dollars (optional)."""
    return serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0"),
        required=False,
        allow_null=True,
        error_messages={"invalid": PRICE_NOT_A_NUMBER},
    )


MAX_BRANDS = 20
BRANDS_TOO_MANY = f"Choose at most {MAX_BRANDS} brands"
# Empty boxes mean "no bound", "no bike", "no brand" (a form submits every field, filled or not).
BLANK_IS_NONE = ("minPrice", "maxPrice", "priceMin", "priceMax", "fits")


class PartSearchInputSerializer(PageInputSerializer):
    """`GET /api/allparts` and /allparts: words, category, brands, price range, in stock,
    order. `priceMin`/`priceMax` are other names of `minPrice`/`maxPrice` (both apply)."""

    q = serializers.CharField(required=False, allow_blank=True, max_length=200)
    category = serializers.SlugField(required=False, allow_blank=True, max_length=100)
    brand = FlatListField(
        child=serializers.CharField(
            max_length=60, allow_blank=True, error_messages={"max_length": BRAND_TOO_LONG}
        ),
        required=False,
        max_length=MAX_BRANDS,
        error_messages={"max_length": BRANDS_TOO_MANY},
    )
    minPrice = price_bound()
    maxPrice = price_bound()
    priceMin = price_bound()
    priceMax = price_bound()
    inStock = serializers.BooleanField(required=False, default=False)
    sort = serializers.ChoiceField(
        choices=list(SORTS),
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": SORT_UNKNOWN},
    )
    fits = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        error_messages=dict.fromkeys(
            ("invalid", "max_string_length", "min_value", "max_value"), VEHICLE_UNKNOWN
        ),
    )

    def to_internal_value(self, data):
        brands = data.getlist("brand") if hasattr(data, "getlist") else data.get("brand", [])
        data = {k: v for k, v in data.items() if not (k in BLANK_IS_NONE and v == "")}
        data.pop("brand", None)
        brands = list(brands) if isinstance(brands, list | tuple) else [brands]
        if brands := [brand for brand in brands if brand != ""]:  # repeatable: ?brand=A&brand=B
            data["brand"] = brands
        return super().to_internal_value(data)

    def validate_fits(self, value):
        if value is not None and not vehicle_exists(value):
            raise serializers.ValidationError(VEHICLE_UNKNOWN)
        return value

    def part_query(self) -> PartQuery:
        data = self.validated_data
        lows = [data[k] for k in ("minPrice", "priceMin") if data.get(k) is not None]
        highs = [data[k] for k in ("maxPrice", "priceMax") if data.get(k) is not None]
        return PartQuery(
            q=data.get("q", ""),
            category=data.get("category", ""),
            brands=tuple(dict.fromkeys(brand for brand in data.get("brand", []) if brand)),
            min_price=max(lows, default=None),
            max_price=min(highs, default=None),
            in_stock=data.get("inStock", False),
            sort=data.get("sort", ""),
            fits=data.get("fits"),
        )


class BrandCountSerializer(serializers.Serializer):
    name = serializers.CharField()
    count = serializers.IntegerField()


class PriceRangeCountSerializer(serializers.Serializer):
    min = serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False)
    max = serializers.DecimalField(
        max_digits=10, decimal_places=2, coerce_to_string=False, allow_null=True
    )
    count = serializers.IntegerField()


class CategoryCountSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    count = serializers.IntegerField()


class FacetsSerializer(serializers.Serializer):
    """GET /api/allparts/facets (catalog.facets)."""

    categories = CategoryCountSerializer(many=True)
    brands = BrandCountSerializer(many=True)
    price = PriceRangeCountSerializer(many=True)
    inStock = serializers.IntegerField()
    total = serializers.IntegerField()


SUGGEST_FROM = 2  # characters of `q` before anything is suggested
SUGGEST_Q_MAX = 100  # characters of `q` looked at (a longer one is cut, never refused)


class SuggestInputSerializer(serializers.Serializer):
    """GET /api/search/suggest: `q`, any length (cut to SUGGEST_Q_MAX characters)."""

    q = serializers.CharField(required=False, allow_blank=True)

    @staticmethod
    def q_of(params) -> str:
        """`q` as suggestions read it: its words, cut and folded ("" when too short)."""
        q = " ".join(str(params.get("q", "")).replace("\x00", "")[:SUGGEST_Q_MAX].split())
        return q.casefold() if len(q) >= SUGGEST_FROM else ""


class SuggestedPartSerializer(serializers.ModelSerializer):
    _id = serializers.IntegerField(source="pk", read_only=True)
    price = serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False)
    url = serializers.CharField(source="get_absolute_url", read_only=True)
    partNumber = serializers.CharField(source="part_number")

    class Meta:
        model = Part
        fields = ["_id", "name", "partNumber", "price", "img", "url"]


class SuggestedCategorySerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    url = serializers.CharField()


class SuggestionsSerializer(serializers.Serializer):
    """GET /api/search/suggest's answer (the OpenAPI's): at most 6 parts, 3 categories and
    3 bikes."""

    parts = SuggestedPartSerializer(many=True)
    categories = SuggestedCategorySerializer(many=True)
    bikes = VehicleSerializer(many=True)
