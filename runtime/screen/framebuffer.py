"""A virtual display's screen read straight from Xvfb's memory-mapped framebuffer.

Started with ``-fbdir DIR``, Xvfb keeps its screen in ``DIR/Xvfb_screen0``: an
XWD header, then the pixels the server draws into. Mapping that file gives the
current screen with no request to the server at all, where a shared-memory grab
(XShmGetImage) has the server copy all 8 MB of a full-HD frame first: 0.6-1.6 ms
of wall time per screenshot on the 2-core box, and the server's CPU.

Two differences from a grab, both harmless for observations:
- the server draws the pointer into its framebuffer (software cursor), so the
  frame already shows it, as the screen does;
- the frame is read while the server may be drawing, as a person looks at a
  screen; a grab instead waits for the request being handled to finish.

The folder is root-only under /dev/shm on the host (memory, never written back
to a disk); worlds mount a /dev/shm of their own, so no agent reaches it.
Displays register their file here by name; the screenshot path looks it up.
"""

from __future__ import annotations

import mmap
import struct
import threading
from pathlib import Path

import numpy as np

_HEADER = struct.Struct(">25I")  # XWDFileHeader: 25 CARD32, most significant byte first
_XWD_COLOR_SIZE = 12
_ZPIXMAP, _LSB_FIRST = 2, 0


class Framebuffer:
    """The mapped file of one Xvfb screen; ``frame`` is a read-only (height, width, 4) BGRX view."""

    def __init__(self, path: Path, frame: np.ndarray, mapping: mmap.mmap) -> None:
        self.path = path
        self.frame = frame
        self._mapping = mapping

    @classmethod
    def open(cls, path: Path) -> Framebuffer | None:
        """Map ``path``; None when the file is gone or not a 32-bit BGRX screen (e.g. depth 16)."""
        try:
            with path.open("rb") as file:
                mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return None
        if len(mapping) < _HEADER.size:
            mapping.close()
            return None
        (header_size, version, pixmap_format, _depth, width, height, _xoffset, byte_order,
         _unit, _bit_order, _pad, bits_per_pixel, bytes_per_line, _class,
         red, green, blue, *_rest) = _HEADER.unpack_from(mapping)
        ncolors = _rest[2]
        offset = header_size + ncolors * _XWD_COLOR_SIZE
        usable = (version == 7 and pixmap_format == _ZPIXMAP and byte_order == _LSB_FIRST
                  and bits_per_pixel == 32 and (red, green, blue) == (0xFF0000, 0xFF00, 0xFF)
                  and bytes_per_line >= width * 4 and len(mapping) >= offset + bytes_per_line * height)
        if not usable:
            mapping.close()
            return None
        frame = np.ndarray((height, width, 4), np.uint8, buffer=mapping, offset=offset,
                           strides=(bytes_per_line, 4, 1))
        frame.flags.writeable = False
        return cls(path, frame, mapping)

    def close(self) -> None:
        del self.frame  # the view must go before the mapping can close
        try:
            self._mapping.close()
        except BufferError:  # a frame handed out is still referenced: the GC closes it later
            pass


_files: dict[str, Path] = {}
_files_lock = threading.Lock()


def register(display: str, path: Path) -> None:
    """``display`` (e.g. ":3") keeps its screen in ``path`` from now on."""
    with _files_lock:
        _files[display] = path


def unregister(display: str) -> None:
    with _files_lock:
        _files.pop(display, None)


def lookup(display: str) -> Path | None:
    """The framebuffer file of a display this process started, if it has one."""
    with _files_lock:
        return _files.get(display)
