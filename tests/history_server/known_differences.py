"""Differences between serve and the History Server that are known and justified, each with its
reason; docs/server.md (Fidelity) gives the same list. A difference is known when a rule's
endpoints, field pattern and, where given, request, value patterns and application state all
match it. Every other difference fails its endpoint's test, and so does a rule that no longer
matches anything (the list stays true)."""
from __future__ import annotations

import re
from dataclasses import dataclass

PUSH_SHUFFLE_FIXTURE = "app-20200706201101-0003"


@dataclass(frozen=True)
class KnownDifference:
    endpoints: tuple[str, ...]  # the endpoints it is counted under (oracle.Request.endpoint)
    field: str                  # regex matched against the whole JSON path of the difference
    reason: str
    request: str = ""   # regex searched in the request path and query; "" is any
    expected: str = ""  # regex searched in the History Server's value (as the report shows it)
    got: str = ""       # regex searched in serve's value
    running: bool = False  # only for an application the History Server lists as unfinished


ATTEMPT = r"(\[\d+\]\.)?(attempts\[\d+\]\.)?"
TASK_LISTS = ("stages", "stage", "stage attempt", "taskList", "taskTable")

KNOWN_DIFFERENCES: list[KnownDifference] = [
    KnownDifference(
        ("applications", "application", "application attempt"), ATTEMPT + r"(appSparkVersion|Application\.Spark Version)",
        "a Databricks log names its Spark version in DBCEventLoggingListenerMetadata, which the History Server "
        "does not read (it shows \"\"); serve shows the version (spark-history-cli's summary shows it too)",
        expected=r'^"(  \(Scala .*)?"$'),
    KnownDifference(
        TASK_LISTS + ("taskSummary",), r".*(Merged|shufflePush).*",
        "a Spark test log edited to carry push-based shuffle read metrics as \"Shuffle Push Read Metrics\" with "
        "\"Merged Fallback Count\": pyspark 4.3 reads them only as \"Push Based Shuffle\" (zeros), Spark's "
        "HistoryServerSuite expectations (rest_api_fidelity_test) read them, and serve follows those",
        request=PUSH_SHUFFLE_FIXTURE),
    KnownDifference(
        ("taskList",), r"\(status\)",
        "a task list length below 1: the History Server fails (500: its store's max() must be positive); "
        "serve answers 400 naming the parameter", request=r"length=(-1|0)(&|$)", expected="^500$", got="^400 "),
    KnownDifference(
        TASK_LISTS, r"(\[\d+\]\.)?(tasks\.\d+\.|aaData\[\d+\]\.)?duration",
        "a task whose end an unfinished log does not hold: both count it as running until the log's "
        "lastUpdated, which for an application with no end is the time the History Server listed it (its "
        "clock) and for serve the log's modification time (a finished one's is the modification time in both)",
        running=True),
    KnownDifference(
        ("executors", "allexecutors"), r"\[\d+\]\.totalDuration",
        "an unfinished application's driver: the History Server counts its time up to now (the clock)",
        running=True),
    KnownDifference(
        ("sql", "sql execution", "sqlTable"), r"(\[\d+\]\.|aaData\[\d+\]\.(subExecutions\[\d+\]\.)?)?duration",
        "an SQL execution whose end the log does not hold (still running when an unfinished log ends, or cut off "
        "by the application's shutdown before its end was posted): the History Server counts it up to now "
        "(SqlResource: the completion time or the current date), a value that grows with every request; serve "
        "shows 0, what the log holds", got="^0$"),
    KnownDifference(
        ("sql",), r"\(status\)",
        "the History Server fails to load this application's SQL store (\"Failed to load application attempt\": "
        "404 for an application it lists, with no SQL execution); serve answers its empty list",
        request=r"application_1472176676028_407508", expected="^404$", got="^200 "),
    KnownDifference(
        ("logs",), r"entries\[.*\]\.size",
        "serve's download is redacted (docs/server.md, Secrets): a part with a secret in it has other bytes"),
]


def known_difference(request, field, expected, got):
    """The rule that explains a difference at `field` of `request`'s answer, or None."""
    for rule in KNOWN_DIFFERENCES:
        if (request.endpoint in rule.endpoints and re.fullmatch(rule.field, field)
                and re.search(rule.request, request.path) and re.search(rule.expected, expected)
                and re.search(rule.got, got) and (request.running or not rule.running)):
            return rule
    return None
