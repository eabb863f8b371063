"""Configuration: built-in defaults < config.yaml (or --config) < DESKACT_* env < CLI flags.

Every field has a default here and a comment in the shipped ``config.yaml``.
Unknown keys and wrong types are errors that name the source (file or
environment variable), the key path and the offending value.
"""

from __future__ import annotations

import difflib
import os
import typing
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PositiveInt, ValidationError, field_validator

from ..toolkits.builtin import DEFAULT_TOOLKITS
from . import safe_yaml
from .errors import ConfigError

ENV_PREFIX = "DESKACT_"


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, use_attribute_docstrings=True)


class KernelConfig(Section):
    startup_timeout: float = 30.0
    """Seconds to wait for a new kernel to answer."""
    interrupt_grace: float = 0.5
    """Seconds a kernel gets to become idle after an interrupt before it is restarted."""
    capture_limit_bytes: int = 4_000_000
    """Hard cap on stdout/stderr held in memory per execution (head and tail kept)."""
    model_output_chars: int = 8_000
    """Cap on output text shown to the model (middle-truncated with a marker)."""
    max_images: int = 8
    """Images kept per execution; the rest are counted, not stored."""
    max_image_bytes: int = 8_000_000
    """Images larger than this are dropped (and counted)."""
    pool_size: int = 1
    """Pre-started, preloaded kernels kept ready per worker."""
    fork_server: bool = True
    """With bwrap as root: fork kernels from a pre-imported one (~4x less CPU per start) instead of exec'ing Python."""


class SandboxConfig(Section):
    mode: Literal["auto", "none", "bwrap"] = "auto"
    """auto = bwrap where it works, else none (``deskact doctor`` says which)."""
    network: bool = False
    """Allow the kernel to reach the internet (bwrap mode). Loopback services deskact runs stay reachable."""
    memory_mb: int = 2048
    """RLIMIT_AS for the kernel. An idle kernel maps ~0.8 GB; below ~1024 it cannot start."""
    file_size_mb: int = 1024
    """RLIMIT_FSIZE: largest file the kernel may write."""
    open_files: int = 1024
    """RLIMIT_NOFILE."""
    cpu_seconds: int = 3600
    """RLIMIT_CPU for the kernel process tree."""
    max_processes: int = 256
    """Process limit inside the sandbox (enforced with a non-root uid)."""
    env_allow: list[str] = Field(
        default_factory=lambda: ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "DISPLAY"]
    )
    """Environment variables copied into the kernel. Everything else (API keys!) stays out."""


class WorldConfig(Section):
    enabled: Literal["auto", "on", "off"] = "auto"
    """One disposable world per task (run as root with bwrap): copy-on-write root, the agent root of it,
    the task's apps inside. auto = where ``deskact doctor`` finds the features; off = kernel-only sandbox."""
    memory_mb: int = 4096
    """Memory cgroup limit for everything in the world (kernel, apps, files in its /tmp and upper layer)."""
    max_processes: int = 1024
    """pids cgroup limit for the world (threads count: LibreOffice alone runs about 30)."""
    cpus: float = 2.0
    """CPU quota in cores (cgroup cpu.cfs_quota_us); 0 = no quota."""
    disk_mb: int = 2048
    """Size of the world's writable layer and workspace together (a size-limited tmpfs, charged to its memory cgroup)."""
    keep: bool = False
    """Keep each world's writable layer after the task (``--keep-worlds``), for debugging."""
    user: Literal["root", "user"] = "root"
    """Who the agent is in its world: ``root``, or ``user``: ``agent`` (uid 1000) with passwordless sudo.
    The apps a task opens run as the agent too; reset steps and judges' commands run as root."""

    @field_validator("enabled", mode="before")
    @classmethod
    def _yaml_on_off(cls, value: object) -> object:
        # YAML 1.1 reads a bare on/off (config file, DESKACT_WORLD_ENABLED=off) as a boolean.
        return {True: "on", False: "off"}.get(value, value) if isinstance(value, bool) else value


class DisplayConfig(Section):
    mode: Literal["virtual", "attach", "none"] = "virtual"
    """virtual = headless Xvfb per worker; attach = use $DISPLAY; none = API-only."""
    width: int = 1920
    height: int = 1080
    depth: int = 24
    window_manager: str = "openbox"
    """Window manager started on virtual displays (empty string for none)."""
    framebuffer_file: bool = True
    """Xvfb keeps its screen in a memory-mapped file (root-only, under /dev/shm) that screenshots read in
    place instead of asking the X server for a copy: 0.6-1.6 ms less per full-HD screenshot."""
    start_timeout: float = 15.0
    """Seconds to wait for the X server and window manager to answer."""
    vnc: bool = False
    """Serve virtual displays with x11vnc on 127.0.0.1 so a person can watch (no password: loopback only)."""
    vnc_port: int | None = None
    """x11vnc port; null = a free port (printed by ``deskact display up``)."""
    vnc_web: bool = False
    """Also show each VNC display in a browser: noVNC served by websockify on 127.0.0.1, its address
    printed per worker (implies vnc; ``deskact run --watch`` turns it on)."""


class ObservationConfig(Section):
    format: Literal["png", "jpeg"] = "jpeg"
    """Encoding of screenshots sent to the model: JPEG (libjpeg-turbo) is 5x faster to make than PNG
    and keeps small text legible at the quality below (benchmarks/screen.py checks it); PNG is lossless."""
    jpeg_quality: int = Field(default=85, ge=1, le=100)
    jpeg_subsampling: Literal["444", "422", "420"] = "420"
    """JPEG chroma subsampling: 4:2:0 (as most screenshot pipelines) is 30 % cheaper; 4:4:4 keeps coloured text sharper."""
    capture_threads: int = Field(default=2, ge=1, le=8)
    """Cores one screenshot is scaled and JPEG-encoded on at once, in bands of rows joined into one
    JPEG (the same pixels as one encode; about half the time on 2 cores). 1 = the calling thread only."""
    max_width: int = 1280
    """Screenshots are scaled down to fit; the model's coordinates are in the scaled image."""
    max_height: int = 800
    include_cursor: bool = True
    """Draw the mouse cursor into screenshots."""
    a11y: Literal["off", "tree", "tree+screenshot"] = "off"
    """Add the active window's accessibility tree (role, name, states, box in screenshot coordinates) to
    each observation: tree = instead of the screenshot, tree+screenshot = with it. Starts an AT-SPI bus in
    each task's world so GTK and LibreOffice apps export their trees (tasks with a11y.* judges get one too)."""
    unchanged: Literal["note", "resend"] = "note"
    """A screenshot identical to the last one the model saw: say so in a line instead of sending it
    again (note), or send it anyway (resend). Trajectories keep every frame either way."""
    record: bool = False
    """Record each task's display while the agent acts as trajectories/<task>/episode.mp4 (H.264, in a
    separate process; ``deskact run --record``)."""
    record_fps: float = Field(default=4.0, gt=0, le=30)
    """Frames grabbed per second for the episode video (a frame identical to the last is not stored)."""
    record_max_width: int = Field(default=960, ge=64)
    """Episode video frames are scaled to fit this width (aspect kept, never enlarged): 960 costs half
    of 1280 to scale and encode and still shows which window and dialog is where."""


class GuiConfig(Section):
    pause: float | None = None
    """pyautogui pause after each call; null = 0 in virtual mode, 0.05 in attach mode."""
    failsafe: bool | None = None
    """pyautogui fail-safe corner; null = off in virtual mode, on in attach mode."""


class ProviderConfig(Section):
    base_url: str | None = None
    """Server URL; null = the provider's default. For OpenAI-compatible servers set this."""
    api_key_env: str | None = None
    """Name of the environment variable holding the API key; null or "" = the server needs none (local servers)."""
    timeout: float = 120.0
    """Seconds one HTTP request may take, in all (a trickling server included), before it counts as a timeout (and is retried)."""
    temperature: float | None = 0.0
    """Sampling temperature; null = not sent (Anthropic API 2026-10-21 rejects it, so its default is null)."""
    max_tokens: int = 4096
    """Longest reply in tokens (OpenAI's own API receives it as max_completion_tokens)."""
    max_retries: int = 5
    """Retries on 408/429/5xx, timeouts and connection errors (the SDKs' own retries are off)."""
    backoff_initial: float = 1.0
    """First backoff in seconds; doubles each retry, with full jitter; Retry-After wins when given."""
    backoff_max: float = 60.0
    """Longest wait between two attempts, Retry-After included."""


class ProvidersConfig(Section):
    """Settings per model provider, keyed by its name: ``providers["openai"]``. A provider added by a
    package (entry point ``deskact.models``) is configured the same way, under its own name."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, ProviderConfig] = Field(init=False)

    anthropic: ProviderConfig = Field(
        default_factory=lambda: ProviderConfig(api_key_env="ANTHROPIC_API_KEY", temperature=None)
    )
    openai: ProviderConfig = Field(default_factory=lambda: ProviderConfig(api_key_env="OPENAI_API_KEY"))
    google: ProviderConfig = Field(default_factory=lambda: ProviderConfig(api_key_env="GEMINI_API_KEY"))

    def __getitem__(self, name: str) -> ProviderConfig:
        """A provider's settings; one nobody configured gets the defaults (no API key variable)."""
        found = self.by_name().get(name)
        if found is None:
            found = ProviderConfig()
            self.__pydantic_extra__[name] = found  # kept, so a caller's changes to it last
        return found

    def __contains__(self, name: object) -> bool:
        return name in self.by_name()

    def by_name(self) -> dict[str, ProviderConfig]:
        """Every configured provider's settings by name (the built-in three first)."""
        return {name: value for name, value in self if isinstance(value, ProviderConfig)}


class AgentConfig(Section):
    model: str | None = None
    """provider/model (anthropic/..., openai/..., google/...) or reference, noop, scripted/FILE, human; the
    model of a ``deskact run`` without --model (null = such a run is refused: no model is assumed)."""
    strategy: Literal["direct", "plan-act-reflect"] = "direct"
    max_steps: int = 15
    """Default step limit when a task sets none."""
    max_time: float = 300.0
    """Default wall-clock limit per episode (seconds) when a task sets none."""
    step_timeout: float = 60.0
    """Longest a single code block may run (further capped by the time left)."""
    no_code: Literal["finish", "parse_error"] = "finish"
    """A reply without code ends the episode (finish) or asks again (parse_error)."""
    max_parse_errors: int = 3
    """Consecutive unreadable replies before the episode ends with parse_error."""
    repetition_limit: int = 3
    """The same code this many times in a row ends the episode."""
    keep_screenshots: int = 3
    """Past screenshots kept in the conversation (older ones are replaced by a note)."""
    confirm: bool | None = None
    """Ask a person to approve each code block; null = on in attach display mode only."""


class ToolkitsConfig(Section):
    enabled: list[str] = Field(default_factory=lambda: list(DEFAULT_TOOLKITS))
    """Toolkits preloaded in every kernel: a built-in name, an entry point name or module:attr."""


class GoogleConfig(Section):
    backend: Literal["emulator", "google"] = "emulator"
    """emulator = local offline Google API emulator; google = the real APIs."""
    token_file: str | None = None
    """OAuth user token (authorized user JSON) for the real backend."""
    client_secrets_file: str | None = None
    """OAuth client secrets, used once by ``deskact google login``."""
    service_account_file: str | None = None
    """Service account key for the real backend (alternative to token_file)."""
    user: str = "me@deskact.test"
    """The emulated account's email address."""
    allow_wipe: bool = False
    """Let ``google.reset`` delete the events, mail and Drive files of a real account (use a throwaway one)."""
    max_request_mb: float = Field(64.0, gt=0, allow_inf_nan=False)
    """The emulator refuses (413, unread) a request body past this; resumable upload chunks stream to disk instead."""
    drive_quota_gb: float = Field(15.0, gt=0, allow_inf_nan=False)
    """The emulated Drive's storage quota (GiB): reported by about.get and enforced (403 storageQuotaExceeded)."""
    upload_session_ttl_s: float = Field(3600.0, gt=0, allow_inf_nan=False)
    """An unfinished resumable upload to the emulator, untouched this long, is dropped with its data."""


class RunnerConfig(Section):
    workers: int = Field(1, ge=1)
    out: str = "runs/{timestamp}"
    """Output folder; {timestamp} is replaced."""
    keep_workspace: bool = False
    workspace_root: str | None = None
    """Where per-task workspaces are created; null = the system temp dir."""
    progress: Literal["auto", "live", "lines", "totals"] = "auto"
    """auto = a live view on a terminal, a line per finished task elsewhere; live; lines; totals = only
    periodic totals and errors (a short log, as the demo prints)."""
    backend: Literal["thread", "ray"] = "thread"
    """thread = N worker threads in this process; ray = N Ray actors on a cluster (docs/distributed.md)."""
    ray_address: str | None = None
    """Ray cluster to join (e.g. ray://head:10001 or head:6379); null = RAY_ADDRESS, else a local Ray."""
    retries: int = Field(1, ge=0)
    """Reruns of a task whose Ray actor or node died mid-task; after that it is an error result."""
    ray_worker_cpus: float = Field(0.25, ge=0)
    """CPUs one Ray actor reserves on its node (tasks mostly wait on the model, so several share a core)."""
    keep_going: bool = False
    """Run every task even after a model error that would fail them all (a wrong key, model name or URL,
    a server that is down); false = the run stops after the first such task and says why."""


class ModelsConfig(Section):
    max_concurrency: dict[str, PositiveInt] = Field(default_factory=dict)
    """Most model calls in flight at once per provider, e.g. {anthropic: 8}; holds across all workers
    (with the Ray backend, across the whole cluster). A provider not listed is unlimited."""


class LimitsConfig(Section):
    """What a judge or host step may take from the runner (docs/steps.md, "Limits"): past a limit its
    verdict is ``error`` naming the limit, and the run goes on to the next task."""

    judge_seconds: float = Field(120.0, gt=0, allow_inf_nan=False)
    """Wall-clock limit of one judge (its own process is killed past it)."""
    judge_memory_mb: int = Field(2048, gt=0)
    """Memory one judge may allocate (address space beyond what the runner had when the judge started)."""
    reset_seconds: float = Field(600.0, gt=0, allow_inf_nan=False)
    """Wall-clock limit of one reset, before_judge or cleanup step (past it the task ends as an error)."""
    isolate_judges: bool = True
    """Run each judge in a child process of its own, forked by the judge server (the time and memory
    limits need it); false = in the runner's thread, with only the size checks."""
    file_mb: int = Field(64, gt=0)
    """Largest file a judge reads whole (text, JSON, YAML, CSV, config files, images)."""
    zip_mb: int = Field(256, gt=0)
    """Largest total uncompressed size of a zip a judge opens (docx, pptx, xlsx are zips)."""
    zip_entries: int = Field(10_000, gt=0)
    """Most members in a zip a judge opens."""
    zip_part_mb: int = Field(64, gt=0)
    """Largest uncompressed member of such a zip (a document part, a sheet)."""
    sheet_cells: int = Field(2_000_000, gt=0)
    """Most cells of a sheet (by its declared dimension) xlsx judges load."""


class Config(Section):
    kernel: KernelConfig = Field(default_factory=KernelConfig)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    world: WorldConfig = Field(default_factory=WorldConfig)
    display: DisplayConfig = Field(default_factory=DisplayConfig)
    observation: ObservationConfig = Field(default_factory=ObservationConfig)
    gui: GuiConfig = Field(default_factory=GuiConfig)
    providers: ProvidersConfig = Field(default_factory=ProvidersConfig)
    """Settings per model provider, by name. A provider from a package (``deskact.models`` entry point)
    takes the same keys under its own name, e.g. ``mine: {base_url: ...}`` or DESKACT_PROVIDERS_MINE_BASE_URL."""
    agent: AgentConfig = Field(default_factory=AgentConfig)
    toolkits: ToolkitsConfig = Field(default_factory=ToolkitsConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    google: GoogleConfig = Field(default_factory=GoogleConfig)
    runner: RunnerConfig = Field(default_factory=RunnerConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _set_path(tree: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        tree = tree.setdefault(key, {})
    tree[path[-1]] = value


def _env_key_path(model: type[BaseModel], rest: str) -> tuple[str, ...] | None:
    """Map ``AGENT_MAX_STEPS`` to ('agent', 'max_steps') by walking the schema.

    Field names contain underscores, so the split is decided by the schema:
    the longest field name that prefixes the rest wins.
    """
    for name in sorted(model.model_fields, key=len, reverse=True):
        upper = name.upper()
        if rest == upper:
            return (name,)
        if rest.startswith(upper + "_"):
            sub = model.model_fields[name].annotation
            if isinstance(sub, type) and issubclass(sub, BaseModel):
                tail = _env_key_path(sub, rest[len(upper) + 1 :])
                if tail:
                    return (name, *tail)
    return _extra_key_path(model, rest)


def _extra_key_path(model: type[BaseModel], rest: str) -> tuple[str, ...] | None:
    """``MINE_BASE_URL`` -> ('mine', 'base_url') in a section keyed by name (``providers``): the
    name is what precedes the longest key of its entries that ends the rest."""
    entry = _extra_type(model)
    if entry is None:
        return None
    for key in sorted(entry.model_fields, key=len, reverse=True):
        suffix = "_" + key.upper()
        if rest.endswith(suffix) and len(rest) > len(suffix):
            return (rest[: -len(suffix)].lower(), key)
    return None


def _extra_type(model: type[BaseModel]) -> type[BaseModel] | None:
    """The model each extra key of ``model`` holds (ProvidersConfig: ProviderConfig), if it takes extras."""
    if model.model_config.get("extra") != "allow":
        return None
    hint = typing.get_type_hints(model).get("__pydantic_extra__")
    args = typing.get_args(hint)
    return args[1] if len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], BaseModel) else None


def _sub_model(model: type[BaseModel], name: str) -> type[BaseModel] | None:
    field = model.model_fields.get(name)
    sub = field.annotation if field else None
    return sub if isinstance(sub, type) and issubclass(sub, BaseModel) else None


def _env_names(model: type[BaseModel], prefix: str = ENV_PREFIX) -> list[str]:
    """Every DESKACT_<SECTION>_<KEY> variable a user may set."""
    names = []
    for name in model.model_fields:
        sub = _sub_model(model, name)
        full = prefix + name.upper()
        names += _env_names(sub, full + "_") if sub else [full]
    return names


def _key_hint(loc: tuple[str, ...]) -> str:
    """``; did you mean runner.workers?`` for an unknown key ``runner.wrokers``, else ""."""
    model: type[BaseModel] | None = Config
    for key in loc[:-1]:
        model = (_sub_model(model, key) or _extra_type(model)) if model else None  # providers.<any name>
    if model is None:
        return ""
    hint = difflib.get_close_matches(loc[-1], list(model.model_fields), n=1)
    return f"; did you mean {'.'.join((*loc[:-1], hint[0]))}?" if hint else ""


def env_overrides(environ: Mapping[str, str]) -> tuple[dict[str, Any], dict[tuple[str, ...], str]]:
    """Read DESKACT_<SECTION>_<KEY> variables. Values are parsed as YAML (5, true, [a, b])."""
    tree: dict[str, Any] = {}
    sources: dict[tuple[str, ...], str] = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX) or name in ("DESKACT_CONFIG",):
            continue
        path = _env_key_path(Config, name[len(ENV_PREFIX) :])
        if path is None:
            hint = difflib.get_close_matches(name, _env_names(Config), n=1)
            raise ConfigError(f"environment variable {name}: no config key matches it"
                              + (f"; did you mean {hint[0]}?" if hint else ""))
        try:
            value = safe_yaml.load(raw, source=name) if raw.strip() else raw
        except yaml.YAMLError:
            value = raw
        _set_path(tree, path, value)
        sources[path] = f"environment variable {name}"
    return tree, sources


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = safe_yaml.load_file(path) or {}
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {safe_yaml.where(exc)}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of sections, got {type(data).__name__}")
    return data


def default_config_path() -> Path:
    """The commented config.yaml shipped with the package."""
    return Path(str(resources.files("deskact") / "config.yaml"))


def load_config(
    path: str | Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Config:
    """Build the effective config.

    ``path`` defaults to $DESKACT_CONFIG, else ./config.yaml if present.
    ``overrides`` is a nested dict from CLI flags (highest precedence).
    """
    environ = os.environ if environ is None else environ
    if path is None:
        path = environ.get("DESKACT_CONFIG") or ("config.yaml" if Path("config.yaml").is_file() else None)
    layers: list[tuple[str, dict[str, Any]]] = []
    if path is not None:
        layers.append((str(path), _read_yaml(Path(path))))
    env_tree, env_sources = env_overrides(environ)
    layers.append(("environment", env_tree))
    layers.append(("command-line flags", dict(overrides or {})))

    # Start from the full defaults so a layer may set one nested key alone.
    merged: dict[str, Any] = Config().model_dump()
    for _, layer in layers:
        merged = _merge(merged, layer)
    try:
        return Config.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, layers, env_sources)) from None


def _lookup(tree: Mapping[str, Any], loc: tuple[Any, ...]) -> bool:
    node: Any = tree
    for key in loc:
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def _explain(
    exc: ValidationError,
    layers: list[tuple[str, dict[str, Any]]],
    env_sources: dict[tuple[str, ...], str],
) -> str:
    lines = []
    for err in exc.errors():
        loc = tuple(str(p) for p in err["loc"])
        key = ".".join(loc)
        source = env_sources.get(loc)
        if source is None:
            for name, tree in reversed(layers):
                if _lookup(tree, loc):
                    source = name
                    break
        what = "unknown key" + _key_hint(loc) if err["type"] == "extra_forbidden" else err["msg"]
        lines.append(f"{source or 'config'}: {key} = {err.get('input')!r}: {what}")
    return "invalid configuration:\n  " + "\n  ".join(lines)


def render_defaults() -> str:
    """The default config as commented YAML (this is what ships as config.yaml)."""
    out = [
        "# deskact configuration: every default, with what it does.",
        "# Precedence: these defaults < this file (or --config FILE) < environment",
        "# variables DESKACT_<SECTION>_<KEY> (e.g. DESKACT_AGENT_MAX_STEPS=5) < CLI flags.",
        "",
    ]

    def emit(model: BaseModel, indent: int) -> None:
        pad = "  " * indent
        for name, field in type(model).model_fields.items():
            value = getattr(model, name)
            if field.description:
                out.extend(f"{pad}# {line.strip()}" for line in field.description.splitlines())
            if isinstance(value, BaseModel):
                out.append(f"{pad}{name}:")
                emit(value, indent + 1)
                if indent == 0:
                    out.append("")
            else:
                dumped = yaml.safe_dump(value, default_flow_style=True, width=1000).strip()
                dumped = dumped.removesuffix("\n...").removesuffix("...").strip()
                out.append(f"{pad}{name}: {dumped}")

    emit(Config(), 0)
    return "\n".join(out).rstrip() + "\n"
