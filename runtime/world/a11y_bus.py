"""The accessibility (AT-SPI) bus of a task's world, so its GTK and LibreOffice apps export their trees.

Apps find the bus through the ``AT_SPI_BUS`` property of the X root window
(atk-bridge looks there when no session bus is set), so the property is set on
the task's display to the world's bus. The bus daemon and the AT-SPI registry
run *in the world*, as the agent's user: the apps the agent drives talk to a
bus the agent can reach too, and nothing of it lives on the host. The host
(observations, judges) connects to the bus socket through the world's root
(``World.host_path``) with ANONYMOUS authentication, since its uid means
nothing inside the world's user namespace; it only reads (and, for the gui
toolkit's click-by-name, the toolkit in the world asks for extents).
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DeskactError

BUS_DIR = "/tmp/.deskact-a11y"
BUS_SOCKET = f"{BUS_DIR}/bus"
BUS_ADDRESS = f"unix:path={BUS_SOCKET}"
REGISTRY = "org.a11y.atspi.Registry"
_CONFIG = f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>accessibility</type>
  <listen>{BUS_ADDRESS}</listen>
  <auth>EXTERNAL</auth>
  <auth>ANONYMOUS</auth>
  <allow_anonymous/>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


@dataclass
class A11yBus:
    display: str
    socket: Path
    """The bus socket as the host reaches it (inside the world's root)."""
    peer_uids: range
    """The world's host uids: the host reads the bus only if one of them serves it (a11y._check_peer)."""
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def stop(self) -> None:
        """Stop the daemons and take the property off the display (the next task sets its own)."""
        _set_root_property(self.display, None)
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def start(world: Any, display: str, timeout: float = 20.0) -> A11yBus:
    """Start the bus and the registry in ``world`` and point ``display``'s apps at it."""
    folder = world.host_path(BUS_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bus.conf").write_text(_CONFIG)
    for path in (folder, folder / "bus.conf"):
        world.chown_to_agent(path)
    agent = world.agent_id
    bus = A11yBus(display, world.host_path(BUS_SOCKET), world_uids(world))
    bus.procs.append(world.spawn(["dbus-daemon", f"--config-file={BUS_DIR}/bus.conf", "--nofork"], user=agent,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    deadline = time.monotonic() + timeout
    while not bus.socket.exists():
        if time.monotonic() > deadline or bus.procs[0].poll() is not None:
            bus.stop()
            raise DeskactError(f"the accessibility bus did not start in the world within {timeout:.0f} s")
        time.sleep(0.05)
    bus.procs.append(world.spawn(["/usr/libexec/at-spi2-registryd"], user=agent,
                                 env={"AT_SPI_BUS_ADDRESS": BUS_ADDRESS},
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    from ..agent.a11y import connect, has_owner

    with connect(bus.socket, peer_uids=bus.peer_uids) as conn:
        while not has_owner(conn, REGISTRY):
            if time.monotonic() > deadline or bus.procs[1].poll() is not None:
                bus.stop()
                raise DeskactError(f"the AT-SPI registry did not start in the world within {timeout:.0f} s")
            time.sleep(0.05)
    _set_root_property(display, BUS_ADDRESS)
    return bus


def world_uids(world: Any) -> range:
    """The host uids of ``world``'s processes (its user namespace maps ID_COUNT ids from ``world.uid``)."""
    from .world import ID_COUNT

    return range(world.uid, world.uid + ID_COUNT)


def _set_root_property(display: str, value: str | None) -> None:
    from Xlib import X, Xatom
    from Xlib import display as xdisplay

    try:
        x = xdisplay.Display(display)
    except Exception:  # noqa: BLE001 - the display is gone (worker stopping): nothing to point
        return
    try:
        root, atom = x.screen().root, x.intern_atom("AT_SPI_BUS")
        if value is None:
            root.delete_property(atom)
        else:
            root.change_property(atom, Xatom.STRING, 8, value.encode(), X.PropModeReplace)
        x.sync()
    finally:
        x.close()
