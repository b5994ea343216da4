from django.contrib import admin, messages

from core.errors import Conflict

from .models import Booking, PaymentEvent
from .services import booking_approve, booking_cancel


class StateListFilter(admin.SimpleListFilter):
    """The spec's order state, which the model derives from `paid` and `status`."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return Booking.State.choices

    def queryset(self, request, queryset):
        match self.value():
            case Booking.State.UNPAID:
                return queryset.filter(paid=False)
            case Booking.State.PENDING:
                return queryset.filter(paid=True, status__isnull=True)
            case Booking.State.SHIPPED:
                return queryset.filter(status__isnull=False)
        return queryset


@admin.register(Booking)
class BookingAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "email",
        "parts_name",
        "quantity",
        "total_price",
        "paid",
        "state",
        "created_at",
    ]
    list_filter = [StateListFilter, "created_at"]
    list_select_related = ["user", "part"]
    search_fields = ["email", "name", "parts_name", "transaction_id", "payment_intent_id"]
    # What was bought, at which price, and its payment are history: they change only
    # through the services (placing, paying, approving), never by hand.
    readonly_fields = [
        "user",
        "email",
        "name",
        "part",
        "parts_name",
        "price_per_unit",
        "quantity",
        "total_price",
        "paid",
        "status",
        "transaction_id",
        "payment_intent_id",
        "payment_error",
        "created_at",
    ]
    actions = ["approve_paid_orders"]

    @admin.display(description="state")
    def state(self, booking):
        return Booking.State(booking.state).label

    def has_add_permission(self, request):
        # Orders are placed by shoppers (booking_place reserves the stock), not typed in.
        return False

    def delete_model(self, request, obj):
        booking_cancel(booking=obj, by_admin=True)

    def delete_queryset(self, request, queryset):
        for booking in queryset:
            booking_cancel(booking=booking, by_admin=True)

    @admin.action(description="Approve selected paid orders", permissions=["change"])
    def approve_paid_orders(self, request, queryset):
        approved = skipped = 0
        for booking in queryset:
            try:
                approved += booking_approve(booking=booking)
            except Conflict:
                skipped += 1
        self.message_user(request, f"{approved} order(s) approved.", messages.SUCCESS)
        if skipped:
            self.message_user(
                request,
                f"{skipped} unpaid order(s) skipped: they can't be approved yet.",
                messages.WARNING,
            )


@admin.register(PaymentEvent)
class PaymentEventAdmin(admin.ModelAdmin):
    """Stripe's webhook events as they arrived: a record, never edited by hand."""

    list_display = ["received_at", "type", "event_id", "booking", "outcome"]
    list_filter = ["outcome", "type"]
    search_fields = ["event_id", "booking__email", "detail"]
    list_select_related = ["booking"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
