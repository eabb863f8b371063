"""The one YAML loader for everything deskact reads: task files, configs, files judges parse.

PyYAML builds an aliased node once and shares it, so a 1 KB "billion laughs" file loads
quickly, and then whatever walks the result (a comparison, pydantic, ``json.dumps``, a deep
copy) visits every shared copy: gigabytes and minutes. The loader counts the nodes each alias
stands for as it composes the document and refuses the file once the aliases have expanded
past a small budget, naming the file and the line of the alias that went over.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent
from yaml.nodes import CollectionNode, Node

YAMLError = yaml.YAMLError
"""What ``load`` raises for a document it cannot read (an alias bomb included)."""

ALIAS_NODE_BUDGET = 10_000
"""Nodes all the aliases of one document may stand for together (a node reached through an alias
counts with everything under it). Hand-written anchors (shared defaults, a repeated step) use a
few hundred; an alias bomb needs millions."""


class AliasBombError(ComposerError):
    """The aliases of a document expand past ``ALIAS_NODE_BUDGET``; ``problem_mark`` is the alias."""

    def __str__(self) -> str:
        return where(self)  # one line, ``file:line: problem``, for verdicts and load errors


class _AliasBudget:
    """Mixin for a PyYAML loader: counts what aliases expand to while composing."""

    alias_budget = ALIAS_NODE_BUDGET

    def compose_document(self) -> Node | None:
        self._expanded = 0
        self._sizes: dict[int, int] = {}
        return super().compose_document()  # type: ignore[misc]  # the loader class provides it

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()  # type: ignore[attr-defined]  # from the loader's Parser
        node: Node | None = super().compose_node(parent, index)  # type: ignore[misc]
        if isinstance(event, AliasEvent) and node is not None:
            self._expanded += _size(node, self._sizes, set())
            if self._expanded > self.alias_budget:
                raise AliasBombError(
                    None, None,
                    f"aliases expand to more than {self.alias_budget} nodes (an alias bomb?): refused",
                    event.start_mark,  # type: ignore[arg-type]  # the C loader's Mark: the same fields
                )
        return node


def _size(node: Node, sizes: dict[int, int], open_nodes: set[int]) -> int:
    """Nodes in ``node``'s tree counting shared subtrees once per use, memoised: linear in the
    document however far it would expand. A node inside itself (a recursive anchor) counts 1."""
    key = id(node)
    if key in sizes:
        return sizes[key]
    if key in open_nodes or not isinstance(node, CollectionNode):
        return 1
    open_nodes.add(key)
    total = 1
    for item in node.value:
        for child in item if isinstance(item, tuple) else (item,):
            total += _size(child, sizes, open_nodes)
    open_nodes.discard(key)
    sizes[key] = total
    return total


class SafeLoader(_AliasBudget, yaml.SafeLoader):
    """``yaml.SafeLoader`` with the alias budget: subclass it for custom constructors."""


def load(text: str | bytes | IO[str], source: str | Path = "<string>", loader: type[Any] = SafeLoader) -> Any:
    """Parse one YAML document safely. ``source`` names the file in errors (PyYAML's marks
    print it with the line); errors are ``yaml.YAMLError``, an alias bomb ``AliasBombError``."""
    stream = text.decode("utf-8") if isinstance(text, bytes) else text
    instance = loader(stream)
    instance.name = str(source)
    try:
        return instance.get_single_data()
    finally:
        instance.dispose()


def load_file(path: str | Path, loader: type[Any] = SafeLoader) -> Any:
    """``load`` of a file's text (UTF-8), named by its path in errors."""
    return load(Path(path).read_text(encoding="utf-8"), source=path, loader=loader)


def where(exc: yaml.YAMLError) -> str:
    """``file:line: problem`` of a YAML error (its own ``str`` spreads over several lines)."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is None:
        return problem
    return f"{mark.name}:{mark.line + 1}: {problem}"
