"""The clip vlc.media writes, encoded in a process of its own: ``python -m
deskact.reset_scripts.apps.vlc_clip SECONDS`` prints the MP4's bytes. FFmpeg (through PyAV) leaves
threads and locks in the process that encodes, and judges are forked from the runner: a fork taken
while one of those locks is held hangs, so the runner never encodes."""

from __future__ import annotations

import io
import sys


def encode(seconds: int) -> bytes:
    """An MP4 (MPEG-4 part 2, 160x120, 10 fps) of a white bar sliding over a colour ramp."""
    import av
    import numpy as np

    out = io.BytesIO()
    with av.open(out, "w", format="mp4") as container:
        stream = container.add_stream("mpeg4", rate=10)
        stream.width, stream.height, stream.pix_fmt = 160, 120, "yuv420p"
        stream.bit_rate = 400_000  # sharp edges on the white bar (the default leaves blocks)
        frames = 10 * seconds
        for i in range(frames):
            pixels = np.zeros((120, 160, 3), np.uint8)
            pixels[:, :, 0] = 40 + (180 * i) // max(frames - 1, 1)
            pixels[:, :, 2] = 120
            x = (140 * i) // max(frames - 1, 1)
            pixels[40:80, x:x + 20] = 255
            for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return out.getvalue()


if __name__ == "__main__":
    sys.stdout.buffer.write(encode(int(sys.argv[1])))
