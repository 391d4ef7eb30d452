"""tests/native: the native play-phase core (``native/``, the ``shengji-native``
extension) against the Python engine, which is its specification.

Every test here asks both engines and fails on any difference. Without the
extension (not installed, or ``SHENGJI_NATIVE=0``) they are skipped; with
``SHENGJI_NATIVE=1`` a missing extension is an error instead (``replay.native``
refuses to import), so the CI's native leg cannot pass by skipping.
"""

import pytest

from replay import native


def pytest_collection_modifyitems(config, items):
    if native.available():
        return
    skip = pytest.mark.skip(reason=f"no native core: {native.backend()}")
    for item in items:
        if "tests/native/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)
