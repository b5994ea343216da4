"""The shop's PostgreSQL backend: Django's, with a health check that costs no round trip."""
