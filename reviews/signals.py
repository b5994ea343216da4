"""Any saved or deleted review makes the cached home-page reviews stale."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.caching import versions

from .models import Review
from .selectors import REVIEWS


@receiver([post_save, post_delete], sender=Review)
def reviews_changed(**kwargs):
    versions.bump(REVIEWS)
