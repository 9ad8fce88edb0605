"""evaltally: reads LLM evaluation results and tells you what they mean.

The functions return plain Python objects, the documents ``evaltally ... --format json``
prints. Each names itself first, ``report["schema"] == "evaltally.stability/1"``: its name
and version, whose JSON Schema is in the repository's ``docs/schema/``::

    import evaltally
    report = evaltally.stability(["results/"], model="acme-7b")
    for model in report["models"]:
        print(model["model"], model["overall"]["flaky"], "flaky tests")
    change = evaltally.compare("runs/base", "runs/new")
    rows = evaltally.load(["results/"])  # a pandas DataFrame when pandas is installed

Filters (keyword arguments of every function): ``model`` and ``category`` (a name or a
list of names), ``pool_models`` (bool), ``errors_as`` (``"errored"`` or ``"fail"``),
``include_partial`` (bool), ``as_format`` (a format name), ``pass_threshold`` (float),
``scorer`` (str) and ``keep_duplicates`` (bool). Reading problems raise ``ValueError`` when
nothing could be read; otherwise ``stability`` and ``compare`` list them under
``"warnings"`` and ``"errors"`` in their documents (``load``'s rows carry none).
"""

import json
import os
from typing import Any, Dict, List, Sequence, Union

from . import _native

__all__ = ["stability", "compare", "load", "__version__"]

__version__: str = _native.__version__

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return [os.fspath(p) for p in paths]


def stability(paths: Paths, **filters: Any) -> Dict[str, Any]:
    """Which tests always pass, always fail or flip across the runs below ``paths``: the
    document of ``evaltally stability --format json``."""
    return json.loads(_native.stability(_paths(paths), json.dumps(filters)))


def compare(base: Paths, new: Paths, **filters: Any) -> Dict[str, Any]:
    """What regressed and improved from ``base`` to ``new`` (run folders, or groups of
    runs), and whether it is more than noise: the document of ``evaltally compare --base
    BASE... --new NEW... --format json``."""
    return json.loads(_native.compare(_paths(base), _paths(new), json.dumps(filters)))


def load(paths: Paths, **filters: Any) -> Any:
    """One row per (run, test) below ``paths``, the rows of ``evaltally export``: schema
    (``evaltally.export-row/1``), run, model, category, id, outcome, error type, duration,
    tokens, cost. A pandas DataFrame
    when pandas is installed, else a list of dicts."""
    text = _native.load(_paths(paths), json.dumps(filters))
    rows = [json.loads(line) for line in text.splitlines() if line]
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)
