"""The test suite itself: a test that hangs fails with its stack instead of hanging CI."""

from __future__ import annotations

import subprocess
import sys


def test_every_test_has_a_time_limit(pytestconfig):
    assert pytestconfig.pluginmanager.hasplugin("timeout")
    assert 0 < float(pytestconfig.getini("timeout")) <= 600


def test_a_hung_test_fails_with_its_stack(tmp_path):
    hung = tmp_path / "test_hung.py"
    hung.write_text("import time\n\ndef test_hangs():\n    time.sleep(60)\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "timeout=1", str(hung)],
        capture_output=True,
        text=True,
        timeout=50,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "Timeout" in done.stdout and "time.sleep(60)" in done.stdout
