from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from core.caching.pages import person_fields_not_shown

        from . import signals  # connects the receivers

        # A change of these alone leaves the pages kept per session (no page shows them).
        person_fields_not_shown(*signals.NOT_SHOWN)
