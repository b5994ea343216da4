"""What ships for deployment carries no known password and seeds nothing by default."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_compose_seeds_nothing_unless_asked():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())

    assert compose["x-app"]["environment"]["SEED_DEMO"] == "${SEED_DEMO:-0}"
    migrate = "\n".join(compose["services"]["migrate"]["command"])
    assert 'if [ "$$SEED_DEMO" = 1 ]; then python manage.py seed_demo --if-empty; fi' in migrate


def test_no_deployment_file_names_a_demo_password():
    for name in ("compose.yaml", "Dockerfile", "deploy/gunicorn.conf.py", "deploy/nginx/shop.conf"):
        text = (ROOT / name).read_text()
        assert "admin123" not in text and "user123" not in text, name


def test_compose_runs_a_celery_worker_with_beat_from_the_same_image():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    worker = compose["services"]["worker"]

    assert worker["image"] == compose["services"]["app"]["image"]
    assert worker["command"][:5] == ["celery", "-A", "shop", "worker", "--beat"]
    assert worker["environment"]["REDIS_URL"]  # the broker
