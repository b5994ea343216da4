from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The ground floor: kernel code every app shares (it imports no app)."""

    name = "core"

    def ready(self):
        from . import routing  # noqa: F401 (registers `<id:…>` before any URLconf is read)
