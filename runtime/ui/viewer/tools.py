"""The viewer's writing pages: annotation (``/annotate``) and the task creator (``/create``).

Their JSON routes, mounted by ``server.py`` under ``/api/annotate/`` and ``/api/creator/``:

- GET ``annotate/datasets``: the datasets under the datasets folder (name, kind, samples)
- POST ``annotate/ground``: a box and an instruction on a run's screenshot -> a grounding sample
- POST ``annotate/idm``: actions marked on a run's episode video -> IDM samples and a clip
- GET ``creator/catalog``: the suites, and every reset step and judge with its params schema
- GET ``creator/suites/SUITE/files``: the suite's fixture files
- POST ``creator/record`` / ``creator/demonstrate`` / ``creator/validate``: start a job (one at a time);
  ``record`` is ``deskact record``'s session on the draft: its result names the recording page
- GET ``creator/jobs/ID`` (state, log, result) and ``creator/jobs/ID/screens`` (its screenshots)

These routes write files and start worlds, so ``server.py`` takes them only as POSTs with a JSON
body from the viewer's own page (its Origin), never as a GET a foreign page could trigger.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ...config import Config, load_config
from ...errors import DeskactError
from ...tasks.task import SUITES_DIR
from .annotate import GroundRequest, IdmRequest, list_datasets, save_ground, save_idm
from .creator import Creator, Draft, step_catalog
from .runs import _screen_size, task_page


class Tools:
    def __init__(self, viewer: Any, datasets: Path | None = None, suites: Path | None = None,
                 config: Config | None = None) -> None:
        self.viewer = viewer
        self.datasets = Path(datasets or "datasets")
        self.suites = Path(suites or SUITES_DIR)
        self._config = config
        self._creator: Creator | None = None

    @property
    def creator(self) -> Creator:
        if self._creator is None:
            self._creator = Creator(self._config or load_config(), self.suites)
        return self._creator

    def _screen(self, run: str, task: str) -> tuple[int, int] | None:
        """The task's real screen size (its system prompt says it), so a sample knows its image's scale."""
        if not task:
            return None
        try:
            return _screen_size(task_page(self.viewer.run(run), task).system_prompt)
        except DeskactError:
            return None

    def get(self, parts: list[str]) -> Any:
        if parts == ["annotate", "datasets"]:
            return {"root": str(self.datasets.resolve()), "datasets": [r.model_dump() for r in list_datasets(self.datasets)]}
        if parts == ["creator", "catalog"]:
            return {"suites": self.creator.suites(), "suites_dir": str(self.suites.resolve()),
                    "steps": [s.model_dump(by_alias=True) for s in step_catalog()]}
        if len(parts) == 4 and parts[:2] == ["creator", "suites"] and parts[3] == "files":
            return {"files": self.creator.fixtures(parts[2])}
        if len(parts) == 3 and parts[:2] == ["creator", "jobs"]:
            return self.creator.job(parts[2])
        if len(parts) == 4 and parts[:2] == ["creator", "jobs"] and parts[3] == "screens":
            job = self.creator.job(parts[2])
            names = (job.result or {}).get("screens", [])
            return {n: f"data:image/{'png' if n.endswith('.png') else 'jpeg'};base64,"
                       + base64.b64encode(self.creator.file(job.id, n).read_bytes()).decode() for n in names}
        return None

    def post(self, parts: list[str], body: Any) -> Any:
        try:
            if parts == ["annotate", "ground"]:
                req = GroundRequest.model_validate(body)
                image = self.viewer.file(req.run, req.file)
                return save_ground(req, image, self._screen(req.run, req.task), self.datasets)
            if parts == ["annotate", "idm"]:
                idm = IdmRequest.model_validate(body)
                video = self.viewer.file(idm.run, idm.video)
                return [s.model_dump() for s in save_idm(idm, video, self._screen(idm.run, idm.task), self.datasets)]
            if parts == ["creator", "record"]:
                return self.creator.record(Draft.model_validate(body))
            if parts == ["creator", "demonstrate"]:
                return self.creator.demonstrate(Draft.model_validate(body))
            if parts == ["creator", "validate"]:
                return self.creator.validate(Draft.model_validate(body))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "(body)"
            raise DeskactError(f"{where}: {first['msg']}") from None
        return None
