from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    name = "reviews"

    def ready(self):
        from catalog.part_page import add_part_page_section

        from . import receivers  # noqa: F401  (connects them)
        from .part_page import reviews_section

        add_part_page_section(reviews_section)  # a part's page lists its riders' reviews
