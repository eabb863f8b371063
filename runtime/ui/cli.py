"""The ``deskact`` command. Each command is a few lines; the logic lives in its module."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from ... import __version__
from ..errors import DeskactError
from .consoles import output_console

app = typer.Typer(
    help="deskact: run code-as-action computer agents in sandboxed kernels on real desktops.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = output_console(stderr=True)

ConfigOpt = typer.Option(None, "--config", "-c", help="Config file (default: $DESKACT_CONFIG or ./config.yaml).")
KEEP_WORLDS_HELP = ("Keep each task's world after it (writable layers in DIR/disk/upper, workspace in "
                    "DIR/disk/workspace) for debugging; the dirs are printed and linked as trajectories/TASK/world.")


def _version(value: bool) -> None:
    if value:
        print(f"deskact {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """deskact: run code-as-action computer agents in sandboxed kernels on real desktops."""
    _reap_leftovers()


def _reap_leftovers() -> None:
    """What a deskact process killed with -9 left (mounts, cgroups, worlds, framebuffer files,
    transcripts) goes when the next command starts; never a reason for the command to fail."""
    from ..world.reaper import reap_all

    try:
        reap_all()
    except Exception:  # noqa: BLE001, S110 - the next command tries again
        pass


def config_from(path: Path | None, **flags: Any) -> Any:
    """Load config; ``flags`` are dotted keys ("agent.model") set only when not None."""
    from ..config import load_config

    overrides: dict[str, Any] = {}
    for dotted, value in flags.items():
        if value is None:
            continue
        section, _, key = dotted.partition("__")
        overrides.setdefault(section, {})[key] = value
    return load_config(path, overrides)


def fail(exc: DeskactError) -> None:
    # Shown as written: no markup from "[...]", no emoji from ":name:" (module:attr paths).
    console.print(f"[red]error:[/red] {escape(str(exc))}", emoji=False)
    raise typer.Exit(2)


def check_workers(workers: int | None) -> None:
    """``--workers 0`` is a mistake, not a request for one worker."""
    if workers is not None and workers < 1:
        fail(DeskactError(f"--workers {workers}: must be at least 1 (the number of tasks run at once)"))


def check_sandbox(sandbox: str | None) -> None:
    """``--sandbox`` of exec and validate: refused here, in one line, before any config loads."""
    if sandbox not in (None, "none", "bwrap", "auto"):
        fail(DeskactError(f"--sandbox {sandbox!r}: expected none or bwrap"))


def run() -> None:
    """Entry point that turns DeskactError into a clean message and exit code 2."""
    try:
        app()
    except DeskactError as exc:
        console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)


@app.command("run")
def run_cmd(
    paths: list[Path] = typer.Argument(..., help="Suite folders, task YAML files, or built-in suite names (os, office; see deskact suites)."),
    model: list[str] | None = typer.Option(None, "--model", "-m", help="provider/model, reference, noop, explore, scripted/FILE, human "
                                           "(default: agent.model). Several: each runs in OUT/<model>, then they are compared."),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Tasks run at once, each with its own display and kernels."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Output folder (default: runner.out)."),
    tasks: str | None = typer.Option(None, "--tasks", "-t", help="Only task ids matching this glob (comma-separated globs allowed)."),
    limit: int | None = typer.Option(None, "--limit", help="Only the first N tasks (in suite order, after --tasks)."),
    sample: int | None = typer.Option(None, "--sample", help="Only N tasks drawn at random (after --tasks; the same N for the same --seed)."),
    seed: int = typer.Option(0, "--seed", help="Seed of --sample."),
    max_steps: int | None = typer.Option(None, "--max-steps", help="Step limit of tasks that set none (agent.max_steps)."),
    temperature: float | None = typer.Option(None, "--temperature", help="Sampling temperature of the model's provider "
                                             "(providers.<name>.temperature)."),
    resume: bool = typer.Option(False, "--resume", help="Skip tasks already judged in OUT/results.jsonl (refused when "
                                "OUT/run.json names another model or config)."),
    force: bool = typer.Option(False, "--force", help="With --resume: go on even with another model or config than OUT/run.json's."),
    keep: bool = typer.Option(False, "--keep", help="Keep each task's workspace."),
    strategy: str | None = typer.Option(None, "--strategy", help="direct or plan-act-reflect."),
    sandbox: str | None = typer.Option(None, "--sandbox", help="none, bwrap or auto."),
    keep_worlds: bool = typer.Option(False, "--keep-worlds", help=KEEP_WORLDS_HELP),
    backend: str | None = typer.Option(None, "--backend", help="thread (this machine) or ray (a Ray cluster; docs/distributed.md)."),
    address: str | None = typer.Option(None, "--address", help="Ray cluster address for --backend ray "
                                       "(default: runner.ray_address, $RAY_ADDRESS, else a local Ray)."),
    epochs: int = typer.Option(1, "--epochs", help="Run each task N times; the summary and report show pass@k and the spread."),
    watch: bool = typer.Option(False, "--watch", help="Show each worker's display in a browser (noVNC on 127.0.0.1; addresses printed as workers start)."),
    progress: str | None = typer.Option(None, "--progress",
                                        help="auto (live on a terminal, a line per task elsewhere), live, lines, or totals (only totals and errors)."),
    record: bool = typer.Option(False, "--record", help="Record each task's display as trajectories/<task>/episode.mp4 (observation.record)."),
    keep_going: bool = typer.Option(False, "--keep-going", help="Run every task even after a model error that fails them all alike "
                                    "(a wrong key, model name or URL, a server that is down); default: stop after the first (runner.keep_going)."),
    config: Path | None = ConfigOpt,
) -> None:
    """Run task suites headless and write results.jsonl, run.json, trajectories and a report."""
    from ..run.runner import RunOptions, default_out_dir
    from .progress import PROGRESS_MODES
    from .run_command import compare_models, model_folder, print_models, run_one, with_model
    from .watch import check_watch

    check_workers(workers)
    for flag, value, what in (("--epochs", epochs, "how many times each task runs"), ("--limit", limit, "tasks run"),
                              ("--sample", sample, "tasks drawn"), ("--max-steps", max_steps, "steps a task may take")):
        if value is not None and value < 1:
            fail(DeskactError(f"{flag} {value}: must be at least 1 ({what})"))
    if progress is not None and progress not in PROGRESS_MODES:
        fail(DeskactError(f"--progress {progress!r}: expected one of {', '.join(PROGRESS_MODES)}"))
    models = list(dict.fromkeys(model or []))
    try:
        cfg = config_from(config, agent__model=models[0] if models else None, runner__workers=workers,
                          agent__strategy=strategy, agent__max_steps=max_steps,
                          runner__keep_workspace=keep or None, sandbox__mode=sandbox,
                          world__keep=keep_worlds or None, runner__backend=backend, runner__ray_address=address,
                          runner__progress=progress, runner__keep_going=keep_going or None,
                          display__vnc_web=watch or None, observation__record=record or None)
        check_watch(cfg, watch)
        if cfg.agent.model is None:
            raise DeskactError("no model to run: pass --model (provider/model, reference, noop, explore, "
                               "scripted/FILE, human) or set agent.model in the config")
        if not models:  # never silently: a default model's 100 % is not a result
            console.print(f"model: {cfg.agent.model} (agent.model from the config; --model overrides it)",
                          markup=False, highlight=False)
            models = [cfg.agent.model]
        base = out or default_out_dir(cfg)
        runs = [(m, model_folder(base, m) if len(models) > 1 else base) for m in models]
        codes = []
        for m, folder in runs:
            if len(runs) > 1:
                console.print(f"[bold]model {escape(m)}[/] -> {escape(str(folder))}")
            opts = RunOptions(paths=[str(p) for p in paths], model=m, out=folder, workers=cfg.runner.workers,
                              tasks_glob=tasks, limit=limit, sample=sample, seed=seed, resume=resume, epochs=epochs,
                              keep_going=cfg.runner.keep_going, force=force, command=["deskact", *sys.argv[1:]])
            codes.append(run_one(console, with_model(cfg, m, temperature), opts))
        if len(runs) > 1:
            print_models(output_console(), compare_models(base, runs))
            console.print(f"comparison: {base}/comparison.json")
    except DeskactError as exc:
        fail(exc)
    except KeyboardInterrupt:  # before a run began (a run's own Ctrl-C exits 130 from run_one)
        raise typer.Exit(130) from None
    raise typer.Exit(max(codes))


def _print_kept_worlds(out_dir: Path) -> None:
    from .run_command import print_kept_worlds

    print_kept_worlds(console, out_dir)


@app.command("validate")
def validate_cmd(
    paths: list[Path] = typer.Argument(..., help="Suite folders, task YAML files, or built-in suite names (os, office; see deskact suites)."),
    workers: int | None = typer.Option(None, "--workers", "-w"),
    tasks: str | None = typer.Option(None, "--tasks", "-t", help="Only task ids matching this glob."),
    no_explore: bool = typer.Option(False, "--no-explore", help="Skip the explore pass (only looking around must fail)."),
    sandbox: str | None = typer.Option(None, "--sandbox", help="none or bwrap (default sandbox.mode)."),
    keep_worlds: bool = typer.Option(False, "--keep-worlds", help=KEEP_WORLDS_HELP),
    out: Path | None = typer.Option(None, "--out", "-o", help="Keep each pass's run folder (results, trajectories) "
                                    "as OUT/<model>, e.g. for deskact datasets critic (default: a temporary folder)."),
    config: Path | None = ConfigOpt,
) -> None:
    """Check every task: its reference must pass; doing nothing (noop), only looking around (explore) and each of its counterexamples must fail."""
    import tempfile

    from ..run.validate import validate

    check_workers(workers)
    check_sandbox(sandbox)
    out = out or Path(tempfile.mkdtemp(prefix="deskact-validate-"))
    try:
        cfg = config_from(config, runner__workers=workers, sandbox__mode=sandbox, world__keep=keep_worlds or None)
        problems, checked = validate(cfg, [str(p) for p in paths], cfg.runner.workers, tasks,
                                     out=out, explore=not no_explore)
    except DeskactError as exc:
        fail(exc)
    _print_kept_worlds(out)
    for p in problems:
        if p.status == "invalid":  # not run: its errors are the whole story
            console.print(f"[red]INVALID[/] {escape(p.detail)}")
        else:
            console.print(f"[red]FAIL[/] {p.task_id} with {p.model}: {p.status}, reward {p.reward}: {escape(p.detail)}")
    bad = len({p.task_id for p in problems})
    console.print(f"{checked - bad}/{checked} tasks valid")
    raise typer.Exit(1 if problems else 0)


@app.command("record")
def record_cmd(
    suite: Path = typer.Argument(..., help="The suite folder or task file that holds the task (or a built-in suite name)."),
    task: str = typer.Option(..., "--task", "-t", help="The task's id."),
    save_as: str = typer.Option("reference", "--as", help="reference (written when the demonstration passes the judges) "
                                "or counterexample (written when it fails them)."),
    note: str = typer.Option("", "--note", help="A counterexample's note: what is wrong with it."),
    no_write: bool = typer.Option(False, "--no-write", help="Leave the task's YAML alone; only the run folder."),
    out: Path | None = typer.Option(None, "--out", "-o", help="The run folder to write (default: beside the runs)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the default browser."),
    tree: bool | None = typer.Option(None, "--tree/--no-tree", help="Read the accessibility tree, so clicks are by "
                                     "element name (default: as observation.a11y; record as validate will run)."),
    config: Path | None = ConfigOpt,
) -> None:
    """Record a person doing a task in the browser (noVNC); the recording becomes a trajectory and the task's reference. See docs/recording.md."""
    from .record_cmd import run_record

    if save_as not in ("reference", "counterexample"):
        fail(DeskactError(f"--as {save_as!r}: expected reference or counterexample"))
    try:
        outcome = run_record(config_from(config), str(suite), task, out, save_as, note,  # type: ignore[arg-type]
                             not no_write, console, open_browser, tree)
    except DeskactError as exc:
        fail(exc)
    raise typer.Exit(0 if outcome.written or no_write else 1)


@app.command("exec")
def exec_cmd(
    code: str = typer.Argument(..., help="Python code (IPython syntax: !cmd and %magic work); - reads stdin."),
    timeout: float | None = typer.Option(None, "--timeout", help="Seconds before interrupt/restart (default agent.step_timeout)."),
    as_json: bool = typer.Option(False, "--json", help="Print the ExecResult as one JSON object."),
    images: str = typer.Option("count", "--images", help="With --json: count (sizes only) or base64."),
    sandbox: str | None = typer.Option(None, "--sandbox", help="none or bwrap (default sandbox.mode)."),
    config: Path | None = ConfigOpt,
) -> None:
    """Run CODE in a fresh preloaded session exactly as the agent would. Exit 0 whatever the code did."""
    from .exec_code import render_json, render_text, run_code

    check_sandbox(sandbox)
    try:
        cfg = config_from(config, sandbox__mode=sandbox)
        source = sys.stdin.read() if code == "-" else code
        result = run_code(source, cfg, timeout if timeout is not None else cfg.agent.step_timeout)
    except DeskactError as exc:
        fail(exc)
    print(render_json(result, images) if as_json else render_text(result))


@app.command("schema")
def schema_cmd(out: Path | None = typer.Option(None, "--out", help="Write here instead of stdout.")) -> None:
    """Print the JSON Schema of the task format (shipped as task_suites/schema.json)."""
    import json

    from ..tasks.task import json_schema

    text = json.dumps(json_schema(), indent=1) + "\n"
    if out:
        out.write_text(text)
    else:
        print(text, end="")


@app.command("tasks")
def tasks_cmd(
    paths: list[Path] = typer.Argument(..., help="Suite folders, task YAML files, or built-in suite names (os, office)."),
    tasks: str | None = typer.Option(None, "--tasks", "-t", help="Only task ids matching this glob (comma-separated globs allowed)."),
    long: bool = typer.Option(False, "--long", "-l", help="Also the suite, visual or api, and tags (tab-separated)."),
    config: Path | None = ConfigOpt,
) -> None:
    """List the task ids of suites, one a line (tasks that do not load go to stderr, exit 1)."""
    from .tasks_view import list_tasks

    try:
        invalid = list_tasks(console, [str(p) for p in paths],
                             config_from(config).toolkits.enabled, tasks, long)
    except DeskactError as exc:
        fail(exc)
    raise typer.Exit(1 if invalid else 0)


@app.command("suites")
def suites_cmd() -> None:
    """List the built-in suites (run or validate one by name from anywhere: deskact run os)."""
    from ..tasks.suites import suite_infos
    from .suites_view import print_suites

    print_suites(output_console(), suite_infos())


@app.command("doctor")
def doctor_cmd(config: Path | None = ConfigOpt) -> None:
    """List what this machine has and lacks for each capability, with the command to fix it."""
    from rich.table import Table

    from .doctor import run_checks, world_verdict

    try:
        checks = run_checks(config_from(config))
    except DeskactError as exc:
        fail(exc)
    table = Table(title="deskact doctor")
    for col in ("capability", "item", "", "detail", "fix"):
        table.add_column(col)
    for c in checks:
        table.add_row(c.capability, c.item, "[green]ok[/]" if c.ok else "[red]missing[/]", c.detail, c.fix)
    output_console().print(table)
    output_console().print(world_verdict(checks), markup=False, highlight=False)


@app.command("ray-resources")
def ray_resources_cmd(
    displays: int = typer.Option(4, "--displays", help="Display workers this node may hold at once."),
    config: Path | None = ConfigOpt,
) -> None:
    """Print the Ray resources JSON for this node: ray start --resources "$(deskact ray-resources)"."""
    import json

    from ..run.ray_backend import node_resources

    print(json.dumps(node_resources(config_from(config), displays)))


toolkit_app = typer.Typer(help="Toolkits: the helpers preloaded into the agent's kernel.", no_args_is_help=True)
app.add_typer(toolkit_app, name="toolkit")


@toolkit_app.command("docs")
def toolkit_docs_cmd(
    name: str = typer.Argument(..., help="gui, google, an entry-point name, or module:attr."),
    markdown: bool = typer.Option(False, "--markdown", help="A standalone reference page (docs/gui.md is this for gui)."),
) -> None:
    """Print exactly what the model reads about toolkit NAME in its system prompt."""
    from .toolkit_docs import toolkit_docs, toolkit_markdown

    try:
        print(toolkit_markdown(name) if markdown else toolkit_docs(name), end="" if markdown else "\n")
    except DeskactError as exc:
        fail(exc)


emulate_app = typer.Typer(help="Run local API emulators.", no_args_is_help=True)
app.add_typer(emulate_app, name="emulate")


@emulate_app.command("google")
def emulate_google_cmd(
    port: int = typer.Option(8085, "--port", "-p", help="TCP port on 127.0.0.1 (0 = any free port)."),
    socket: Path | None = typer.Option(None, "--socket", help="Also serve on this Unix socket."),
    admin_socket: Path | None = typer.Option(
        None, "--admin-socket",
        help="Serve the admin API (/_emulator/: reset, snapshots) only on this Unix socket (0600); "
             "the port and --socket then answer it with 403. Without it, every endpoint serves it."),
    no_tcp: bool = typer.Option(False, "--no-tcp", help="Serve only on --socket."),
    state: Path | None = typer.Option(None, "--state", help="State folder (SQLite + snapshots); default in memory."),
    config: Path | None = ConfigOpt,
) -> None:
    """Serve the Google Workspace API emulator (Calendar, Gmail, Drive, Sheets, Docs, Slides, Forms)."""
    from ...toolkits.google.emulator.cli import serve

    serve(port=None if no_tcp else port, socket_path=socket, admin_socket=admin_socket, state_dir=state,
          user=config_from(config).google.user)


google_app = typer.Typer(help="The Google Workspace toolkit's real-account backend.", no_args_is_help=True)
app.add_typer(google_app, name="google")


@google_app.command("login")
def google_login_cmd(
    no_browser: bool = typer.Option(False, "--no-browser", help="Print the consent URL instead of opening a browser."),
    port: int = typer.Option(0, "--port", help="Local port for the OAuth redirect (0 = any free one)."),
    config: Path | None = ConfigOpt,
) -> None:
    """One-time OAuth consent for a real Google account; saves google.token_file."""
    from ...toolkits.google.auth import login

    try:
        path = login(config_from(config).google, open_browser=not no_browser, port=port)
    except DeskactError as exc:
        fail(exc)
    console.print(f"token saved to {path}; set google.backend: google to use it")


from .import_cmd import import_app  # noqa: E402  (deskact import osworld|agentstudio)

app.add_typer(import_app, name="import")

from .datasets_cmd import app as datasets_app  # noqa: E402  (deskact datasets idm|critic|truncated)

app.add_typer(datasets_app, name="datasets")

display_app = typer.Typer(help="Virtual X displays.", no_args_is_help=True)
app.add_typer(display_app, name="display")


@display_app.command("up")
def display_up_cmd(
    width: int | None = typer.Option(None, "--width", help="Screen width (default: display.width)."),
    height: int | None = typer.Option(None, "--height", help="Screen height (default: display.height)."),
    vnc: bool | None = typer.Option(None, "--vnc/--no-vnc", help="Serve it with x11vnc on 127.0.0.1."),
    vnc_port: int | None = typer.Option(None, "--vnc-port", help="x11vnc port (default: a free one)."),
    web: bool | None = typer.Option(None, "--web/--no-web", help="Also show it in a browser (noVNC on 127.0.0.1; implies --vnc)."),
    config: Path | None = ConfigOpt,
) -> None:
    """Start a virtual display (Xvfb + window manager), print DISPLAY=:N, keep it until Ctrl-C."""
    from ..world.display import serve_until_interrupted

    try:
        cfg = config_from(config, display__width=width, display__height=height, display__vnc=vnc,
                          display__vnc_port=vnc_port, display__vnc_web=web)
        serve_until_interrupted(cfg.display)
    except DeskactError as exc:
        fail(exc)



@app.command("eval")
def eval_cmd(
    datasets: list[Path] = typer.Argument(..., help="Dataset folders (dataset.yaml + samples.jsonl; docs/evaluation.md)."),
    model: str = typer.Option(..., "--model", "-m", help="reference (the oracle), noop, centre, majority, or provider/model."),
    workers: int = typer.Option(1, "--workers", "-w", help="Samples asked at once (threads, one model each)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Output folder (default: runs/eval-MODEL-TIME)."),
    resume: bool = typer.Option(False, "--resume", help="Keep the samples already scored in OUT/results.jsonl."),
    limit: int | None = typer.Option(None, "--limit", help="Only the first N samples of each dataset."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write OUT/report/index.html (samples drawn with gold and prediction)."),
    config: Path | None = ConfigOpt,
) -> None:
    """Score a model on step-level datasets (grounding, IDM, critic, action steps); see docs/evaluation.md."""
    from ..evaluation.eval_run import EvalOptions
    from .eval_cmd import default_out, eval_command

    check_workers(workers)
    if limit is not None and limit < 1:
        fail(DeskactError(f"--limit {limit}: must be at least 1 (samples per dataset)"))
    try:
        opts = EvalOptions(datasets=[str(d) for d in datasets], model=model, out=out or default_out(model),
                           workers=workers, resume=resume, limit=limit, report=report,
                           command=["deskact", *sys.argv[1:]])
        code = eval_command(console, output_console(), config_from(config), opts)
    except DeskactError as exc:
        fail(exc)
    raise typer.Exit(code)


@app.command("report")
def report_cmd(run_dir: Path = typer.Argument(..., help="A run folder (holds results.jsonl).")) -> None:
    """Write the static HTML report of a run (RUN_DIR/report/index.html); print its path."""
    from .report import write_report

    try:
        print(write_report(run_dir))
    except DeskactError as exc:
        fail(exc)


@app.command("compare")
def compare_cmd(
    run_a: Path = typer.Argument(..., help="The baseline run folder."),
    run_b: Path = typer.Argument(..., help="The run folder to compare with it."),
    as_json: bool = typer.Option(False, "--json", help="Print the comparison as one JSON object."),
) -> None:
    """Tasks that changed outcome between two runs, and their summaries side by side."""
    from .report import compare_runs, print_compare

    try:
        result = compare_runs(run_a, run_b)
    except DeskactError as exc:
        fail(exc)
    if as_json:
        print(result.model_dump_json(indent=1))
    else:
        print_compare(output_console(), result)


@app.command("view")
def view_cmd(
    run_dirs: list[Path] = typer.Argument(None, help="Run folders, or folders holding them (default: where runner.out writes)."),
    port: int = typer.Option(8765, "--port", "-p", help="Port on 127.0.0.1 (0 = any free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the viewer in the default browser."),
    datasets: Path = typer.Option(Path("datasets"), "--datasets", help="Where annotations are saved (one folder per dataset)."),
    suites: Path | None = typer.Option(None, "--suites", help="Suites folder the task creator saves into (default: task_suites/)."),
    config: Path | None = ConfigOpt,
) -> None:
    """Serve a local web viewer over run folders (live while a run writes), with annotation and the
    task creator (/create); see docs/viewer.md and docs/recording.md."""
    from .viewer.server import serve_until_interrupted

    try:
        cfg = config_from(config)
        roots = run_dirs or [Path(cfg.runner.out.split("{")[0] or ".")]
        serve_until_interrupted(roots, port, open_browser, tools={"datasets": datasets, "suites": suites, "config": cfg})
    except DeskactError as exc:
        fail(exc)


if __name__ == "__main__":
    run()
