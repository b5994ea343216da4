from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from core.emails import normalize_email
from core.errors import Conflict
from core.phones import normalize_phone, validate_phone

from . import validators as v
from .models import User
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
    actions = ["make_shop_admin", "remove_shop_admin"]

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
