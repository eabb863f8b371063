"""The run manifest, ``run.json``: what ran, with what, where and when.

Written when a run begins (``status: running``) and completed when its results file closes, so a
run folder says which command, model, model settings, config and deskact produced its results.
``--resume`` reads it back and refuses a different model or config (``--force`` mixes them)."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..config import Config
from ..errors import DeskactError

MANIFEST_FILE = "run.json"
RunStatus = Literal["running", "finished", "interrupted", "stopped"]
RESULT_NEUTRAL = ("runner", "display.vnc", "display.vnc_port", "display.vnc_web", "world.keep",
                  "observation.record", "agent.model")
"""Config keys that change how a run is carried out or watched, not its results: a resume may differ
in them (agent.model is compared on its own)."""


class HostFacts(BaseModel):
    """The machine the run's driver ran on."""

    hostname: str = ""
    platform: str = ""
    """OS and kernel, as ``platform.platform()`` says."""
    python: str = ""
    cpus: int = 0
    memory_gb: float = 0.0
    """Total memory, from /proc/meminfo (0 where it cannot be read)."""


class Resumed(BaseModel):
    """One ``--resume`` of the run."""

    at: datetime
    command: list[str] = Field(default_factory=list)
    model: str = ""
    forced: bool = False
    """``--force``: the model or config differed from the run's and the resume went on anyway."""


class RunManifest(BaseModel):
    """``run.json`` in a run folder."""

    schema_version: int = 1
    """1 is the first version."""
    command: list[str] = Field(default_factory=list)
    """The command line that started the run (``deskact run ...``); empty when a program built the run."""
    model: str
    """The model name the run used (``--model``)."""
    model_settings: dict[str, Any] = Field(default_factory=dict)
    """The provider's settings the model ran with (``providers.<name>``: URL, temperature, max_tokens, retries);
    empty for offline models."""
    paths: list[str] = Field(default_factory=list)
    """Suites and task files given."""
    tasks_glob: str | None = None
    epochs: int = 1
    workers: int = 1
    attempts: int = 0
    """Attempts the whole run holds (tasks x epochs, invalid tasks included; a resume's kept results too)."""
    config: dict[str, Any] = Field(default_factory=dict)
    """The resolved config (files, environment and flags merged) the run used."""
    deskact_version: str = ""
    git_commit: str | None = None
    """The checkout's commit when deskact runs from a git checkout (with ``+dirty`` when files differ)."""
    host: HostFacts = Field(default_factory=HostFacts)
    started_at: datetime
    ended_at: datetime | None = None
    """When the results file closed: null while the run goes on (or when it was killed)."""
    status: RunStatus = "running"
    """finished; interrupted (Ctrl-C, SIGTERM); stopped (a model error every task would hit); running."""
    stop_reason: str | None = None
    """Why a stopped run stopped."""
    resumed: list[Resumed] = Field(default_factory=list)
    totals: dict[str, int] = Field(default_factory=dict)
    """Results by status when the run ended (every result, those kept from earlier runs included)."""


def manifest_path(out: Path) -> Path:
    return out / MANIFEST_FILE


def read_manifest(out: Path) -> RunManifest | None:
    """The run folder's manifest; None for a folder written before manifests or an unreadable one."""
    path = manifest_path(out)
    try:
        return RunManifest.model_validate_json(path.read_text())
    except (OSError, ValueError):
        return None


def write_manifest(out: Path, manifest: RunManifest) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = manifest_path(out).with_suffix(".json.tmp")
    tmp.write_text(manifest.model_dump_json(indent=1) + "\n")
    tmp.replace(manifest_path(out))  # a reader never sees half a file


def now() -> datetime:
    return datetime.now(UTC)


def new_manifest(config: Config, model: str, *, command: list[str], paths: list[str], tasks_glob: str | None,
                 epochs: int, workers: int) -> RunManifest:
    from ... import __version__

    return RunManifest(command=command, model=model, model_settings=model_settings(config, model), paths=paths,
                       tasks_glob=tasks_glob, epochs=epochs, workers=workers, config=config.model_dump(mode="json"),
                       deskact_version=__version__, git_commit=git_commit(Path(__file__).parents[2]),
                       host=host_facts(), started_at=now())


def model_settings(config: Config, model: str) -> dict[str, Any]:
    provider, slash, _ = model.partition("/")
    if not slash or provider not in config.providers:
        return {}
    return config.providers[provider].model_dump(mode="json")


def resume_differences(manifest: RunManifest, model: str, config: Config) -> list[str]:
    """What a resume would change that its results depend on: the model and config keys, 'key: old -> new'."""
    found = [f"model: {manifest.model} -> {model}"] if manifest.model != model else []
    old, new = _flat(manifest.config), _flat(config.model_dump(mode="json"))
    for key in sorted(set(old) | set(new)):
        if any(key == n or key.startswith(n + ".") for n in RESULT_NEUTRAL):
            continue
        if old.get(key) != new.get(key):
            found.append(f"{key}: {old.get(key)!r} -> {new.get(key)!r}")
    return found


def check_resume(out: Path, model: str, config: Config, force: bool) -> bool:
    """Refuse to resume a run with another model or config (unless ``force``); True when it was forced."""
    manifest = read_manifest(out)
    if manifest is None:
        return False
    changes = resume_differences(manifest, model, config)
    if changes and not force:
        some = "; ".join(changes[:5]) + (f"; and {len(changes) - 5} more" if len(changes) > 5 else "")
        raise DeskactError(f"--resume: {manifest_path(out)} was run differently ({some}): resuming would mix "
                           "two setups' results in one run; use another --out, or --force to mix them")
    return bool(changes)


def _flat(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(_flat(value, name + "."))
        else:
            out[name] = value
    return out


def git_commit(folder: Path) -> str | None:
    """HEAD of the checkout deskact runs from (None when it is not one, or git is missing)."""
    if not (folder / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, timeout=20, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if changed else "")


def host_facts() -> HostFacts:
    return HostFacts(hostname=socket.gethostname(), platform=platform.platform(), python=platform.python_version(),
                     cpus=os.cpu_count() or 0, memory_gb=_memory_gb())


def _memory_gb() -> float:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return 0.0
