"""``deskact view``: a local web viewer over run folders, live while a run writes.

``ViewerServer(roots).start()`` serves on 127.0.0.1: the runs found under the
roots, each run's tasks with filters, every step of a task (first observation
included) with the pointer actions of its code drawn on the screenshot, and two
runs compared with their trajectories side by side. See docs/viewer.md.
"""

from .clicks import Point, find_points
from .server import ViewerServer

__all__ = ["Point", "ViewerServer", "find_points"]
