# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.

from __future__ import annotations

from typing import Literal, TypeAlias

from sparkforensics._typed_dict import NotRequired, TypedDict


class FailedInvariant(TypedDict):
    detail: str
    name: str
    unit: str
    """
    "" when it affects the whole run
    """


class IdentityPolicy(TypedDict):
    schema: str
    version: int


class Config(TypedDict):
    duplicates: Literal['reject', 'mean']
    k: float
    minEffect: float
    minPoints: int
    ordering: Literal['ancestry-or-native', 'ancestry', 'native']
    provisionalRelativeNoise: float | None
    referenceStatuses: list[str]
    window: int


class Method(TypedDict):
    config: Config
    name: Literal['dispersion-scaled', 'paired-ratio']
    version: int


class MissingItem(TypedDict):
    fingerprint: str
    label: str
    lastResultId: str


class Run(TypedDict):
    """
    run mode
    """

    baseline: str
    coordinate: str
    localOnly: bool
    profile: Literal['revisions', 'variants', 'environments']
    runKey: str
    target: str
    units: list[str]


class PointRef(TypedDict):
    ancestryDistance: NotRequired[int]
    """
    generations back from the target (ancestry order)
    """
    continuity: NotRequired[list[str]]
    """
    mappings that joined this point to the series
    """
    nativeOrder: int
    resultId: str
    revision: str
    status: str
    value: float | None


Verdict: TypeAlias = Literal['improved', 'regressed', 'changed', 'no-change-detected', 'indeterminate']


class Boundary(TypedDict):
    at: str
    kind: str
    points: int
    reason: str


class Exclusion(TypedDict):
    reason: str
    resultId: str


class Effect(TypedDict):
    measure: str
    value: float | None


class Noise(TypedDict):
    provisional: bool
    source: str
    value: float | None


class Outcome(TypedDict):
    effect: Effect
    evidenceCount: int
    interval95: list[float] | None
    """
    paired-ratio: 95% interval of the ratio, low and high
    """
    noise: Noise
    referenceEstimate: float | None
    targetEstimate: float | None
    threshold: float | None


class Pair(TypedDict):
    baseline: float
    baselineResult: str
    round: int
    target: float
    targetResult: str


class Series(TypedDict):
    deterministic: bool
    direction: str
    estimator: str
    fingerprint: str
    identity: dict[str, str]
    label: str
    quantity: str
    unit: str


class Evaluation(TypedDict):
    boundaries: list[Boundary]
    caveats: list[str]
    detail: str
    exclusions: list[Exclusion]
    exclusionsNotListed: int
    ordering: Literal['ancestry', 'native', 'unknown', 'paired-rounds']
    outcome: Outcome
    pairs: list[Pair]
    """
    run mode, by round
    """
    reason: str
    reference: list[PointRef]
    """
    history: nearest first
    """
    series: Series
    target: PointRef | None
    """
    history mode
    """
    unit: NotRequired[str]
    """
    run mode: the comparison unit
    """
    verdict: Verdict


class VerdictDocument(TypedDict):
    """
    The verdict document (verdict ... --format json; docs/comparator.md): what the comparator found. Keys are sorted.
    """

    kind: Literal['sparkforensics.verdict']
    schemaVersion: Literal[1]
    batchTarget: NotRequired[str]
    """
    batch mode
    """
    caveats: list[str]
    evaluations: list[Evaluation]
    failedInvariants: list[FailedInvariant]
    identityPolicy: IdentityPolicy
    method: Method
    missing: list[MissingItem]
    mode: Literal['history', 'run', 'batch']
    run: NotRequired[Run]
    """
    run mode
    """
