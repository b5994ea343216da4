from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models.functions import Left, Length, Lower, Replace, Right, Upper
from django.urls import reverse
from django.utils import timezone
from simple_history.models import HistoricalRecords

from .validators import validate_image_url

FEW_LEFT = 10  # below this many units a part says "Only N left"


class Category(models.Model):
    """A shelf of the shop (Brakes, Lighting, …); staff manage them in Django admin."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"

    def __str__(self):
        return self.name


class Part(models.Model):
    """A motorcycle part for sale; availableQuantity is the stock not yet reserved by orders."""

    name = models.CharField(max_length=200)
    img = models.CharField("image URL", max_length=500, blank=True, validators=[validate_image_url])
    description = models.TextField(blank=True)
    category = models.ForeignKey(
        Category, on_delete=models.SET_NULL, null=True, blank=True, related_name="parts"
    )
    price = models.DecimalField("price per unit ($)", max_digits=10, decimal_places=2)
    minimum_order_quantity = models.PositiveIntegerField(default=1)
    available_quantity = models.PositiveIntegerField(default=0)
    # One unit's weight, for shipping by weight bands (pricing); 0 = not given. The database
    # has the default too: rows written by raw SQL (bench, big catalogs) need not name it.
    weight = models.PositiveIntegerField("weight (g)", default=0, db_default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # The manufacturer's part number as written ("12311-MT4-000"), and the form search compares
    # (no case, spaces or dashes: "12311mt4000"). The database computes the second from the first
    # on every write (services, bulk_create, admin, raw SQL alike), so the two never disagree.
    part_number = models.CharField(max_length=100, blank=True, default="")
    # Who makes the part ("EBC", "NGK"); "" when not given.
    brand = models.CharField(max_length=60, blank=True, default="", db_default="")
    part_number_normalised = models.GeneratedField(
        expression=Replace(Replace(Lower("part_number"), models.Value(" ")), models.Value("-")),
        output_field=models.CharField(max_length=100),
        db_persist=True,
    )
    # Fits every bike: listed for any bike without fitment rows of its own.
    universal = models.BooleanField(default=False)
    vehicles = models.ManyToManyField(
        "Vehicle", through="Fitment", related_name="parts", blank=True
    )
    # Its riders' rating: the average of its shown (not hidden) part reviews to one decimal
    # (None without any) and how many there are. Written only by services.part_rating_set,
    # which the reviews app calls after each change of a review, so cards and lists read it
    # with the part (no query per card); catalog knows nothing of reviews.
    rating_average = models.DecimalField(
        max_digits=2, decimal_places=1, null=True, blank=True, editable=False
    )
    rating_count = models.PositiveIntegerField(default=0, db_default=0, editable=False)
    # Name (A), category name (B) and description (C), English stemming. Written by the
    # database itself on PostgreSQL (triggers in migration 0005: on every insert or update of
    # a part, and on a category's rename), so every way of writing (services, bulk_create,
    # admin, raw SQL) leaves it right; always null on SQLite, which searches without it.
    search_vector = SearchVectorField(null=True, editable=False)
    # Who changed what and when (Django admin's History). The stock is left out: it changes
    # under the part's lock by an UPDATE, never by a save, and each change is a StockMovement;
    # so is the search vector, which the database derives from the other fields.
    # The normalised part number is the database's too, and the rating the reviews' (their own
    # records say who wrote what).
    history = HistoricalRecords(
        excluded_fields=[
            "available_quantity",
            "search_vector",
            "part_number_normalised",
            "rating_average",
            "rating_count",
        ]
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="catalog_part_newest"),
            GinIndex(fields=["search_vector"], name="catalog_part_search"),
            # The universal parts, a few of many: listed for every bike (?fits=).
            models.Index(
                fields=["id"], condition=models.Q(universal=True), name="catalog_part_universal"
            ),
            # Equality and prefix (LIKE 'x%') lookups of a searched part number.
            models.Index(
                fields=["part_number_normalised"],
                name="catalog_part_number",
                opclasses=["varchar_pattern_ops"],
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(price__gt=0), name="catalog_part_price_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(minimum_order_quantity__gte=1),
                name="catalog_part_min_order_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(available_quantity__gte=0),
                name="catalog_part_stock_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(weight__gte=0), name="catalog_part_weight_not_negative"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        """The part's public page."""
        return reverse("part", args=[self.pk])

    @property
    def numbers_shown(self) -> list["PartNumber"]:
        """Its other numbers: those read with it (`numbers_read`, set by a list's one read:
        catalog.selectors), else read now."""
        read = getattr(self, "numbers_read", None)
        return list(self.other_numbers.all()) if read is None else read

    @property
    def is_out_of_stock(self) -> bool:
        """Fewer units left than the minimum order: it cannot be ordered now."""
        return self.available_quantity < self.minimum_order_quantity

    @property
    def is_few_left(self) -> bool:
        """Orderable, but fewer than FEW_LEFT units remain."""
        return not self.is_out_of_stock and self.available_quantity < FEW_LEFT

    @property
    def stock_badge(self) -> str:
        """What the cards and the part page say of the stock."""
        if self.is_out_of_stock:
            return "Out of stock"
        if self.is_few_left:
            return f"Only {self.available_quantity} left"
        return "In stock"


def normalised_number(field: str) -> Replace:
    """The form search compares a part number in: no case, spaces or dashes."""
    return Replace(Replace(Lower(field), models.Value(" ")), models.Value("-"))


class PartNumber(models.Model):
    """Another number the same part is known by: the maker's (OEM) number, one it replaced
    (superseded), another maker's (aftermarket). Search finds the part by any of them."""

    class Kind(models.TextChoices):
        OEM = "oem", "OEM"
        SUPERSEDED = "superseded", "Superseded"
        AFTERMARKET = "aftermarket", "Aftermarket"

    part = models.ForeignKey(
        Part, on_delete=models.CASCADE, related_name="other_numbers", db_index=False
    )
    number = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    brand = models.CharField(max_length=60, blank=True, default="")
    # As Part.part_number_normalised: written by the database on every write.
    number_normalised = models.GeneratedField(
        expression=normalised_number("number"),
        output_field=models.CharField(max_length=100),
        db_persist=True,
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            # Also the index of a part's numbers (it leads with the part).
            models.UniqueConstraint(
                fields=["part", "number_normalised"], name="catalog_partnumber_unique"
            ),
        ]
        indexes = [
            # Equality and prefix (LIKE 'x%') lookups of a searched number.
            models.Index(
                fields=["number_normalised"],
                name="catalog_partnumber_number",
                opclasses=["varchar_pattern_ops"],
            ),
        ]

    def __str__(self):
        return f"{self.number} ({self.get_kind_display()})"


class Vehicle(models.Model):
    """One model year of one motorcycle ("2019 Yamaha MT-07").

    Make and model are kept as written and looked up whatever their case (`iexact`, which is
    UPPER(…) = UPPER(…) on PostgreSQL): the unique index on UPPER(make), UPPER(model), year
    answers the picker's lookups (a make's models, a model's years, one vehicle) and keeps
    "yamaha" and "Yamaha" from becoming two makes.
    """

    make = models.CharField(max_length=60)
    model = models.CharField(max_length=100)
    year = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["make", "model", "year"]
        indexes = [
            # Lists in their order (every make, by name; vehicles by make, model, year).
            models.Index(fields=["make", "model", "year"], name="catalog_vehicle_order"),
        ]
        constraints = [
            models.UniqueConstraint(
                Upper("make"), Upper("model"), "year", name="catalog_vehicle_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(year__gte=1885, year__lte=2100), name="catalog_vehicle_year"
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return f"{self.year} {self.make} {self.model}"


class Fitment(models.Model):
    """A part fits a vehicle. A universal part needs no rows."""

    # No index of their own: the two below lead with each.
    part = models.ForeignKey(
        Part, on_delete=models.CASCADE, related_name="fitments", db_index=False
    )
    vehicle = models.ForeignKey(
        Vehicle, on_delete=models.CASCADE, related_name="fitments", db_index=False
    )

    class Meta:
        constraints = [
            # Also the index of a part's vehicles (the part page, the editor).
            models.UniqueConstraint(fields=["part", "vehicle"], name="catalog_fitment_unique"),
        ]
        indexes = [
            # ?fits=: the parts of one vehicle, answered from the index alone.
            models.Index(fields=["vehicle", "part"], name="catalog_fitment_vehicle"),
        ]

    def __str__(self):
        return f"{self.part_id} fits {self.vehicle_id}"


class StockMovement(models.Model):
    """One change of a part's stock: how much, why, for which order, by whom and when.

    Written only by catalog.stock, in the same transaction as the change itself. The part
    link is SET_NULL and the part's name is kept: the record of who wrote off or received
    what outlives a deleted part, as an order does (its number is a plain integer: catalog
    knows nothing of orders).
    """

    class Reason(models.TextChoices):
        INITIAL = "initial", "Initial stock"
        ORDER_PLACED = "order_placed", "Order placed"
        ORDER_CANCELLED = "order_cancelled", "Order cancelled"
        RECEIVED = "received", "Received"
        WRITTEN_OFF = "written_off", "Written off"
        COUNTED = "counted", "Counted (stocktake)"
        ADJUSTMENT = "adjustment", "Adjustment"

    part = models.ForeignKey(
        Part, on_delete=models.SET_NULL, null=True, blank=True, related_name="stock_movements"
    )
    part_name = models.CharField(max_length=200)
    change = models.IntegerField(help_text="Units added (positive) or taken (negative).")
    stock_after = models.PositiveIntegerField(help_text="The part's stock after this change.")
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=500, blank=True)
    order_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The order this change was made for, if any."
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["part", "-created_at"], name="catalog_move_part_newest")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(change=0), name="catalog_stockmovement_change_not_zero"
            ),
        ]

    def __str__(self):
        return f"{self.part_name}: {self.change:+d} ({self.get_reason_display()})"


class GarageBike(models.Model):
    """A bike saved in an account's garage; at most one of them is the active one, the bike
    the shopper is shopping for. (A visitor's garage lives in their session: catalog.garage.)"""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    vehicle = models.ForeignKey(Vehicle, on_delete=models.CASCADE, related_name="+")
    active = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]  # the order they were saved in
        constraints = [
            # Also the index of a user's garage (it leads with the user).
            models.UniqueConstraint(fields=["user", "vehicle"], name="catalog_garagebike_unique"),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(active=True),
                name="catalog_garagebike_one_active",
            ),
        ]

    def __str__(self):
        return f"{self.user_id}: {self.vehicle_id}{' (active)' if self.active else ''}"


class SavedPart(models.Model):
    """A part an account saved for later, with its price when saved ("Price dropped" when it is
    lower now). Saving it again keeps the first price. (A visitor's saved parts live in their
    session: catalog.saved.)"""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    part = models.ForeignKey(Part, on_delete=models.CASCADE, related_name="+")
    saved_price = models.DecimalField(max_digits=10, decimal_places=2)
    # When it was saved (a visitor's saved time joins the account with it at sign-in).
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]  # the latest saved first
        constraints = [
            # Also the index of a user's saved parts (it leads with the user).
            models.UniqueConstraint(fields=["user", "part"], name="catalog_savedpart_unique"),
            models.CheckConstraint(
                condition=models.Q(saved_price__gt=0), name="catalog_savedpart_price_positive"
            ),
        ]

    def __str__(self):
        return f"{self.user_id}: {self.part_id} at {self.saved_price}"


class SearchWord(models.Model):
    """A word of the catalog (of a part's name, description or brand, of a category's name):
    what a searched word with a slip is corrected to (catalog/typos.py). On PostgreSQL the
    database adds the words of every part and category written (migration 0010), and never
    removes one: a word no part uses any more is harmless (a slip corrected to it finds only
    parts that say it, or its stem). On SQLite, whose search forgives no slips, it stays
    empty."""

    word = models.CharField(max_length=40, primary_key=True)

    class Meta:
        # A slip leaves a word of five letters its first two letters, or its last two: the
        # candidates share one of them, and are one letter shorter or longer at most.
        indexes = [
            models.Index(Left("word", 2), Length("word"), name="catalog_searchword_first"),
            models.Index(Right("word", 2), Length("word"), name="catalog_searchword_last"),
        ]

    def __str__(self):
        return self.word


class MissedSearch(models.Model):
    """How many searches found nothing on one day, by their words (case and spacing folded:
    catalog.services.missed_search_count); the owner's Overview lists the most frequent."""

    words = models.CharField(max_length=100)
    day = models.DateField()
    count = models.PositiveIntegerField(default=1)
    last_at = models.DateTimeField()

    class Meta:
        constraints = [
            # One row a day per words: the upsert's conflict target.
            models.UniqueConstraint(fields=["words", "day"], name="catalog_missedsearch_unique"),
        ]
        indexes = [models.Index(fields=["day"], name="catalog_missedsearch_day")]

    def __str__(self):
        return f"{self.words} ({self.day}: {self.count})"


class StockAlert(models.Model):
    """ "Email me when it's back": one e-mail address waiting for one out-of-stock part.

    Live once confirmed (an account's at once; a visitor's when the link mailed to them is
    opened) and until it ends: when the part's stock rises to its minimum order quantity or
    more, the one mail goes out and `ended_at` is set (catalog.alerts, under the part's row
    lock). One alert not ended per part and address."""

    part = models.ForeignKey(Part, on_delete=models.CASCADE, related_name="stock_alerts")
    email = models.EmailField(max_length=254)
    # A removed account's alerts go with it: its address is mailed no more.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="stock_alerts",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "back-in-stock alert"
        constraints = [
            models.UniqueConstraint(
                fields=["part", "email"],
                condition=models.Q(ended_at__isnull=True),
                name="catalog_stockalert_one_open_per_part_and_email",
            ),
        ]
        indexes = [
            models.Index(
                fields=["part"],
                condition=models.Q(ended_at__isnull=True, confirmed_at__isnull=False),
                name="catalog_stockalert_live",
            ),
            models.Index(fields=["email", "ended_at"], name="catalog_stockalert_email"),
        ]

    def __str__(self):
        return f"{self.email} waits for {self.part_id}"

    @property
    def is_live(self) -> bool:
        return self.confirmed_at is not None and self.ended_at is None
