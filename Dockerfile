# syntax=docker/dockerfile:1
# The shop's image: `docker build -t shop .`, run by compose.yaml as several app servers.
# Stage 1 builds the React islands and the stylesheet with npm; stage 2 is the Django app with
# its static files collected at build time, served by gunicorn as an unprivileged user.

FROM node:20-slim AS frontend
WORKDIR /build
COPY frontend/package.json frontend/package-lock.json frontend/
# `npm ci`: exactly the committed lock file, as `make setup` installs it (see the Makefile).
RUN cd frontend && npm ci --no-audit --no-fund
# Everything: Tailwind scans the templates for class names.
COPY . .
RUN cd frontend && npm run build


FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
COPY --from=frontend /build/static/dist/ static/dist/
# Hashed and compressed copies in STATIC_ROOT (/app/staticfiles). The settings refuse to load
# without a secret key when DEBUG is off; this one serves collectstatic only.
RUN DEBUG=0 SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput -v 0
# The app runs as `shop`, which cannot change its own code. /srv/shop/static is where
# compose.yaml's migrate step copies the static files for nginx; /srv/shop/media is where the
# app servers store uploaded part images (a volume, served by nginx).
RUN useradd --system --uid 10001 --no-create-home --home-dir /app shop \
    && mkdir -p /srv/shop/static /srv/shop/media \
    && chown shop /srv/shop/static /srv/shop/media
USER shop
ENV PORT=8000
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "shop.wsgi"]
