from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    name = "reviews"

    def ready(self):
        from . import signals  # noqa: F401  (connects the cache invalidation)
