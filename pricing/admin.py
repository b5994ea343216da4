"""Django admin of shipping methods (with their weight bands), tax rates and vouchers (with
their uses). Every write goes through pricing.services; the forms check the services' rules
first, so a refusal is a form error next to its field, never an error page."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count

from . import services
from .models import ShippingMethod, TaxRate, Voucher, VoucherUse, WeightBand


class WeightBandInline(admin.TabularInline):
    model = WeightBand
    extra = 1
    fields = ["up_to_grams", "price"]


class ShippingMethodForm(forms.ModelForm):
    class Meta:
        model = ShippingMethod
        fields = ["name", "countries", "free_over", "eta", "active", "is_default"]

    def clean(self):
        cleaned = super().clean()
        method = ShippingMethod(
            pk=self.instance.pk,
            is_default=cleaned.get("is_default", False),
            active=cleaned.get("active", True),
        )
        was_default = bool(self.instance.pk) and (
            ShippingMethod.objects.filter(pk=self.instance.pk, is_default=True).exists()
        )
        services.shipping_method_validate(method=method, was_default=was_default)
        return cleaned


@admin.register(ShippingMethod)
class ShippingMethodAdmin(admin.ModelAdmin):
    form = ShippingMethodForm
    inlines = [WeightBandInline]
    list_display = ["name", "is_default", "active", "where", "price_list", "free_over", "eta"]
    list_filter = ["active"]
    search_fields = ["name"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("bands")

    @admin.display(description="delivers to")
    def where(self, method):
        return ", ".join(c.code for c in method.countries) or "everywhere"

    @admin.display(description="weight bands")
    def price_list(self, method):
        return "; ".join(str(band) for band in method.bands.all()) or "free at any weight"

    def save_model(self, request, obj, form, change):
        pass  # saved with its bands in save_related, in one call of the service

    def save_related(self, request, form, formsets, change):
        """The method and its bands in one call of the service (which replaces the bands)."""
        bands = [
            (row["up_to_grams"], row["price"])
            for formset in formsets
            if formset.model is WeightBand
            for row in formset.cleaned_data
            if row and not row.get("DELETE")
        ]
        fields = {name: form.cleaned_data[name] for name in ShippingMethodForm.Meta.fields}
        fields["countries"] = [getattr(c, "code", c) for c in fields["countries"]]
        if change:
            method = services.shipping_method_update(method=form.instance, bands=bands, **fields)
        else:
            method = services.shipping_method_create(bands=bands, **fields)
        form.instance.pk, form.instance._state = method.pk, method._state
        for formset in formsets:  # what the admin's change message reads: the form says it
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []

    def delete_model(self, request, obj):
        try:
            services.shipping_method_delete(method=obj)
        except ValidationError as refusal:
            self.message_user(request, " ".join(refusal.messages), level="error")

    def delete_queryset(self, request, queryset):
        # The default last: it goes only when it is the last method.
        for method in sorted(queryset, key=lambda m: m.is_default):
            self.delete_model(request, method)


class TaxRateForm(forms.ModelForm):
    class Meta:
        model = TaxRate
        fields = ["country", "region", "name", "rate"]

    def clean_region(self):
        return self.cleaned_data["region"].strip()


@admin.register(TaxRate)
class TaxRateAdmin(admin.ModelAdmin):
    form = TaxRateForm
    list_display = ["country", "region", "name", "rate"]
    list_filter = ["country"]
    search_fields = ["name", "region"]

    def save_model(self, request, obj, form, change):
        fields = {name: form.cleaned_data[name] for name in TaxRateForm.Meta.fields}
        if change:
            services.tax_rate_update(tax_rate=obj, **fields)
        else:
            created = services.tax_rate_create(**fields)
            obj.pk, obj._state = created.pk, created._state

    def delete_model(self, request, obj):
        services.tax_rate_delete(tax_rate=obj)

    def delete_queryset(self, request, queryset):
        for rate in queryset:
            services.tax_rate_delete(tax_rate=rate)


class VoucherUseInline(admin.TabularInline):
    """Who used the voucher, for which order: counted by the checkout, never typed in."""

    model = VoucherUse
    fields = ["created_at", "order_id", "user", "email"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


VOUCHER_FIELDS = [
    "code",
    "kind",
    "value",
    "min_subtotal",
    "starts_at",
    "ends_at",
    "usage_limit",
    "once_per_customer",
    "active",
]


class VoucherForm(forms.ModelForm):
    class Meta:
        model = Voucher
        fields = VOUCHER_FIELDS

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            voucher = Voucher(pk=self.instance.pk, **cleaned)
            services.voucher_validate(voucher=voucher)
            cleaned["code"], cleaned["value"] = voucher.code, voucher.value
        return cleaned


@admin.register(Voucher)
class VoucherAdmin(admin.ModelAdmin):
    form = VoucherForm
    inlines = [VoucherUseInline]
    list_display = ["code", "kind", "value", "min_subtotal", "uses", "usage_limit", "active"]
    list_filter = ["kind", "active"]
    search_fields = ["code"]
    actions = ["switch_off"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(use_count=Count("uses"))

    @admin.display(description="uses", ordering="use_count")
    def uses(self, voucher):
        return voucher.use_count

    def save_model(self, request, obj, form, change):
        fields = {name: form.cleaned_data[name] for name in VOUCHER_FIELDS}
        if change:
            services.voucher_update(voucher=obj, **fields)
        else:
            created = services.voucher_create(**fields)
            obj.pk, obj.code, obj._state = created.pk, created.code, created._state

    def delete_model(self, request, obj):
        services.voucher_delete(voucher=obj)

    def delete_queryset(self, request, queryset):
        for voucher in queryset:
            services.voucher_delete(voucher=voucher)

    @admin.action(description="Switch off the selected vouchers")
    def switch_off(self, request, queryset):
        for voucher in queryset:
            fields = {name: getattr(voucher, name) for name in VOUCHER_FIELDS}
            services.voucher_update(voucher=voucher, **{**fields, "active": False})
        self.message_user(request, f"{len(queryset)} switched off.")
