"""Uploaded files from the local media folder (MEDIA_ROOT) at MEDIA_URL.

Where nginx runs in front (deploy/nginx), it serves /media/ from the folder itself and this
view is never reached; a single app server (`make run`, gunicorn alone) serves them here. Only
files the shop wrote live there (part images, re-encoded by catalog/images.py under names it
chose), so nothing a visitor sent is ever served as it was sent. With object storage the files'
URLs are the bucket's and this view answers 404.
"""

from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage, default_storage
from django.http import Http404
from django.views.static import serve

# Stored names are never reused (a new upload gets a new name): browsers keep them for a year.
CACHE_CONTROL = "public, max-age=31536000, immutable"


def media_file(request, path: str):
    if not isinstance(default_storage, FileSystemStorage):
        raise Http404("Media files are not stored on this server.")
    try:
        response = serve(request, path, document_root=default_storage.location)
    except SuspiciousFileOperation:  # "../" out of the folder: there is no such file
        raise Http404("No such file.") from None
    response["Cache-Control"] = CACHE_CONTROL
    return response
