"""TypedDict and NotRequired for the document types generated from schemas/ (generated/):
typing's on Python 3.11 and later, typing_extensions' before (needed only to import them there)."""
import sys

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:
    from typing_extensions import NotRequired, TypedDict

__all__ = ["NotRequired", "TypedDict"]
