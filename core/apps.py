from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The ground floor: kernel code every app shares (it imports no app)."""

    name = "core"
