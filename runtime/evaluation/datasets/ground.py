"""``deskact datasets ground``: a grounding dataset made in worlds, every sample proven by a click.

For each app, scenes (``ground_apps``) are opened in a task's world on a real display with an
accessibility bus, exactly as ``TaskEnv`` opens a visual task. In each scene, targets are chosen
from the active window's tree (``ground_targets``); for each one the pointer is parked, the screen
is grabbed, and the target's box centre is clicked with XTEST; the sample is kept only if the app
reports the intended element reacting (``ground_proof``). Every drop is counted by reason.

Two datasets are written from the same grabs (``write_dataset``): ``OUT/screen`` at the display's
resolution and ``OUT/scaled`` at the size the model sees (``observation.max_width x max_height``
through ``fit_scale``; boxes multiplied by the same scale, so a point in a scaled box maps back to
a pixel of the real box). ``OUT/report.json`` holds the numbers.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ...config import Config
from ...screen_scale import fit_scale, scaled_size
from ..samples import GroundSample, ScreenScale, write_dataset
from . import ground_targets as targets
from . import ground_text as text
from . import ground_tree as tree
from .ground_apps import APPS, AppSpec, Scene
from .ground_input import XInput, wait_for
from .ground_proof import Proof, Prover, Target

SCENE_CAP = 45
"""Most samples taken in one scene: the rest of an app's samples come from other scenes."""
QUIET_KINDS = ("menu", "submenu", "toggle", "check", "cell", "paragraph", "slide")
"""Kinds whose proven click leaves the other targets' boxes as they were (put back, or only the
focus moved): the tree is not read again after one (a toggle's state is read at its proof)."""
SETTLE_SECONDS = 0.25
"""Pause after parking the pointer before the grab: hover highlights fade, popups finish drawing."""


class AppReport(BaseModel):
    proven: int = 0
    dropped: dict[str, int] = Field(default_factory=dict)
    """Targets clicked and not proven, by reason."""
    skipped: dict[str, int] = Field(default_factory=dict)
    """Elements passed over before any click (unnamed, ambiguous, hidden), summed over reads."""
    kinds: dict[str, int] = Field(default_factory=dict)
    not_restored: int = 0
    """Proven samples whose element could not be put back (the next targets are read afresh)."""
    scenes: int = 0
    scenes_lost: int = 0
    """Scenes left early: their window was gone or covered and Escape did not bring it back."""
    seconds: float = 0.0
    phases: dict[str, float] = Field(default_factory=dict)
    """Seconds spent per phase: reset, read (trees), grab (screenshots written), prove (clicks)."""
    error: str | None = None


class GroundReport(BaseModel):
    out: str
    apps: dict[str, AppReport]
    proven: int
    seconds: float
    screen: tuple[int, int]
    scaled: tuple[int, int]
    scale: float


@dataclass
class Grab:
    """One screen grab in both sizes, as PNG files already written (shared by samples of one state)."""

    screen_file: str
    scaled_file: str


@dataclass
class Writer:
    """Writes grabs under OUT/screen and OUT/scaled, once per distinct screen content."""

    out: Path
    max_size: tuple[int, int]
    lock: threading.Lock = field(default_factory=threading.Lock)

    def grab(self, display: str, app: str) -> tuple[Grab, tuple[int, int], float]:
        from ...screen.frames import scale_frame, to_pil
        from ...screen.grabber import with_frame

        frame = with_frame(display, False, lambda f, _cursor, _sprite: f.copy())
        height, width = frame.shape[:2]
        scale = fit_scale(width, height, *self.max_size)
        digest = hashlib.sha1(frame.tobytes()).hexdigest()[:16]
        rel = f"images/{app}/{digest}.png"
        with self.lock:
            for sub, img in (("screen", frame), ("scaled", None)):
                path = self.out / sub / rel
                if path.exists():
                    continue
                path.parent.mkdir(parents=True, exist_ok=True)
                if img is None:
                    img = scale_frame(frame, scaled_size(width, height, scale))  # the model's scaling
                to_pil(img).save(path, format="PNG", optimize=False, compress_level=3)
        return Grab(rel, rel), (width, height), scale


def scene_task(scene: Scene) -> Any:
    from ...tasks.task import Step, Task
    from ...world.base import PACKAGE_ROOT

    return Task(id=f"ground-{scene.name}", instruction="(grounding dataset scene)", visual=True,
                toolkits=list(scene.toolkits), reset=[Step(name=n, params=p) for n, p in scene.reset],
                judge=[Step(name="files.exists", params={"path": "${WORKSPACE}"})],
                suite_dir=str(PACKAGE_ROOT / "task_suites" / "os"))


def ground_config(config: Config) -> Config:
    """The run's config with what grounding needs: worlds, an accessibility bus, one warm kernel."""
    cfg = config.model_copy(deep=True)
    cfg.observation.a11y = "tree"
    cfg.kernel.pool_size = 1
    return cfg


class AppRun:
    """Grounds one app: its scenes one after the other on one worker."""

    def __init__(self, spec: AppSpec, per_app: int, worker: Any, writer: Writer, seed: int,
                 log: Callable[[str], None]) -> None:
        self.spec = spec
        self.per_app = per_app
        self.worker = worker
        self.writer = writer
        self.rng = random.Random(f"{seed}-{spec.name}")
        self.log = log
        self.report = AppReport()
        self.samples: list[tuple[GroundSample, GroundSample]] = []
        self.skipped: Counter[str] = Counter()
        self.dropped: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()
        self.not_restored = 0
        self.phases: defaultdict[str, float] = defaultdict(float)
        self.menu_cache: dict[tuple[str, ...], list[Target]] = {}

    def run(self) -> None:
        from ...run.task_env import TaskEnv

        start = time.monotonic()
        scenes = self.spec.scenes(self.rng, max(3, self.per_app // 10 + 3))
        for scene in scenes:
            if len(self.samples) >= self.per_app:
                break
            self.report.scenes += 1
            cap = min(SCENE_CAP, self.per_app - len(self.samples))
            with TaskEnv(scene_task(scene), self.worker) as env:
                try:
                    t0 = time.monotonic()
                    env.reset()
                    self.phases["reset"] += time.monotonic() - t0
                    self._scene(env, scene, cap)
                except Exception as exc:  # noqa: BLE001 - one scene's failure is counted, the next one runs
                    self.report.scenes_lost += 1
                    self.dropped[f"scene failed: {type(exc).__name__}"] += 1
                    self.log(f"{self.spec.name}: scene {scene.name} failed: {type(exc).__name__}: {exc}")
        self.report.proven = len(self.samples)
        self.report.dropped = dict(self.dropped.most_common())
        self.report.skipped = dict(self.skipped.most_common())
        self.report.kinds = dict(self.kinds.most_common())
        self.report.not_restored = self.not_restored
        self.report.phases = {k: round(v, 1) for k, v in sorted(self.phases.items(), key=lambda kv: -kv[1])}
        self.report.seconds = round(time.monotonic() - start, 1)

    # -- one scene ----------------------------------------------------------------------------

    def _web_scene(self, env: Any, cap: int) -> None:
        from . import ground_web as web

        xin = XInput(env.display.name)
        page = web.Page(env)
        try:
            t0 = time.monotonic()
            origin = web.offset(page, xin)
            found, skipped = web.collect(page, origin, env.display.size, self.rng)
            self.phases["read"] += time.monotonic() - t0
            self.skipped.update(skipped)
            self.rng.shuffle(found)
            taken = 0
            for target in found:
                if taken >= cap:
                    break
                taken += self._sample(lambda t: web.prove(page, xin, t), xin, env.display.name, target).ok
        finally:
            page.close()
            xin.close()

    def _scene(self, env: Any, scene: Scene, cap: int) -> None:
        if self.spec.platform == "web":
            self._web_scene(env, cap)
            return
        bus, display = env.a11y_bus, env.display
        if bus is None:
            raise RuntimeError("the scene has no accessibility bus")
        size = display.size
        xin = XInput(display.name)
        try:
            prover = Prover(bus, xin)
            nodes = wait_for(lambda: self._read(bus, size, scene.window), 30.0, interval=0.5)
            if not nodes:
                raise RuntimeError(f"no window titled {scene.window!r} exports a tree")
            for role, name in scene.setup:
                nodes = self._click_by_name(bus, xin, size, role, name)
            window = nodes[0].name
            t0 = time.monotonic()
            menus = self._submenus(bus, xin, prover, size, window)
            self.phases["menus"] += time.monotonic() - t0
            done: set[tuple[str, str, str]] = set()
            taken = 0
            extra: list[Target] | None = None
            widgets: list[Target] = []
            stale = True
            while taken < cap:
                if stale:
                    nodes = self._read(bus, size, window)
                    if not nodes:
                        prover.close_popups(presses=2)
                        nodes = self._read(bus, size, window)
                        if not nodes:
                            self.report.scenes_lost += 1
                            return
                    if extra is None:
                        # An app's own elements (cells, paragraphs, slides) keep their boxes in a
                        # scene: found once (a sheet's cells take seconds to ask for).
                        found = targets.collect(nodes, size, self.rng, self._extras(bus, nodes))
                        extra = [t for t in found.targets if t.kind in targets.EXTRA_KINDS]
                    else:
                        found = targets.collect(nodes, size, self.rng)
                    self.skipped.update(found.skipped)
                    widgets = [t for t in found.targets if t.kind not in targets.EXTRA_KINDS]
                    stale = False
                pending = [t for t in [*widgets, *(extra or []), *menus] if targets.key(t) not in done]
                if not pending:
                    return
                # A kind first, then one of its targets: a sheet's thousand cells do not crowd out
                # its dozen menus.
                kind = self.rng.choice(sorted({t.kind for t in pending}))
                target = self.rng.choice([t for t in pending if t.kind == kind])
                done.add(targets.key(target))
                if target.prepare:
                    opened = self._open_submenu(bus, xin, size, widgets, target)
                    if opened is None:
                        self.dropped["submenu not found again"] += 1
                        prover.close_popups(presses=3)
                        stale = True
                        continue
                    target = opened
                proof = self._sample(prover.prove, xin, display.name, target)
                taken += proof.ok
                # What a click may have changed (a dialog's page, a toolbar's states): read again.
                stale = not (proof.ok and proof.restored and target.kind in QUIET_KINDS)
        finally:
            xin.close()

    def _read(self, bus: Any, size: tuple[int, int], window: str) -> list[tree.Node]:
        t0 = time.monotonic()
        try:
            nodes = tree.read_window(bus, size)
        except Exception:  # noqa: BLE001 - an app busy after a click: read again later
            return []
        finally:
            self.phases["read"] += time.monotonic() - t0
        return nodes if nodes and window in nodes[0].name else []

    def _read_menu(self, bus: Any, size: tuple[int, int], menu: tree.Ref) -> list[tree.Node]:
        """An open menu and its items (a few dozen objects, not the whole window)."""
        t0 = time.monotonic()
        try:
            return tree.read_window(bus, size, window=menu)
        except Exception:  # noqa: BLE001
            return []
        finally:
            self.phases["read"] += time.monotonic() - t0

    def _extras(self, bus: Any, nodes: list[tree.Node]) -> list[tuple[tree.Node, str, str]]:
        if self.spec.extras is None:
            return []
        t0 = time.monotonic()
        try:
            return self.spec.extras(bus, nodes)
        except Exception:  # noqa: BLE001 - the app's own elements are still targets
            return []
        finally:
            self.phases["read"] += time.monotonic() - t0

    def _click_by_name(self, bus: Any, xin: XInput, size: tuple[int, int], role: str, name: str) -> list[tree.Node]:
        """Click the element (role, name) of the active window, as a person would to open a dialog;
        return the tree of the active window after it."""
        want = text.clean_name(name).casefold()

        def find() -> tree.Node | None:
            try:
                nodes = tree.read_window(bus, size)
            except Exception:  # noqa: BLE001
                return None
            offsets = targets.lo_offsets(nodes)
            for node in nodes:
                if node.role == role and text.clean_name(node.name).casefold() == want:
                    rect = targets.fixed_rect(node, offsets.get(node.index), size, nodes)
                    if rect is not None:
                        node.visible = rect
                        return node
            return None

        node = wait_for(find, 20.0, interval=0.3)
        if node is None:
            raise RuntimeError(f"set-up: no {role} named {name!r} on the screen")
        before = [w[2] for w in tree.windows(bus)]
        assert node.visible is not None
        x0, y0, x1, y1 = node.visible
        xin.click((x0 + x1) // 2, (y0 + y1) // 2)
        time.sleep(0.5)
        if role == "menu item":  # a dialog: wait for its window to be the active one
            def dialog() -> list[tree.Node] | None:
                names = [w[2] for w in tree.windows(bus)]
                nodes = tree.read_window(bus, size)
                return nodes if nodes and names != before and nodes[0].role in ("dialog", "frame") and \
                    nodes[0].name not in before else None
            got = wait_for(dialog, 20.0, interval=0.5)
            if not got:
                raise RuntimeError(f"set-up: clicking {name!r} opened no dialog")
            time.sleep(0.5)
            return tree.read_window(bus, size)
        return tree.read_window(bus, size)

    def _submenus(self, bus: Any, xin: XInput, prover: Prover, size: tuple[int, int], window: str) -> list[Target]:
        """Submenu targets of every menu of the menu bar (each menu opened once to see them)."""
        nodes = self._read(bus, size, window)
        found = targets.collect(nodes, size, self.rng) if nodes else targets.Found()
        bar = tuple(t.name for t in found.targets if t.kind == "menu")
        if bar in self.menu_cache:  # the same menu bar as an earlier scene's: found again by name when used
            return self.menu_cache[bar]
        out: list[Target] = []
        self.menu_cache[bar] = out
        for menu in [t for t in found.targets if t.kind == "menu"]:
            xin.click(*menu.centre())
            opened = wait_for(lambda m=menu: {"selected", "expanded"} & (prover.states(m.ref) or frozenset()), 2.0)
            if opened:
                time.sleep(0.3)
                inner = self._read_menu(bus, size, menu.ref)
                out += [t for t in targets.collect(inner, size, self.rng).targets if t.kind == "submenu"]
            prover.close_popups(menu.ref)
        return out

    def _open_submenu(self, bus: Any, xin: XInput, size: tuple[int, int], widgets: list[Target],
                      target: Target) -> Target | None:
        parent = next((t for t in widgets if t.kind == "menu" and t.name == target.prepare[0]), None)
        if parent is None:
            return None
        xin.click(*parent.centre())
        time.sleep(0.4)

        def again() -> Target | None:
            inner = self._read_menu(bus, size, parent.ref)
            return next((t for t in targets.collect(inner, size, self.rng).targets
                         if targets.key(t) == targets.key(target)), None)

        return wait_for(again, 2.0, interval=0.2)

    def _sample(self, prove: Callable[[Target], Proof], xin: XInput, display: str, target: Target) -> Proof:
        t0 = time.monotonic()
        xin.park()
        time.sleep(SETTLE_SECONDS)
        grab, (width, height), scale = self.writer.grab(display, self.spec.name)
        t1 = time.monotonic()
        proof = prove(target)
        self.phases["grab"] += t1 - t0
        self.phases["prove"] += time.monotonic() - t1
        if not proof.ok:
            self.dropped[f"{proof.reason} ({target.kind})"] += 1
            return proof
        if not proof.restored:
            self.not_restored += 1
        if target.kind in ("toggle", "check") and \
                bool({"checked", "pressed"} & proof.before) != bool({"checked", "pressed"} & target.states):
            # Another click changed it since the tree was read: "turn on" must match what was seen.
            target.instruction = text.instruction(target.kind, target.name, self.rng,
                                                  checked=bool({"checked", "pressed"} & proof.before))
        n = len(self.samples)
        x0, y0, x1, y1 = target.rect
        common = {"id": f"{self.spec.name}-{n:04d}", "source": "deskact datasets ground",
                  "platform": self.spec.platform, "app": self.spec.name, "instruction": target.instruction,
                  "role": target.role, "name": target.name}
        real = GroundSample(image=grab.screen_file, width=width, height=height, box=[x0, y0, x1, y1],
                            screen=ScreenScale(screen_width=width, screen_height=height, scale=1.0), **common)
        sw, sh = scaled_size(width, height, scale)
        scaled = GroundSample(image=grab.scaled_file, width=sw, height=sh,
                              box=[x0 * scale, y0 * scale, x1 * scale, y1 * scale],
                              screen=ScreenScale(screen_width=width, screen_height=height, scale=scale), **common)
        self.samples.append((real, scaled))
        self.kinds[target.kind] += 1
        return proof


def generate(out: Path, config: Config, apps: list[str], per_app: int, workers: int = 1, seed: int = 0,
             log: Callable[[str], None] = print) -> GroundReport:
    """Make the grounding datasets under ``out`` (``screen/`` and ``scaled/``) and return the report."""
    from ...run.worker import Worker

    unknown = [a for a in apps if a not in APPS]
    if unknown:
        raise ValueError(f"unknown app(s) {', '.join(unknown)}; known: {', '.join(APPS)}")
    cfg = ground_config(config)
    out.mkdir(parents=True, exist_ok=True)
    writer = Writer(out, (cfg.observation.max_width, cfg.observation.max_height))
    start = time.monotonic()
    runs: dict[str, AppRun] = {}
    slots = threading.Semaphore(workers)
    worker_pool: list[Any] = []
    pool_lock = threading.Lock()

    def one(name: str) -> None:
        with slots:
            with pool_lock:
                worker = worker_pool.pop() if worker_pool else Worker(cfg, worker_id=len(runs))
            app_run = AppRun(APPS[name], per_app, worker, writer, seed, log)
            runs[name] = app_run
            try:
                app_run.run()
            except Exception as exc:  # noqa: BLE001 - the other apps still run
                app_run.report.error = f"{type(exc).__name__}: {exc}"
            log(f"{name}: {app_run.report.proven} proven, dropped {app_run.report.dropped or '{}'}"
                f" ({app_run.report.seconds:.0f} s)")
            with pool_lock:
                worker_pool.append(worker)

    try:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            list(pool.map(one, apps))
    finally:
        for worker in worker_pool:
            worker.close()
    pairs = [pair for name in apps for pair in runs[name].samples]
    description = ("UI grounding samples made in deskact worlds; each one proven by clicking its box centre "
                   "with real X input and reading the element's reaction from the accessibility tree.")
    write_dataset(out / "screen", [p[0] for p in pairs], kind="ground", name="deskact-ground-screen",
                  source="deskact datasets ground", description=description + " Display resolution.")
    write_dataset(out / "scaled", [p[1] for p in pairs], kind="ground", name="deskact-ground-scaled",
                  source="deskact datasets ground", description=description + " Scaled as the model sees it.")
    width, height = cfg.display.width, cfg.display.height
    scale = fit_scale(width, height, cfg.observation.max_width, cfg.observation.max_height)
    report = GroundReport(out=str(out), apps={name: runs[name].report for name in apps}, proven=len(pairs),
                          seconds=round(time.monotonic() - start, 1), screen=(width, height),
                          scaled=scaled_size(width, height, scale), scale=scale)
    (out / "report.json").write_text(report.model_dump_json(indent=2) + "\n")
    return report
