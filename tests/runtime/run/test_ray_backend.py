"""--backend ray on a real local Ray cluster of several nodes (ray.cluster_utils.Cluster).

One cluster serves the module (starting Ray costs seconds on two cores): a head
node without displays and a node offering ``deskact_display``. A node that a
test kills is its own, added and removed by that test.
"""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from textwrap import dedent

import pytest

ray = pytest.importorskip("ray", reason="the Ray backend needs pip install 'deskact[ray]'")

import itertools

from deskact.runtime.config import Config
from deskact.runtime.errors import DeskactError
from deskact.runtime.run.ray_actor import ActorInfo
from deskact.runtime.run.ray_backend import DISPLAY_RESOURCE, RayRun, _Job, make_run
from deskact.runtime.run.results import latest_by_task, read_results
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.world.sandbox import kernel_processes

pytestmark = [pytest.mark.ray, pytest.mark.slow]

MB = 1024 * 1024

SUITE = """
tasks:
  - id: r-write
    instruction: Write hello to ${WORKSPACE}/out.txt
    judge:
      - files.content: {path: "${WORKSPACE}/out.txt", equals: "hello"}
    reference: |
      open("out.txt", "w").write("hello")
      print("wrote it")
      exit()
  - id: r-answer
    instruction: Print 6 times 7.
    judge:
      - answer.regex: {pattern: "\\\\b42\\\\b"}
    reference: |
      print(6 * 7)
      exit()
  - id: r-wrong
    instruction: Print 6 times 7.
    judge:
      - answer.regex: {pattern: "\\\\b42\\\\b"}
    reference: |
      print(6 * 8)
      exit()
  - id: r-reset-fails
    instruction: never runs
    reset:
      - shell.run: {cmd: "exit 3"}
    judge:
      - files.absent: {path: x}
    reference: exit()
  - id: r-broken
    instruction: no judge at all
"""


def slow_suite(n: int, seconds: float, log: Path) -> str:
    return "tasks:\n" + "".join(f"""
  - id: s-{i}
    instruction: slow {i}
    judge: [{{files.exists: {{path: "${{WORKSPACE}}/done"}}}}]
    cleanup: [{{shell.run: {{cmd: "echo {i} >> {log}", in: host}}}}]
    reference: |
      import time; time.sleep({seconds})
      open("done", "w").close()
      exit()
""" for i in range(n))


def write_suite(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "tasks.yaml").write_text(dedent(text))
    return folder


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "object_store_memory": 100 * MB, "include_dashboard": False})
    display_node = c.add_node(num_cpus=1, object_store_memory=100 * MB, resources={DISPLAY_RESOURCE: 2})
    ray.init(address=c.address, log_to_driver=False)
    c.wait_for_nodes()
    try:
        yield c, display_node
    finally:
        ray.shutdown()
        c.shutdown()


def opts(tmp_path: Path, folder: Path, workers: int = 2, out: str = "out", **kw) -> RunOptions:
    return RunOptions(paths=[str(folder)], model="reference", out=tmp_path / out, workers=workers, **kw)


def outcome(results: list) -> dict[str, tuple[str, int]]:
    return {r.task_id: (r.status, r.reward) for r in results}


def test_a_suite_across_two_nodes_matches_the_thread_backend(cluster, tmp_path: Path):
    folder = write_suite(tmp_path, "suite_r", SUITE)
    threaded = Run(Config(), opts(tmp_path, folder, out="threads")).execute()
    run = RayRun(Config(), opts(tmp_path, folder, out="ray"))
    events = []
    run.on_event = events.append
    distributed = run.execute()
    assert outcome(distributed) == outcome(threaded)
    assert outcome(distributed)["r-write"] == ("passed", 1)
    assert outcome(distributed)["r-broken"] == ("invalid", 0)
    # results.jsonl as the thread backend writes it: one line per task, readable by report/resume
    assert outcome(read_results(tmp_path / "ray" / "results.jsonl")) == outcome(threaded)
    # the trajectory came back from whichever node ran the task
    step = tmp_path / "ray" / "trajectories" / "r-write" / "step_000.json"
    assert "wrote it" in step.read_text()
    assert (tmp_path / "ray" / "trajectories" / "r-write" / "episode.json").is_file()
    assert len({w.node_id for w in run.workers}) == 2, run.workers  # SPREAD over the head and the other node
    # the progress view hears of each task's start, steps and result, labelled node/worker
    kinds = [(e.kind, e.task_id) for e in events if e.task_id == "r-write"]
    assert kinds[0][0] == "task" and kinds[-1][0] == "result" and {k for k, _ in kinds[1:-1]} == {"step"}, kinds
    assert {e.worker for e in events if e.task_id == "r-write"} == {run.placed["r-write"].node_id[:6] + "/w"
                                                                    + str(run.placed["r-write"].worker_id)}
    assert [ActorInfo.model_validate_json(line).pid for line in
            (tmp_path / "ray" / "ray_workers.jsonl").read_text().splitlines()] == [w.pid for w in run.workers]


def test_a_display_task_only_runs_on_a_node_with_the_display_resource(cluster, tmp_path: Path, requires_xvfb):
    _, display_node = cluster
    text = "tasks:\n" + "".join(f"""
  - id: v-{i}
    instruction: look at the screen
    visual: true
    judge: [{{files.absent: {{path: "${{WORKSPACE}}/nothing"}}}}]
    reference: exit()
  - id: p-{i}
    instruction: no screen needed
    judge: [{{files.absent: {{path: "${{WORKSPACE}}/nothing"}}}}]
    reference: exit()
""" for i in range(2))
    folder = write_suite(tmp_path, "suite_v", text)
    run = RayRun(Config(), opts(tmp_path, folder, workers=3))
    started: set[int] = set()  # sampled at each step: the display workers' Xvfb and openbox among them
    run.on_event = lambda e: started.update(_descendants(tmp_path / "out" / "ray_workers.jsonl"))
    results = run.execute()
    assert {r.task_id: r.status for r in results} == {f"{k}-{i}": "passed" for k in "vp" for i in range(2)}
    for i in range(2):
        assert run.placed[f"v-{i}"].node_id == display_node.node_id
        assert run.placed[f"v-{i}"].display
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _alive(sorted(started)):
        time.sleep(0.2)
    assert started and not _alive(sorted(started)), "displays or kernels outlived their Ray worker"


def test_a_killed_node_s_task_runs_again_and_every_task_has_one_result(cluster, tmp_path: Path):
    c, _ = cluster
    victim = c.add_node(num_cpus=1, object_store_memory=100 * MB, resources={"victim": 1})
    c.wait_for_nodes()
    folder = write_suite(tmp_path, "suite_s", slow_suite(6, 2.0, tmp_path / "cleanup.log"))
    config = Config()
    config.runner.ray_worker_cpus = 1  # one worker per node (each has one CPU): one on the victim
    run = RayRun(config, opts(tmp_path, folder, workers=3))
    killed: list[str] = []

    def kill_when_busy() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            busy = [f.job.task.id for f in list(run._flights.values())
                    if f.slot.info is not None and f.slot.info.node_id == victim.node_id]
            if busy:
                time.sleep(0.5)  # mid-task
                killed.extend(busy)
                c.remove_node(victim, allow_graceful=False)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_when_busy, daemon=True)
    killer.start()
    try:
        results = run.execute()
    finally:
        killer.join(timeout=5)
        if victim in c.worker_nodes:
            c.remove_node(victim)
    assert killed, "no task ever ran on the node to kill"
    lines = read_results(tmp_path / "out" / "results.jsonl")
    assert sorted(r.task_id for r in lines) == [f"s-{i}" for i in range(6)]  # one line each, none lost
    assert all(r.status == "passed" for r in results), [(r.task_id, r.error) for r in results]
    assert {(k, 1) for k in killed} <= set(run.retried)
    assert "died mid-task" in run.retried[(killed[0], 1)][0]
    assert run._steps is None  # nobody listened to step events: no queue actor was started


def test_a_second_death_is_an_error_naming_the_cause(cluster, tmp_path: Path):
    # A host-side reset step runs in the actor's process: killing its parent kills the actor.
    folder = write_suite(tmp_path, "suite_d", """
tasks:
  - id: d-dies
    instruction: the worker process dies under it, on every attempt
    reset: [{shell.run: {cmd: "kill -9 $PPID", in: host}}]
    judge: [{files.absent: {path: x}}]
    reference: exit()
""")
    run = RayRun(Config(), opts(tmp_path, folder, workers=1))
    (result,) = run.execute()
    assert result.status == "error" and result.reward == 0
    assert "died mid-task" in result.feedback and "gave up after 2 attempts" in result.feedback
    assert len(read_results(tmp_path / "out" / "results.jsonl")) == 1


def test_ctrl_c_leaves_no_process_on_any_node_and_resume_finishes(cluster, tmp_path: Path):
    c, _ = cluster
    log = tmp_path / "cleanup.log"
    folder = write_suite(tmp_path, "suite_c", slow_suite(6, 4.0, log))
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "deskact.runtime.ui.cli", "run", str(folder), "--model", "reference",
           "--out", str(out), "--backend", "ray", "--address", c.address, "--workers", "2"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    results, workers = out / "results.jsonl", out / "ray_workers.jsonl"
    deadline = time.monotonic() + 120
    started: set[int] = set()  # everything the workers started (fork server, kernels, bwrap, shells)
    while time.monotonic() < deadline and (not results.exists() or not results.read_text().strip()):
        started |= _descendants(workers)
        time.sleep(0.1)
    started |= _descendants(workers)
    proc.send_signal(signal.SIGINT)
    output = proc.communicate(timeout=180)[0].decode()
    assert proc.returncode == 130, output
    first = read_results(results)
    assert 1 <= len(first) < 6
    pids = [ActorInfo.model_validate_json(line).pid for line in workers.read_text().splitlines()]
    assert len(pids) == 2
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _alive(pids + sorted(started)):
        time.sleep(0.2)
    assert not _alive(pids), "Ray workers outlived the interrupted run"
    assert started and not _alive(sorted(started)), "processes the workers started outlived them"
    assert not [k for pid in pids for k in kernel_processes(owner=pid)], "kernels outlived their Ray worker"
    cleaned = log.read_text().split()
    assert {r.task_id for r in first} <= {f"s-{i}" for i in cleaned}
    assert len(cleaned) > len(first), "no task was interrupted (the SIGINT came between two tasks)"
    subprocess.run(cmd + ["--resume"], env=env, check=True, capture_output=True, timeout=300)
    final = read_results(results)
    assert sorted(r.task_id for r in final) == [f"s-{i}" for i in range(6)]
    assert all(r.reward == 1 for r in latest_by_task(final).values())


def test_models_max_concurrency_holds_across_nodes(cluster, tmp_path: Path):
    from deskact.runtime.agent.models.offline import Reference

    calls = tmp_path / "calls"
    calls.mkdir()

    class Timed(Reference):  # local class: pickled by value to the actors
        def reply(self, system, messages):  # type: ignore[no-untyped-def]
            start = time.time()
            time.sleep(0.3)
            (calls / f"{os.getpid()}-{start}").write_text(f"{start} {time.time()}")
            return super().reply(system, messages)

    text = "tasks:\n" + "".join(f"""
  - id: m-{i}
    instruction: nothing
    judge: [{{files.absent: {{path: "${{WORKSPACE}}/nothing"}}}}]
    reference: print(1)
""" for i in range(4))
    folder = write_suite(tmp_path, "suite_m", text)
    config = Config.model_validate({"models": {"max_concurrency": {"reference": 1}}})
    run = RayRun(config, opts(tmp_path, folder, workers=2), model_factory=Timed)
    results = run.execute()
    assert all(r.status == "passed" for r in results), [(r.task_id, r.error) for r in results]
    spans = sorted(tuple(map(float, f.read_text().split())) for f in calls.iterdir())
    assert len({f.name.split("-")[0] for f in calls.iterdir()}) == 2  # both workers called the model
    assert len({w.node_id for w in run.workers}) == 2
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans)), spans


def test_api_keys_reach_the_actors_model_but_not_the_kernel(cluster, tmp_path: Path, monkeypatch):
    from deskact.runtime.agent.models.offline import Reference

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-for-kernels")
    seen = tmp_path / "seen"

    class KeyReader(Reference):  # local class: pickled by value to the actors
        def start_episode(self, task):  # type: ignore[no-untyped-def]
            seen.write_text(os.environ.get("OPENAI_API_KEY", "absent"))
            super().start_episode(task)

    folder = write_suite(tmp_path, "suite_k", """
tasks:
  - id: k-env
    instruction: print the key
    judge: [{answer.regex: {pattern: "^absent$"}}]
    reference: |
      import os
      print(os.environ.get("OPENAI_API_KEY", "absent"))
      exit()
""")
    run = RayRun(Config(), opts(tmp_path, folder, workers=1), model_factory=KeyReader)
    (result,) = run.execute()
    assert seen.read_text() == "sk-test-not-for-kernels"  # the actor's model client has it
    assert result.status == "passed", result  # the kernel printed "absent"


def test_visual_tasks_without_a_display_node_are_refused_up_front(tmp_path: Path):
    folder = write_suite(tmp_path, "suite_n", """
tasks:
  - id: v-0
    instruction: look
    visual: true
    judge: [{files.absent: {path: x}}]
""")
    run = RayRun(Config(), opts(tmp_path, folder, workers=1))
    run.prepare()

    class NoDisplays:
        @staticmethod
        def cluster_resources() -> dict[str, float]:
            return {"CPU": 4.0}

    with pytest.raises(DeskactError, match="no node of the Ray cluster offers the deskact_display"):
        run._check_room(NoDisplays, [_Job(t) for t in run.tasks])


def test_the_backend_is_chosen_by_config(tmp_path: Path):
    config = Config()
    assert type(make_run(config, opts(tmp_path, tmp_path))) is Run
    config.runner.backend = "ray"
    assert type(make_run(config, opts(tmp_path, tmp_path))) is RayRun


def _descendants(workers_file: Path) -> set[int]:
    """Every process below the Ray workers listed so far (on all nodes: one machine here)."""
    import psutil

    found: set[int] = set()
    if not workers_file.exists():
        return found
    for line in workers_file.read_text().splitlines():
        try:
            found |= {p.pid for p in psutil.Process(ActorInfo.model_validate_json(line).pid).children(recursive=True)}
        except psutil.Error:
            continue
    return found


def _alive(pids: list[int]) -> list[int]:
    """The pids still running (a zombie is dead: only its parent has not reaped it yet)."""
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            alive.append(pid)
    return alive
