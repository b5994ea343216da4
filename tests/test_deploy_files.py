"""What ships for deployment carries no known password, seeds nothing by default, and answers
the shop's own host names only."""

import re
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
NGINX = Path("/usr/sbin/nginx")
SITE = ROOT / "deploy" / "nginx" / "shop.conf"


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


def as_nginx_image_writes_it(names: str) -> str:
    """deploy/nginx/shop.conf as nginx's image writes the template into conf.d: envsubst of the
    variables set in its environment (SHOP_SERVER_NAMES), the app's address on loopback."""
    site = re.sub(r"\$\{?SHOP_SERVER_NAMES\}?", names, SITE.read_text())
    return site.replace("server app:8000", "server 127.0.0.1:9")


def test_compose_gives_nginx_the_shop_host_names():
    nginx = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["nginx"]
    template = "./deploy/nginx/shop.conf:/etc/nginx/templates/default.conf.template:ro"
    assert template in nginx["volumes"]
    assert nginx["environment"]["SHOP_SERVER_NAMES"] == "${SHOP_SERVER_NAMES:-localhost 127.0.0.1}"
    # envsubst replaces every variable its environment sets (upper case): nginx's are lower case.
    variables = set(re.findall(r"\$\{?([A-Za-z_]\w*)", SITE.read_text()))
    assert {name for name in variables if not name.islower()} == {"SHOP_SERVER_NAMES"}


def test_nginx_passes_the_host_it_matched_and_drops_any_other(tmp_path):
    """Host $host (never the header as sent), and a default server that answers nothing (444)
    for a host name that is not the shop's; nginx itself accepts the site."""
    if not NGINX.exists():
        pytest.fail(f"{NGINX} is missing: `apt-get install nginx` (.ci/run does)")
    site = as_nginx_image_writes_it("shop.example.com www.shop.example.com")
    assert "proxy_set_header Host $host;" in site and "$http_host" not in site
    assert re.search(
        r"listen 80 default_server;\s+server_name _;\s+server_tokens off;\s+return 444;", site
    )
    assert "server_name shop.example.com www.shop.example.com;" in site
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nevents {{}}\n"
        f"http {{\ninclude /etc/nginx/mime.types;\nclient_body_temp_path {tmp_path};\n{site}\n}}\n"
    )
    checked = subprocess.run(
        [str(NGINX), "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
