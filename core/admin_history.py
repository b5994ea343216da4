"""django-simple-history's pages in Django admin as a record only.

SIMPLE_HISTORY_REVERT_DISABLED hides the Revert button, but the page of a past version still
saves it back when posted to: for an order that would undo a payment or a refund behind the
services' backs. Here a past version can be looked at, never saved.
"""

from django.core.exceptions import PermissionDenied
from simple_history.admin import SimpleHistoryAdmin


class RecordOnlyHistoryAdmin(SimpleHistoryAdmin):
    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method not in ("GET", "HEAD"):
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)
