"""The shop's settings (DJANGO_SETTINGS_MODULE=shop.settings), one module per concern."""

from .base import *  # noqa: F403
