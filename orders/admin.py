from django.contrib import admin, messages
from django.utils.html import format_html_join

from core.admin_history import RecordOnlyHistoryAdmin
from core.errors import Conflict, ShopError

from .models import Booking, BookingLine, PaymentEvent, Return, ReturnLine
from .services import (
    booking_approve,
    booking_cancel,
    booking_correct,
    booking_refund,
    return_decide,
)


class StateListFilter(admin.SimpleListFilter):
    """The order's state, derived from its fields (BookingQuerySet.in_state)."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return Booking.State.choices

    def queryset(self, request, queryset):
        value = self.value()
        if value in Booking.State.values:
            return queryset.in_state(value)
        return queryset


class RecordInline(admin.TabularInline):
    """Rows shown as a record: never added, changed or deleted by hand (the services do)."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class BookingLineInline(RecordInline):
    """What was bought, line by line."""

    model = BookingLine
    fields = ["part", "parts_name", "price_per_unit", "quantity", "line_total"]


@admin.register(Booking)
class BookingAdmin(RecordOnlyHistoryAdmin):
    # History: every saved version of the order (placed, paid, approved, refunded, …), by whom.
    history_list_display = ["paid", "status", "address", "phone"]
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
    # The part names searched through the lines (Django admin drops the duplicates).
    search_fields = [
        "email",
        "name",
        "lines__parts_name",
        "transaction_id",
        "payment_intent_id",
        "invoice_number",
    ]
    # What was bought (the lines, below), at which price, and its payment are history: they
    # change only through the services (placing, paying, approving), never by hand.
    readonly_fields = [
        "user",
        "email",
        "name",
        # The breakdown pricing's quote answered when the order was placed (the snapshot).
        "subtotal",
        "discount",
        "voucher_code",
        "shipping_method",
        "shipping_price",
        "shipping_eta",
        "tax",
        "tax_included",
        "ship_to",
        "total_price",
        "paid",
        "status",
        "transaction_id",
        "invoice_number",
        "payment_intent_id",
        "payment_error",
        "created_at",
        "paid_at",
        "expires_at",
        "released_at",
        "refunded_at",
        "refund_id",
        "refunded_amount",
        "client_address",
        "timeline",
    ]
    inlines = [BookingLineInline]
    actions = ["approve_paid_orders", "refund_paid_orders"]

    def get_queryset(self, request):
        # The list's part names and units are read from the lines: one query for a page.
        return super().get_queryset(request).prefetch_related("lines")

    @admin.display(description="Timeline")
    def timeline(self, booking):
        """Its steps, oldest first, internal notes included (notes are added on the order's
        page in the dashboard, "Add note")."""
        return format_html_join(
            "",
            "<div>{} · {}</div>",
            ((event["at"][:16].replace("T", " "), event["text"]) for event in booking.events),
        )

    @admin.display(description="state")
    def state(self, booking):
        return Booking.State(booking.state).label

    def has_add_permission(self, request):
        # Orders are placed by shoppers (booking_place reserves the stock), not typed in.
        return False

    def has_delete_permission(self, request, obj=None):
        # Money records are never deleted: a paid order is refunded instead.
        if obj is not None and obj.paid:
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        booking_correct(booking=obj, fields=form.changed_data)

    def delete_model(self, request, obj):
        booking_cancel(booking=obj)

    @admin.action(description="Refund selected paid orders", permissions=["change"])
    def refund_paid_orders(self, request, queryset):
        refunded = 0
        for booking in queryset:
            try:
                booking_refund(booking=booking)
                refunded += 1
            except ShopError as exc:
                message = f"Order #{booking.pk} was not refunded: {exc.message}"
                self.message_user(request, message, messages.WARNING)
        self.message_user(request, f"{refunded} order(s) refunded.", messages.SUCCESS)

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


class ReturnLineInline(RecordInline):
    """The units of each line sent back."""

    model = ReturnLine
    fields = ["booking_line", "quantity"]


@admin.register(Return)
class ReturnAdmin(admin.ModelAdmin):
    """Returns: a record of what came back and what was refunded; they change through the
    services (the Returns page, the API, the actions here), never by hand."""

    list_display = ["id", "booking", "reason", "state", "refund_amount", "restocked", "created_at"]
    list_filter = ["state", "reason", "created_at"]
    search_fields = ["booking__email", "booking__id", "comment", "refund_id"]
    list_select_related = ["booking"]
    readonly_fields = [
        "booking",
        "reason",
        "comment",
        "state",
        "admin_comment",
        "refund_amount",
        "refund_id",
        "restocked",
        "created_at",
        "decided_at",
        "received_at",
    ]
    inlines = [ReturnLineInline]
    actions = ["approve_returns"]

    def has_add_permission(self, request):
        return False  # asked by shoppers (Return items), never typed in

    def has_delete_permission(self, request, obj=None):
        return False  # a money record

    @admin.action(description="Approve selected requested returns", permissions=["change"])
    def approve_returns(self, request, queryset):
        approved = 0
        for ret in queryset:
            try:
                return_decide(ret=ret, state=Return.State.APPROVED)
                approved += 1
            except ShopError as exc:
                self.message_user(request, f"Return #{ret.pk}: {exc.message}", messages.WARNING)
        self.message_user(request, f"{approved} return(s) approved.", messages.SUCCESS)
