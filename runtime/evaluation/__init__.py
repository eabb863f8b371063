"""Step-level evaluation: datasets of single steps (grounding, action labelling, success detection,
action matching), their metrics and the ``deskact eval`` runner. See docs/evaluation.md."""
