from django.conf import settings
from django.db import models


class Booking(models.Model):
    """A purchase order. It keeps a snapshot of what was bought, so it outlives its part."""

    class Status(models.TextChoices):
        APPROVED = "approved", "Approved"

    class State(models.TextChoices):
        UNPAID = "unpaid", "Unpaid"
        PENDING = "pending", "Pending"
        SHIPPED = "shipped", "Shipped"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="bookings"
    )
    part = models.ForeignKey(
        "catalog.Part", on_delete=models.SET_NULL, null=True, blank=True, related_name="bookings"
    )
    email = models.EmailField()
    name = models.CharField(max_length=150, blank=True)
    parts_name = models.CharField(max_length=200)
    price_per_unit = models.DecimalField(max_digits=10, decimal_places=2)
    quantity = models.PositiveIntegerField()
    total_price = models.DecimalField(max_digits=12, decimal_places=2)
    address = models.CharField(max_length=500)
    phone = models.CharField(max_length=20)
    paid = models.BooleanField(default=False)
    status = models.CharField(max_length=20, choices=Status.choices, null=True, blank=True)
    transaction_id = models.CharField(max_length=255, blank=True)
    payment_intent_id = models.CharField(max_length=255, blank=True)
    payment_error = models.CharField(
        max_length=500, blank=True, help_text="The last failure the payment provider reported."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    paid_at = models.DateTimeField(
        null=True, blank=True, help_text="When the payment was recorded."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="orders_booking_user_newest"),
            models.Index(fields=["paid_at"], name="orders_booking_paid_at"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(quantity__gt=0), name="orders_booking_quantity_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(price_per_unit__gte=0, total_price__gte=0),
                name="orders_booking_prices_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(status__isnull=True) | models.Q(status="approved", paid=True),
                name="orders_booking_approved_only_when_paid",
            ),
        ]

    def __str__(self):
        return f"Order #{self.pk}: {self.quantity} × {self.parts_name}"

    @property
    def state(self) -> str:
        if self.status:
            return self.State.SHIPPED
        return self.State.PENDING if self.paid else self.State.UNPAID


class PaymentEvent(models.Model):
    """A Stripe webhook event as it arrived, and what the shop did with it."""

    class Outcome(models.TextChoices):
        PAID = "paid", "Order marked paid"
        ALREADY_PAID = "already_paid", "Order was already paid"
        FAILED = "failed", "Payment failure recorded"
        IGNORED = "ignored", "Ignored"
        REJECTED = "rejected", "Rejected (does not match the order)"

    event_id = models.CharField(max_length=255, unique=True)
    type = models.CharField(max_length=100)
    booking = models.ForeignKey(
        Booking, on_delete=models.SET_NULL, null=True, blank=True, related_name="payment_events"
    )
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    detail = models.CharField(max_length=500, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at", "-id"]

    def __str__(self):
        return f"{self.type} {self.event_id}"
