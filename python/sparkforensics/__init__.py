"""SparkForensics for Python: why a Spark application was slow or expensive, from its event log.

The same C++ library as the ``sparkforensics`` command, in-process::

    import sparkforensics as sf
    doc = sf.analyze("/var/log/spark-events/app-20240101120000-0001")
    sf.findings_frame(doc)          # pandas, one row per finding
    sf.compare(base_path, cand_path)
    sf.ingest("app.zstd", store="results.db", revision="abc123")
    sf.verdict_history(store="results.db", target="latest")

Every function returns the document the command line prints as JSON (``analyze -f json``,
``compare -f json``, ``verdict history -f json``), parsed into dicts and lists: this package
holds no analysis of its own; :mod:`sparkforensics.documents` types them (TypedDicts generated
from the documents' JSON Schemas). The library's errors are raised as :class:`Error`, whose
message names the file (and the line) and what was wrong; ``Error.code`` is the status code's name
("not found", "corrupt input", "unsupported input", ...). The GIL is released while the library works.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from . import _core
from ._core import Error
from .frames import applications_frame, findings_frame, rollup_frame, stages_frame

if TYPE_CHECKING:  # annotations only: importing the TypedDicts needs typing_extensions before Python 3.11
    from .documents import AnalysisDocument, ComparisonDocument, VerdictDocument

__all__ = [
    "Error",
    "analyze",
    "analyze_json",
    "compare",
    "result_document",
    "analysis_and_result",
    "ingest",
    "ingest_result",
    "ingest_results",
    "stored_results",
    "verdict_history",
    "applications_frame",
    "findings_frame",
    "rollup_frame",
    "stages_frame",
]

PathLike = Union[str, "os.PathLike[str]"]
# A log as bytes: one file's bytes, or a directory log's parts ({part name: bytes}).
LogBytes = Union[bytes, bytearray, memoryview, Mapping[str, Union[bytes, bytearray, memoryview]]]
Config = Union[None, PathLike, Mapping[str, Any]]


def _config_arguments(config: Config) -> tuple[str, Optional[str]]:
    """(config_path, config_text) for the library: a path is read as --config reads it, a mapping
    is the same document given as data (messages then name "config")."""
    if config is None:
        return "", None
    if isinstance(config, Mapping):
        return "", json.dumps(config)
    return os.fspath(config), None


def _check_config(config: Config) -> None:
    """Raises Error, naming the file (or "config") and what is wrong, when reading a log with
    `config` would; without reading one."""
    _core.check_config(*_config_arguments(config))


class _LogOnDisk:
    """The library reads logs from files (by extension, then magic bytes, in parts for directory
    logs), so bytes are written to a private temporary copy under the name they came with:
    ``name`` keeps the codec extension, ``.inprogress`` and a rolling directory's part names
    meaningful. The copy is removed on exit."""

    def __init__(self, source: Union[PathLike, LogBytes], name: Optional[str]):
        self._source = source
        self._name = name
        self._tmp: Optional[tempfile.TemporaryDirectory[str]] = None
        self._copy = ""

    def __enter__(self) -> tuple[str, str]:
        source = self._source
        if isinstance(source, (bytes, bytearray, memoryview)) or isinstance(source, Mapping):
            self._tmp = tempfile.TemporaryDirectory(prefix="sparkforensics-")
            base = os.path.basename((self._name or "eventlog").rstrip("/")) or "eventlog"
            path = self._copy = os.path.join(self._tmp.name, base)
            if isinstance(source, Mapping):
                os.mkdir(path)
                for part, data in source.items():
                    with open(os.path.join(path, os.path.basename(part)), "wb") as out:
                        out.write(data)
            else:
                with open(path, "wb") as out:
                    out.write(source)
            return path, self._name or "<bytes>"
        return os.fspath(source), ""

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            # The library's message names the file it read: name the log as the caller did.
            if isinstance(exc, Error) and self._copy:
                exc.args = (str(exc).replace(self._copy, self._name or "<bytes>"),)


def analyze_json(source: Union[PathLike, LogBytes], config: Config = None, *, name: Optional[str] = None,
                 threads: int = 0) -> str:
    """The analysis document as the JSON text ``sparkforensics analyze -f json`` prints."""
    config_path, config_text = _config_arguments(config)
    with _LogOnDisk(source, name) as (path, shown_as):
        return _core.analyze_json(path, shown_as, config_path, config_text, threads)


def analyze(source: Union[PathLike, LogBytes], config: Config = None, *, name: Optional[str] = None,
            threads: int = 0) -> AnalysisDocument:
    """Analyzes one event log: a path (file, .inprogress, compressed, rolling or Databricks
    directory, History Server .zip), or its bytes (``name``: the file name they came from, whose
    extension says the codec; the document's ``source.path`` is ``name``). ``config``: a --config
    file's path, or the same document as a dict ({"thresholds": {...}, "limits": {...}}).
    ``threads``: decoding threads (0: the cores, at most 2). Returns the analysis document
    (docs/analysis-schema.md)."""
    return json.loads(analyze_json(source, config, name=name, threads=threads))


def compare(base: PathLike, cand: PathLike, config: Config = None, *,
            normalize_paths: Sequence[str] = (), threads: int = 0) -> ComparisonDocument:
    """``sparkforensics compare BASE CAND -f json``: the comparison document
    (docs/comparison-schema.md). ``normalize_paths``: --normalize-path regexes."""
    config_path, config_text = _config_arguments(config)
    text = _core.compare_json(os.fspath(base), os.fspath(cand), list(normalize_paths), config_path, config_text,
                              threads)
    return json.loads(text)


def _context(subject: str = "", revision: str = "", parents: Sequence[str] = (), benchmark_tree: str = "",
             dirty: bool = False, variant: str = "", params: Optional[Mapping[str, str]] = None,
             env: Optional[Mapping[str, str]] = None, run_key: str = "", round: Optional[int] = None,
             slot: Optional[int] = None, status: str = "") -> _core.IngestContext:
    c = _core.IngestContext()
    c.subject, c.revision, c.parents, c.benchmark_tree = subject, revision, list(parents), benchmark_tree
    c.dirty, c.variant, c.params, c.env = dirty, variant, dict(params or {}), dict(env or {})
    c.run_key, c.round, c.slot, c.status = run_key, round, slot, status
    return c


def result_document(source: Union[PathLike, LogBytes], config: Config = None, *, name: Optional[str] = None,
                    origin_path: Optional[str] = None, threads: int = 0, **context: Any) -> tuple[str, str]:
    """The result document ``sparkforensics store ingest LOG`` stores for a log, as JSON text, and
    why its status is not ok ("" when it is). ``origin_path``: the path the document's origin
    names (default: the path given, or ``name`` for bytes). Keyword arguments are ingest's
    flags: subject, revision, parents, benchmark_tree, dirty, variant, params, env, run_key,
    round, slot, status."""
    config_path, config_text = _config_arguments(config)
    with _LogOnDisk(source, name) as (path, shown_as):
        origin = origin_path or shown_as or path
        return _core.result_json(path, origin, _context(**context), config_path, config_text, threads)


def analysis_and_result(source: Union[PathLike, LogBytes], config: Config = None, *, name: Optional[str] = None,
                        threads: int = 0, **context: Any) -> tuple[str, str, str]:
    """One read of a log for both documents: (the analysis document's JSON as analyze_json gives
    it, the result document's JSON as result_document gives it, why that result is not ok or "").
    The fleet job keeps both of every log."""
    config_path, config_text = _config_arguments(config)
    with _LogOnDisk(source, name) as (path, shown_as):
        return _core.analysis_and_result_json(path, shown_as, _context(**context), config_path, config_text, threads)


def ingest_result(store: str, document_json: str, source: str = "result") -> dict[str, Any]:
    """Stores a result document (JSON text, docs/result-schema.md) in the store at ``store`` (an
    SQLite path, created on first use, or a postgresql:// URL): {"id", "order", "alreadyPresent"}."""
    return ingest_results(store, [(document_json, source)])[0]


def ingest_results(store: str, documents: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """``ingest_result`` for many (document JSON, source) pairs through one open store, in order."""
    return [{"id": result_id, "order": order, "alreadyPresent": already}
            for result_id, order, already in _core.store_ingest_json(os.fspath(store), documents)]


def ingest(source: Union[PathLike, LogBytes], store: str, config: Config = None, *, name: Optional[str] = None,
           threads: int = 0, **context: Any) -> dict[str, Any]:
    """``sparkforensics store ingest LOG --store STORE [flags]``: stores the log's result document.
    Returns {"id", "order", "alreadyPresent", "status", "statusReason"}."""
    document, reason = result_document(source, config, name=name, threads=threads, **context)
    outcome = ingest_result(store, document, source=name or str(source))
    outcome["status"] = json.loads(document)["status"]
    outcome["statusReason"] = reason
    return outcome


def stored_results(store: str) -> list[dict[str, Any]]:
    """Every result in the store, in native order: {"order", "id", "document"} (the document as
    ``store show`` prints it, parsed: a ResultDocument). A store that does not exist is an Error, never created."""
    return [{"order": order, "id": result_id, "document": json.loads(text)}
            for order, result_id, text in _core.store_results(os.fspath(store))]


def verdict_history(store: str, target: str = "latest", *, subject: str = "", quantities: Sequence[str] = (),
                    method_config: Optional[Mapping[str, Any]] = None) -> VerdictDocument:
    """``sparkforensics verdict history --target TARGET -f json``: the verdict document.
    ``target``: a result id (or unique prefix), a revision, or "latest"; ``method_config``: the
    --method-config document as a dict (docs/comparator.md)."""
    method = None if method_config is None else json.dumps(method_config)
    return json.loads(_core.verdict_history_json(os.fspath(store), target, subject, list(quantities), method))
