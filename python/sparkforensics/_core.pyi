# Types of the extension module (python/src/core_module.cpp). The package's own functions
# (sparkforensics/__init__.py) are what callers use; these return the library's JSON text.
from typing import Optional

class Error(Exception):
    """The library's error: str() is its message (file, line, what was wrong)."""
    code: str  # the status code, as the library names it: "not found", "corrupt input", "unsupported input", ...

class IngestContext:
    subject: str
    revision: str
    parents: list[str]
    benchmark_tree: str
    dirty: bool
    variant: str
    params: dict[str, str]
    env: dict[str, str]
    run_key: str
    round: Optional[int]
    slot: Optional[int]
    status: str
    def __init__(self) -> None: ...

def analyze_json(path: str, shown_as: str, config_path: str, config_text: Optional[str], threads: int) -> str: ...
def compare_json(base_path: str, cand_path: str, normalize_paths: list[str], config_path: str,
                 config_text: Optional[str], threads: int) -> str: ...
def result_json(path: str, origin_path: str, context: IngestContext, config_path: str,
                config_text: Optional[str], threads: int) -> tuple[str, str]: ...
def analysis_and_result_json(path: str, shown_as: str, context: IngestContext, config_path: str,
                             config_text: Optional[str], threads: int) -> tuple[str, str, str]: ...
def store_ingest_json(location: str, documents: list[tuple[str, str]]) -> list[tuple[str, int, bool]]: ...
def store_results(location: str) -> list[tuple[int, str, str]]: ...
def verdict_history_json(location: str, target: str, subject: str, quantities: list[str],
                         method_config_json: Optional[str]) -> str: ...
def format_money(amount: float, currency: str) -> str: ...
