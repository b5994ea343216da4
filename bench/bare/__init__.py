"""The benchmark's yardstick: a bare Django project, what a developer gets from
`django-admin startproject` (its default middleware and apps), with one view answering "ok"
and one that locks a row and inserts one. `make bench` serves it with gunicorn beside the
shop (same configuration, same worker count) and sets each of the shop's figures against it.
"""
