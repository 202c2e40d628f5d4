"""The session's closing lines say how many documents of each kind validated (and each corpus
test its own count), so a run that validated less than it should is seen in ctest's log."""


def pytest_terminal_summary(terminalreporter):
    from test_document_schemas import VALIDATED

    terminalreporter.write_line("documents validated: " +
                                (", ".join(f"{count} {kind}" for kind, count in sorted(VALIDATED.items())) or "none"))
