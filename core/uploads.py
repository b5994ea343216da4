"""A ceiling on requests that carry files, checked before any byte of the body is read.

Django's DATA_UPLOAD_MAX_MEMORY_SIZE bounds a form's fields but not its files, which it writes
to a temporary file however large they are. The first upload handler refuses a multipart body
over FILE_UPLOAD_MAX_BODY_SIZE from its Content-Length at once: Django answers 400 (JSON under
/api/, core.api.bad_request), as for fields over their limit. Smaller files are then checked by
whoever takes them (part images: at most 5 MB, catalog/images.py, with a field message).
"""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler

TOO_BIG = "The request body is too large."


class BoundedUploadHandler(FileUploadHandler):
    """Refuses an oversized body; otherwise passes every chunk on to the next handler."""

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length > settings.FILE_UPLOAD_MAX_BODY_SIZE:
            raise RequestDataTooBig(TOO_BIG)

    def receive_data_chunk(self, raw_data, start):
        return raw_data

    def file_complete(self, file_size):
        return None
