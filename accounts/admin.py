from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from core.emails import normalize_email

from . import validators as v
from .models import User
from .services import user_create, user_make_admin


class EmailCleaningMixin:
    """E-mail addresses are stored trimmed and in lowercase, as everywhere else."""

    def clean_email(self):
        return normalize_email(self.cleaned_data["email"])


class UserAdminCreationForm(EmailCleaningMixin, AdminUserCreationForm):
    class Meta:
        model = User
        fields = ("email", "name", "role")


class UserAdminChangeForm(EmailCleaningMixin, UserChangeForm):
    class Meta:
        model = User
        fields = "__all__"

    def clean_phone(self):
        phone = v.normalize_phone(self.cleaned_data["phone"])
        if phone:
            v.validate_phone(phone)
        return phone


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = UserAdminChangeForm
    add_form = UserAdminCreationForm
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Personal info", {"fields": ("name", "education", "location", "phone", "linkedin")}),
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
    readonly_fields = ("last_login", "date_joined")
    list_display = ("email", "name", "role", "is_staff", "is_active", "date_joined")
    list_filter = ("role", "is_staff", "is_active")
    search_fields = ("email", "name")
    ordering = ("email",)
    actions = ["make_shop_admin"]

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        # New users go through the service (it also records allauth's e-mail address);
        # then the form's password and role are saved on top.
        obj.pk = user_create(email=obj.email, name=obj.name, password=None).pk
        obj.save()

    @admin.action(description="Make shop admin", permissions=["change"])
    def make_shop_admin(self, request, queryset):
        users = list(queryset)
        changed = sum(user_make_admin(user=user) for user in users)
        message = f"{changed} user(s) made shop admin."
        if unchanged := len(users) - changed:
            message += f" {unchanged} already were."
        self.message_user(request, message, messages.SUCCESS)
