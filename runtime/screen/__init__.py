"""Screen capture and encoding for the runtime's observations, on the host.

``screenshot`` (the model's screenshot: ``capture``, ``Screenshot``) uses
``grabber`` (one cached X connection per display) to read a frame in place from
Xvfb's mapped file (``framebuffer``) or MIT-SHM (``shm_grab``), then ``frames``
scales and encodes it, in bands of one JPEG on several cores (``jpeg_bands``) or
as PNG (``png``). The coordinate mapping lives in ``runtime/screen_scale.py``,
which the gui toolkit in the kernel imports instead of this package.
"""
