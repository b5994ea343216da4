from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Upper
from django_countries.fields import CountryField

from core.templatetags.money import money

CODE_RULE = "A code is 3–32 letters, digits or dashes."
RATE_TAKEN = "There is already a rate for this country and region."
CODE_TAKEN = "There is already a voucher with this code."
validate_code = RegexValidator(r"^[A-Za-z0-9-]{3,32}\Z", CODE_RULE)


class ShippingMethod(models.Model):
    """A way to deliver an order ("Standard", "Express"): where it goes, what it costs by the
    order's weight (its bands), when it is free, how long it takes. Exactly one method is the
    default (the one an order ships by when none is chosen): the database allows at most one,
    and pricing.services keeps one whenever a method exists."""

    name = models.CharField(max_length=100)
    # None listed: it delivers everywhere.
    countries = CountryField(multiple=True, blank=True)
    free_over = models.DecimalField(
        "free over ($)",
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="The goods total (after any discount) at or above which it costs nothing.",
    )
    eta = models.CharField("delivery time", max_length=100, blank=True)
    active = models.BooleanField(default=True)
    is_default = models.BooleanField("default", default=False)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=models.Q(is_default=True),
                name="pricing_method_one_default",
            ),
            models.CheckConstraint(
                condition=models.Q(free_over__isnull=True) | models.Q(free_over__gte=0),
                name="pricing_method_free_over_not_negative",
            ),
        ]

    def __str__(self):
        return self.name

    def delivers_to(self, country: str) -> bool:
        return not self.countries or country in {c.code for c in self.countries}


class WeightBand(models.Model):
    """A method's price for an order weighing up to `up_to_grams` (and more than the band
    below it); an order heavier than the last band cannot go by that method."""

    method = models.ForeignKey(ShippingMethod, on_delete=models.CASCADE, related_name="bands")
    up_to_grams = models.PositiveIntegerField("up to (g)", validators=[MinValueValidator(1)])
    price = models.DecimalField(
        "price ($)", max_digits=10, decimal_places=2, validators=[MinValueValidator(0)]
    )

    class Meta:
        ordering = ["method", "up_to_grams"]
        constraints = [
            models.UniqueConstraint(
                fields=["method", "up_to_grams"], name="pricing_weightband_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(up_to_grams__gte=1), name="pricing_weightband_grams_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(price__gte=0), name="pricing_weightband_price_not_negative"
            ),
        ]

    def __str__(self):
        return self.label

    @property
    def label(self) -> str:
        """As the owner reads it: "up to 2,000 g: $6.95"."""
        return f"up to {self.up_to_grams:,} g: {money(self.price)}"


class TaxRate(models.Model):
    """The tax of a destination: a country, or one region of it (a state), which wins."""

    country = CountryField()
    region = models.CharField(max_length=100, blank=True, default="")
    name = models.CharField(max_length=100)  # "VAT", "Sales tax"
    rate = models.DecimalField(
        "rate (%)",
        max_digits=6,
        decimal_places=3,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )

    class Meta:
        ordering = ["country", "region"]
        constraints = [
            # "CA" and "ca" are one region: looked up whatever the case (pricing.selectors).
            models.UniqueConstraint(
                "country",
                Upper("region"),
                name="pricing_taxrate_unique",
                violation_error_message=RATE_TAKEN,
            ),
            models.CheckConstraint(
                condition=models.Q(rate__gte=0, rate__lte=100), name="pricing_taxrate_rate_range"
            ),
        ]

    def __str__(self):
        where = f"{self.country.code}-{self.region}" if self.region else self.country.code
        return f"{self.name} {self.rate}% ({where})"

    @property
    def percent(self) -> str:
        """As the owner reads it: "19%", "7.25%"."""
        return f"{self.rate.normalize():f}%"


class Voucher(models.Model):
    """A code a shopper types for a discount: a percentage or dollars off the goods, or free
    shipping; with a minimum goods total, dates, a total number of uses and "once per
    customer". Codes are kept in capitals: unique whatever the case."""

    class Kind(models.TextChoices):
        PERCENT = "percent", "Percent off the goods"
        FIXED = "fixed", "Dollars off the goods"
        SHIPPING = "shipping", "Free shipping"

    code = models.CharField(max_length=32, validators=[validate_code])
    kind = models.CharField(max_length=10, choices=Kind.choices)
    value = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        default=0,
        help_text="Percent (1–100) or dollars off; not used by free shipping.",
    )
    min_subtotal = models.DecimalField(
        "minimum goods total ($)", max_digits=10, decimal_places=2, default=0
    )
    starts_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    usage_limit = models.PositiveIntegerField(
        "total uses", null=True, blank=True, help_text="Empty: no limit."
    )
    once_per_customer = models.BooleanField(default=False)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(
                Upper("code"),
                name="pricing_voucher_code_unique",
                violation_error_message=CODE_TAKEN,
            ),
            models.CheckConstraint(
                condition=models.Q(min_subtotal__gte=0), name="pricing_voucher_min_not_negative"
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="percent") | models.Q(value__gte=1, value__lte=100),
                name="pricing_voucher_percent_range",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="fixed") | models.Q(value__gt=0),
                name="pricing_voucher_fixed_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(starts_at__isnull=True)
                | models.Q(ends_at__isnull=True)
                | models.Q(ends_at__gt=models.F("starts_at")),
                name="pricing_voucher_ends_after_start",
            ),
        ]

    def __str__(self):
        return self.code

    @property
    def offer(self) -> str:
        """What it gives, as a person reads it: "10% off", "$5.00 off", "Free shipping"."""
        if self.kind == self.Kind.PERCENT:
            return f"{self.value.normalize():f}% off"
        if self.kind == self.Kind.FIXED:
            return f"{money(self.value)} off"
        return "Free shipping"


class VoucherUse(models.Model):
    """One order's use of a voucher, counted from the moment the order is placed and given
    back when the unpaid order is deleted or expires. The order is a plain number: pricing
    sits below orders and knows nothing of them."""

    voucher = models.ForeignKey(Voucher, on_delete=models.CASCADE, related_name="uses")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    email = models.EmailField(blank=True)
    order_id = models.PositiveBigIntegerField(unique=True)  # one voucher per order
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["voucher", "user"], name="pricing_voucheruse_user")]

    def __str__(self):
        return f"{self.voucher_id} on order {self.order_id}"
