"""Django admin for the shop's records: django-simple-history's pages as a record only, and
deletes that a service may refuse.

SIMPLE_HISTORY_REVERT_DISABLED hides the Revert button, but the page of a past version still
saves it back when posted to: for an order that would undo a payment or a refund behind the
services' backs. Here a past version can be looked at, never saved.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import redirect
from simple_history.admin import SimpleHistoryAdmin

from .errors import ShopError

NOT_DELETED = "“{obj}” was not deleted: {reason}"


class RecordOnlyHistoryAdmin(SimpleHistoryAdmin):
    """delete_model and delete_queryset go through services that may refuse (ShopError: Stripe
    unreachable, an order paid meanwhile). A refused delete changes nothing (Django admin's
    delete runs in one transaction) and shows the reason, never a "deleted" notice or a 500."""

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except ShopError as refusal:
            obj = self.get_object(request, object_id)
            self.message_user(
                request, NOT_DELETED.format(obj=obj, reason=refusal.message), messages.ERROR
            )
            opts = self.model._meta
            return redirect(f"admin:{opts.app_label}_{opts.model_name}_change", object_id)

    def delete_queryset(self, request, queryset):
        """Each object through delete_model; a refusal names the object and the rest go on.
        (Django's notice then counts the selected ones, the errors say which stayed.)"""
        for obj in queryset:
            try:
                with transaction.atomic():
                    self.delete_model(request, obj)
            except ShopError as refusal:
                message = NOT_DELETED.format(obj=obj, reason=refusal.message)
                self.message_user(request, message, messages.ERROR)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method not in ("GET", "HEAD"):
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)
