from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"

    def ready(self):
        from core.caching.pages import Variant, vary_visitors_pages_on

        from . import receivers  # noqa: F401  (connects them)
        from .garage import BIKE

        # Visitors' pages show their active bike (My Garage): kept per bike, found by a
        # `bike` cookie that mirrors the session's ("0": none).
        vary_visitors_pages_on(Variant(cookie="bike", session_key=BIKE, pattern=r"\d{1,19}"))
