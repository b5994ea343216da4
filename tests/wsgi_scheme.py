"""A WSGI application that answers with the scheme its server gave the request: run by
gunicorn with deploy/gunicorn.conf.py in tests/test_private_answers.py."""


def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [environ["wsgi.url_scheme"].encode()]
