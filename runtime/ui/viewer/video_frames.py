"""Frames of an episode video at given times, written as PNG files; run as a script in a child process.

``python video_frames.py VIDEO OUT_DIR T1 T2 ...`` writes ``OUT_DIR/frame_<i>.png`` (the last frame
shown at or before each time, in seconds) and prints ``{"width", "height", "duration"}`` as JSON.
A child process because FFmpeg's decoder threads left in the viewer's process could be copied
held into a judge forked after them (validate runs judges from the same process); this file
imports only PyAV and PIL, never deskact.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def extract(video: Path, out: Path, times: list[float]) -> dict[str, float]:
    import av

    out.mkdir(parents=True, exist_ok=True)
    wanted = sorted(range(len(times)), key=lambda i: times[i])
    last = None
    duration = 0.0
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        width, height = stream.codec_context.width, stream.codec_context.height
        k = 0
        for frame in container.decode(stream):
            at = float(frame.time or 0.0)
            duration = max(duration, at)
            # Every wanted time before this frame is shown by the previous frame.
            while k < len(wanted) and times[wanted[k]] < at and last is not None:
                last.save(out / f"frame_{wanted[k]}.png")
                k += 1
            last = frame.to_image()
        while k < len(wanted) and last is not None:  # times past the last frame: the last frame
            last.save(out / f"frame_{wanted[k]}.png")
            k += 1
    return {"width": width, "height": height, "duration": duration}


if __name__ == "__main__":
    info = extract(Path(sys.argv[1]), Path(sys.argv[2]), [float(t) for t in sys.argv[3:]])
    print(json.dumps(info))
