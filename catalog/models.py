from django.db import models

from .validators import validate_image_url


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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["-created_at", "-id"], name="catalog_part_newest")]
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
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return f"/purchaseintent/{self.pk}"
