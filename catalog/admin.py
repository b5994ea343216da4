from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from core.admin_history import RecordOnlyHistoryAdmin
from core.errors import ShopError

from . import images, selectors, services, stock
from .models import Category, Fitment, Part, PartNumber, StockAlert, StockMovement, Vehicle
from .serializers import NUMBER_REQUIRED, NUMBER_TWICE, normalise_number

Reason = StockMovement.Reason


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}

    # Through the services, which make the cached catalog stale (cards show category names).
    def save_model(self, request, obj, form, change):
        services.category_save(category=obj)

    def delete_model(self, request, obj):
        services.category_delete(category=obj)

    def delete_queryset(self, request, queryset):
        for category in queryset:
            services.category_delete(category=category)


class StockMovementInline(admin.TabularInline):
    """The part's stock history, newest first: a record, never edited by hand."""

    model = StockMovement
    fields = ["created_at", "change", "stock_after", "reason", "note", "order_id", "by"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    verbose_name_plural = "stock movements"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("by")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class FitmentInline(admin.TabularInline):
    """The vehicles a part fits, one row each (vehicles picked by search)."""

    model = Fitment
    autocomplete_fields = ["vehicle"]
    extra = 1
    verbose_name = "fits"
    verbose_name_plural = "fits these bikes"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("vehicle")


class PartNumberFormSet(forms.BaseInlineFormSet):
    """No number twice on a part (compared as search compares them: no case, spaces or
    dashes), said on the form rather than refused by the database."""

    def clean(self):
        super().clean()
        seen = set()
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if not data or data.get("DELETE"):
                continue
            number = data.get("number", "")
            key = normalise_number(number)
            if not key:
                form.add_error("number", NUMBER_REQUIRED)
            elif key in seen:
                form.add_error("number", NUMBER_TWICE.format(number=number))
            seen.add(key)


class PartNumberInline(admin.TabularInline):
    """The part's other numbers: OEM, superseded, aftermarket, each with its brand."""

    model = PartNumber
    formset = PartNumberFormSet
    fields = ["number", "kind", "brand"]
    extra = 1
    verbose_name = "other number"
    verbose_name_plural = "also known as (other numbers)"


@admin.register(Vehicle)
class VehicleAdmin(admin.ModelAdmin):
    list_display = ["make", "model", "year"]
    list_filter = ["make"]
    search_fields = ["make", "model", "year"]
    ordering = ["make", "model", "year"]

    # Through the services: the makes list and the parts' pages name vehicles.
    def save_model(self, request, obj, form, change):
        services.vehicle_save(vehicle=obj)

    def delete_model(self, request, obj):
        services.vehicle_delete(vehicle=obj)

    def delete_queryset(self, request, queryset):
        for vehicle in queryset:
            services.vehicle_delete(vehicle=vehicle)


class StockAdjustForm(forms.Form):
    change = forms.IntegerField(
        min_value=-1_000_000_000,
        max_value=1_000_000_000,
        help_text="Units received (positive) or written off (negative).",
    )
    reason = forms.ChoiceField(
        choices=[
            (r.value, r.label) for r in (Reason.RECEIVED, Reason.WRITTEN_OFF, Reason.ADJUSTMENT)
        ]
    )
    note = forms.CharField(max_length=500, required=False, help_text="Why, in a few words.")

    def clean_change(self):
        change = self.cleaned_data["change"]
        if change == 0:
            raise forms.ValidationError(stock.CHANGE_ZERO)
        return change


class PartAdminForm(forms.ModelForm):
    """The part's fields, and an image file to upload in place of the image URL (checked and
    re-encoded by catalog.images, stored by the part's service)."""

    image = forms.FileField(
        label="or upload an image",
        required=False,
        help_text="PNG, JPEG or WebP, at most 5 MB; it takes the place of the image URL.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp"}),
    )

    class Meta:
        model = Part
        fields = [
            "name",
            "category",
            "img",
            "description",
            "price",
            "minimum_order_quantity",
            "available_quantity",
            "part_number",
            "brand",
            "universal",
            "weight",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["weight"].required = False  # left empty: 0, "not given"

    def clean_weight(self):
        return self.cleaned_data.get("weight") or 0

    def clean_image(self):
        file = self.cleaned_data.get("image")
        return images.image_clean(file=file) if file else None


@admin.register(Part)
class PartAdmin(RecordOnlyHistoryAdmin):
    form = PartAdminForm
    # The History page lists the part's saved versions, then its stock movements.
    object_history_template = "admin/catalog/part/object_history.html"
    history_list_display = ["name", "price", "img"]
    list_display = [
        "name",
        "category",
        "price",
        "minimum_order_quantity",
        "available_quantity",
        "created_at",
    ]
    list_filter = ["category", "universal", "created_at"]
    list_select_related = ["category"]
    search_fields = ["name", "description", "part_number", "brand", "other_numbers__number"]

    def get_inlines(self, request, obj):
        # A new part has no history; its fitment is added once it exists.
        if obj is None:
            return []
        return [PartNumberInline, FitmentInline, StockMovementInline]

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Fitment and formset.has_changed():
            services.fitment_changed(part_ids=[form.instance.pk])
        if formset.model is PartNumber and formset.has_changed():
            services.part_numbers_changed(part_ids=[form.instance.pk])

    def get_readonly_fields(self, request, obj=None):
        # A new part's first stock is typed in (kept as its "initial stock" movement); after
        # that stock changes only through orders and "Adjust stock", never by saving the form
        # (a figure read when the form opened would undo orders placed since).
        if obj is None:
            return ["created_at"]
        return ["available_quantity", "adjust_stock", "created_at"]

    @admin.display(description="stock")
    def adjust_stock(self, part):
        url = reverse("admin:catalog_part_adjust_stock", args=[part.pk])
        return format_html('<a class="button" href="{}">Adjust stock</a>', url)

    def save_model(self, request, obj, form, change):
        image = form.cleaned_data.get("image")  # a file wins over the image URL (the services)
        model_fields = [name for name in form.fields if name != "image"]
        if change:  # only what the form changed, never the stock
            fields = {name: getattr(obj, name) for name in form.changed_data if name != "image"}
            services.part_update(part=obj, image=image, **fields)
            return
        fields = {name: getattr(obj, name) for name in model_fields if name in form.cleaned_data}
        created = services.part_create(**fields, image=image, by=request.user)
        obj.pk, obj.created_at, obj._state = created.pk, created.created_at, created._state
        obj.img = created.img

    def history_view(self, request, object_id, extra_context=None):
        movements = selectors.stock_movements(part_id=object_id)
        return super().history_view(
            request, object_id, extra_context={**(extra_context or {}), "movements": movements}
        )

    def delete_model(self, request, obj):
        services.part_delete(part=obj)

    def get_urls(self):
        adjust = self.admin_site.admin_view(self.adjust_stock_view)
        return [
            path("<id:pk>/stock/", adjust, name="catalog_part_adjust_stock"),
            *super().get_urls(),
        ]

    def adjust_stock_view(self, request, pk):
        """Received or written-off units, with a reason: catalog.stock.stock_adjust."""
        part = get_object_or_404(Part, pk=pk)
        if not self.has_change_permission(request, part):
            raise PermissionDenied
        form = StockAdjustForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                stock.stock_adjust(part=part, by=request.user, **form.cleaned_data)
            except ShopError as refusal:
                form.add_error("change", refusal.message)
            else:
                self.message_user(
                    request,
                    f"Stock of “{part}” is now {part.available_quantity}.",
                    messages.SUCCESS,
                )
                return redirect("admin:catalog_part_change", part.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Adjust stock: {part}",
            "opts": self.model._meta,
            "original": part,
            "form": form,
        }
        return TemplateResponse(request, "admin/catalog/part/adjust_stock.html", context)


@admin.register(StockAlert)
class StockAlertAdmin(admin.ModelAdmin):
    """Back-in-stock alerts (catalog.alerts): who waits for which part, read only (they are
    asked on the part's page and end with their mail). Shown as plain text."""

    list_display = ["email", "part", "created_at", "confirmed_at", "ended_at", "mailed_at"]
    list_filter = [
        ("confirmed_at", admin.EmptyFieldListFilter),
        ("ended_at", admin.EmptyFieldListFilter),
    ]
    search_fields = ["email", "part__name"]
    list_select_related = ["part"]
    readonly_fields = [
        "part",
        "email",
        "user",
        "created_at",
        "confirmed_at",
        "ended_at",
        "mailed_at",
    ]
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
