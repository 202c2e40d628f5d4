#!/usr/bin/env python3
"""The layer order of DESIGN.md, checked on every `#include "<layer>/..."` under src/.

    scripts/check_layers.py [SRC_DIR]       (ctest runs it as `layer_order`)

The layers, each depending only on the ones before it in this list:

    common        Status/Result, text and units: below nothing, under everything
    spark         the Spark vocabulary events carry (task metrics, properties, plans, RDDs)
    io            bytes: sources, codecs, lines, path confinement
    fetch         bytes from a History Server (libcurl), beside io
    eventlog      one JSON line -> one typed event
    model         events -> AppModel; load_event_log
    analysis      detectors, impact, rollup
    compare       the A/B comparison
    results       result documents, the comparator, the store (not "history": the History Server is another thing)
    report        renderers of the documents above
    catalog       what every front end shares: listing, confinement, the cache of loaded logs
    service       the use cases: read settings, analyze, compare, verdicts, the fleet summary
    history_server  the Spark History Server's REST API over the catalogue, without HTTP
    server, mcp   front ends: may include every layer above, never each other
    python        the Python package's module (python/src), a front end like them
    cli           the program: its subcommands run the front ends, so it may include them

Inside a layer, the folders of src/analysis and src/server have an order of their own
(SUBFOLDERS, their READMEs say what each holds): a file there includes its own folder, the ones
before it, and nothing at the layer's root (analyzer.h runs them all).

A file includes its own layer and layers above it; never one below. An include of a folder that
is not a layer fails too, so a new folder under src/ has to be given its place here first.
Exceptions are listed below, each with why; one that is no longer needed fails the check as
well, so the list only shrinks.
"""

import re
import sys
from pathlib import Path

LAYERS = ["common", "spark", "io", "fetch", "eventlog", "model", "analysis", "compare", "results", "report", "catalog", "service", "history_server"]
FRONT_ENDS = ["server", "mcp", "python"]
# Front ends whose code lives outside src/: (layer, folder under the project's root).
FRONT_ENDS_OUTSIDE_SRC = [("python", "python/src")]
PROGRAM = "cli"

# (including layer, included file) -> why it is allowed for now.
KNOWN_EXCEPTIONS = {}  # none today: the Spark vocabulary moved below the decoder (src/spark)

# Sub-folders of a layer, each depending only on the ones before it; files at the layer's root
# (the entry, e.g. analysis/analyzer.h) come after them all.
SUBFOLDERS = {
    "analysis": ["settings", "findings", "models", "economics", "detectors"],
    "server": ["http", "dashboard"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/([^"]+)"', re.MULTILINE)


def rank(layer):
    """Position in the order; front ends share one rank, the program comes last."""
    if layer in LAYERS:
        return LAYERS.index(layer)
    if layer in FRONT_ENDS:
        return len(LAYERS)
    if layer == PROGRAM:
        return len(LAYERS) + 1
    return None


def violation(layer, target):
    """Why `layer` may not include from `target`, or None when it may."""
    if target == layer:
        return None
    if rank(target) is None:
        return f"'{target}/' is not a layer (give it a place in scripts/check_layers.py)"
    if layer in FRONT_ENDS and target in FRONT_ENDS:
        return f"the front ends never include each other ({layer} -> {target})"
    if rank(target) > rank(layer):
        return f"{target} comes below {layer} in the layer order"
    return None


def subfolder_violation(layer, path, src, included):
    """Why a file of `layer`'s sub-folder may not include `included` (same layer), or None."""
    order = SUBFOLDERS.get(layer)
    parts = path.relative_to(src / layer).parts if path.is_relative_to(src / layer) else ()
    if not order or len(parts) < 2:
        return None  # not in a sub-folder: the layer's root may include any of them
    own = parts[0]
    if own not in order:
        return f"src/{layer}/{own}/ is not one of {layer}'s folders (give it a place in SUBFOLDERS)"
    target_parts = included.split("/")
    target = target_parts[1] if len(target_parts) > 2 else None
    if target is None:
        return f"{included} is {layer}'s entry, which runs the folders: none of them includes it"
    if target not in order:
        return f"{layer}/{target}/ is not one of {layer}'s folders"
    if order.index(target) > order.index(own):
        return f"{layer}/{target}/ comes after {layer}/{own}/ ({' -> '.join(order)})"
    return None


def main():
    src = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "src")
    errors = []
    used_exceptions = set()
    folders = [(p.name, p) for p in sorted(src.iterdir()) if p.is_dir()]
    folders += [(layer, src.parent / where) for layer, where in FRONT_ENDS_OUTSIDE_SRC if (src.parent / where).is_dir()]
    for layer, folder in folders:
        if rank(layer) is None:
            errors.append(f"src/{layer}/: not a layer (give it a place in scripts/check_layers.py)")
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for match in INCLUDE.finditer(text):
                target, rest = match.group(1), match.group(2)
                included = f"{target}/{rest}"
                why = violation(layer, target)
                if why is None and target == layer:
                    why = subfolder_violation(layer, path, src, included)
                if why is None:
                    continue
                if (layer, included) in KNOWN_EXCEPTIONS:
                    used_exceptions.add((layer, included))
                    continue
                line = text.count("\n", 0, match.start()) + 1
                errors.append(f"{path.relative_to(src.parent)}:{line}: includes \"{included}\": {why}")
    for exception in sorted(set(KNOWN_EXCEPTIONS) - used_exceptions):
        errors.append(f"known exception {exception[0]} -> {exception[1]} is no longer needed: "
                      "remove it from scripts/check_layers.py")
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"layer order: {len(errors)} problem(s); DESIGN.md's order is {' -> '.join(LAYERS)} -> "
              f"{' | '.join(FRONT_ENDS)} -> {PROGRAM}", file=sys.stderr)
        return 1
    outside = "".join(f" and {where}" for _, where in FRONT_ENDS_OUTSIDE_SRC)
    print(f"layer order: every include under {src}{outside} follows it ({len(used_exceptions)} known exception(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
