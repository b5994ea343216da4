"""The Celery app: `celery -A shop worker --beat` (broker REDIS_URL; settings CELERY_* in
shop/settings/base.py). Tasks live in each app's tasks.py, declared with `celery.shared_task`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")

app = Celery("shop")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
