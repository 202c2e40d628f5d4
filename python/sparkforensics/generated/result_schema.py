# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.

from __future__ import annotations

from typing import Literal

from sparkforensics._typed_dict import NotRequired, TypedDict


class Revision(TypedDict):
    tree: NotRequired[str]
    parents: NotRequired[list[str]]
    benchmarkTree: NotRequired[str]
    clean: NotRequired[bool]


class Procedure(TypedDict):
    runKey: NotRequired[str]
    round: NotRequired[int | None]
    """
    attempts of one round are paired across sides
    """
    slot: NotRequired[int | None]
    """
    execution position within the run
    """


class Quantity(TypedDict):
    name: str
    value: float
    unit: str
    direction: NotRequired[Literal['lower', 'higher', 'none']]
    """
    which way is better; default lower
    """
    deterministic: NotRequired[bool]
    """
    compared exactly; default false
    """


class ResultDocument(TypedDict):
    """
    A result document (sparkforensics.result/1; docs/result-schema.md): one measured run, as store ingest writes it and as a benchmark may write it for store ingest --result. It names itself by `schema`, not kind and schemaVersion: its canonical JSON is its id, so a new field would change every id.
    """

    schema: Literal['sparkforensics.result/1']
    subject: str
    revision: NotRequired[Revision]
    parameters: NotRequired[dict[str, str | float | bool]]
    """
    strings; numbers and booleans are accepted and kept as their JSON text; role is the variant role
    """
    environment: NotRequired[dict[str, str | float | bool]]
    """
    where it ran: cluster, sparkVersion, executorShape, ...
    """
    procedure: NotRequired[Procedure]
    status: NotRequired[Literal['ok', 'partial', 'censored', 'error', 'skipped']]
    origin: NotRequired[str]
    quantities: list[Quantity]
    """
    each name once (the reader refuses a duplicate; JSON Schema cannot say so)
    """
