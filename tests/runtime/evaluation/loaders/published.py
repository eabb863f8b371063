"""The published-format fixtures the loader tests read: format name -> its file or folder."""

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation"
SOURCES = {
    "groundui": FIXTURES / "groundui" / "metadata_1k.jsonl",
    "agentstudio-idm": FIXTURES / "agentstudio" / "metadata_idm.jsonl",
    "agentstudio-idm-multiple": FIXTURES / "agentstudio" / "metadata_idmn2n.jsonl",
    "agentstudio-critic": FIXTURES / "agentstudio" / "metadata_success_detection.jsonl",
    "aitw": FIXTURES / "aitw" / "episodes.jsonl",
    "aitw-tfrecord": FIXTURES / "aitw" / "episodes.tfrecord.gz",
    "screenagent": FIXTURES / "screenagent" / "test",
    "screenagent-critic": FIXTURES / "screenagent" / "test",
}
