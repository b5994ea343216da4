"""Any saved or deleted part makes the cached catalog stale (admin edits included)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.versioned_cache import invalidate

from .models import Part
from .selectors import CACHE


@receiver([post_save, post_delete], sender=Part)
def catalog_changed(**kwargs):
    invalidate(CACHE)
