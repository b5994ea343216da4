from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.forms import ModelForm
from django.urls import reverse
from django.utils.html import format_html

from core.emails import normalize_email
from core.errors import Conflict
from core.phones import normalize_phone, validate_phone

from . import addresses
from . import validators as v
from .models import Address, User
from .services import user_create, user_delete, user_make_admin, user_remove_admin


class EmailCleaningMixin:
    """E-mail addresses are stored trimmed and in lowercase, as everywhere else."""

    def clean_email(self):
        email = normalize_email(self.cleaned_data["email"])
        v.validate_shop_email(email)
        return email


class UserAdminCreationForm(EmailCleaningMixin, AdminUserCreationForm):
    class Meta:
        model = User
        fields = ("email", "name", "role")


class UserAdminChangeForm(EmailCleaningMixin, UserChangeForm):
    class Meta:
        model = User
        fields = "__all__"

    def clean_phone(self):
        phone = normalize_phone(self.cleaned_data["phone"])
        if phone:
            validate_phone(phone)
        return phone


class AddressAdminForm(ModelForm):
    """The address's fields; a new one for an account that has no room left says so here."""

    class Meta:
        model = Address
        fields = ("owner", *addresses.FIELDS)

    def clean(self):
        cleaned = super().clean()
        owner = cleaned.get("owner")
        if self.instance.pk is None and owner is not None:
            addresses.address_check_room(owner)
        return cleaned


@admin.register(Address)
class AddressAdmin(admin.ModelAdmin):
    """Saved addresses; every write goes through accounts.addresses (the limit, one default)."""

    form = AddressAdminForm
    list_display = ("full_name", "owner", "line1", "city", "postcode", "country", "is_default")
    list_filter = ("is_default", "country")
    search_fields = ("full_name", "line1", "city", "postcode", "phone", "owner__email")
    list_select_related = ("owner",)
    autocomplete_fields = ("owner",)
    readonly_fields = ("is_default", "created", "updated")
    actions = ["make_default"]

    def get_readonly_fields(self, request, obj=None):
        # An address stays with the account it was saved for.
        return (*self.readonly_fields, "owner") if obj is not None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        fields = {name: form.cleaned_data[name] for name in addresses.FIELDS}
        if change:
            addresses.address_update(address=obj, **fields)
            return
        created = addresses.address_create(owner=form.cleaned_data["owner"], **fields)
        obj.pk, obj.is_default = created.pk, created.is_default
        obj.created, obj.updated = created.created, created.updated

    def delete_model(self, request, obj):
        addresses.address_delete(address=obj)

    def delete_queryset(self, request, queryset):
        for address in queryset:
            addresses.address_delete(address=address)

    @admin.action(description="Make default", permissions=["change"])
    def make_default(self, request, queryset):
        for address in queryset.order_by("created"):  # of two of one account, the newer wins
            addresses.address_make_default(address=address)
        self.message_user(request, "Default address changed.", messages.SUCCESS)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = UserAdminChangeForm
    add_form = UserAdminCreationForm
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        (
            "Personal info",
            {"fields": ("name", "education", "location", "phone", "linkedin", "address_book")},
        ),
        (
            "Permissions",
            {
                "fields": (
                    "role",
                    "is_active",
                    "is_staff",
                    "is_superuser",
                    "groups",
                    "user_permissions",
                )
            },
        ),
        ("Important dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("email", "name", "role", "usable_password", "password1", "password2"),
            },
        ),
    )
    readonly_fields = ("last_login", "date_joined", "address_book")
    list_display = ("email", "name", "role", "is_staff", "is_active", "date_joined")
    list_filter = ("role", "is_staff", "is_active")
    search_fields = ("email", "name")
    ordering = ("email",)
    actions = ["make_shop_admin", "remove_shop_admin"]

    @admin.display(description="Addresses")
    def address_book(self, obj):
        """A link to the account's saved addresses (changed on their own pages: the services).
        Not an inline: its formset would have to be posted with every change of the user."""
        count = obj.addresses.count() if obj.pk else 0
        url = reverse("admin:accounts_address_changelist") + f"?owner__id__exact={obj.pk}"
        return format_html('<a href="{}">{} saved</a>', url, count) if count else "None saved"

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
        else:
            # New users go through the service (it also records allauth's e-mail address);
            # then the form's password and role are saved on top.
            obj.pk = user_create(email=obj.email, name=obj.name, password=None).pk
            obj.save()

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # The role decides staff and the Shop admins group, whichever way it was set.
        if "role" in form.changed_data or not change:
            user = form.instance
            try:
                if user.role == User.Role.ADMIN:
                    user_make_admin(user=user)
                elif change:
                    user_remove_admin(user=user, by=request.user)
            except Conflict as exc:
                self.message_user(request, exc.message, messages.WARNING)

    def has_delete_permission(self, request, obj=None):
        # Nobody removes their own account here (user_delete refuses it too).
        own = obj is not None and obj.pk == request.user.pk
        return not own and super().has_delete_permission(request, obj)

    def delete_model(self, request, obj):
        user_delete(user=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for user in queryset:
            try:
                user_delete(user=user, by=request.user)
            except Conflict as exc:
                self.message_user(request, f"{user.email}: {exc.message}", messages.WARNING)

    @admin.action(description="Make shop admin", permissions=["change"])
    def make_shop_admin(self, request, queryset):
        users = list(queryset)
        changed = sum(user_make_admin(user=user) for user in users)
        message = f"{changed} user(s) made shop admin."
        if unchanged := len(users) - changed:
            message += f" {unchanged} already were."
        self.message_user(request, message, messages.SUCCESS)

    @admin.action(description="Remove shop admin", permissions=["change"])
    def remove_shop_admin(self, request, queryset):
        removed = 0
        for user in queryset:
            try:
                removed += user_remove_admin(user=user, by=request.user)
            except Conflict as exc:
                self.message_user(request, f"{user.email}: {exc.message}", messages.WARNING)
        self.message_user(request, f"{removed} user(s) are no longer shop admins.")
