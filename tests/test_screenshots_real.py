"""Real screenshots (../shared/screenshots/real) against their truth files (tests/screenshots/, judged
as bench/vision_real.py judges them): none is ever read as a wrong board or play, and each reads
exactly (its puzzle and its pipes; a picture of a board cpflow does not model is refused in one line).

The pictures that fail today are marked xfail(strict=True) with the reason: a fix turns them green,
and its marker must then be removed. The truth files themselves are checked without the pictures."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from cpflow.board.formats import parse_solution, picture
from cpflow.board.verify import is_solution

sys.path.insert(0, str(ROOT / "bench"))
import vision_real  # noqa: E402

PICTURES = ROOT.parent / "shared" / "screenshots" / "real"
TRUTH = ROOT / "tests" / "screenshots"
CASES = vision_real.cases(PICTURES, TRUTH)

# Read as a wrong board or play today (the reading of 2026-11-27, bench/vision_real.py): none.
WRONG: dict[str, str] = {}
# Refused in one line today: no wrong board, but not read.
REFUSED: dict[str, str] = {}
needs_pictures = pytest.mark.skipif(not PICTURES.is_dir(), reason="../shared/screenshots/real is absent")


def _marked(names: dict[str, str], why: str) -> list:
    """Every case as a parameter, those named xfail(strict=True) with their reason."""
    marked = []
    for case in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=f"{why}: {names[case.name]}")] if case.name in names else []
        marked.append(pytest.param(case, id=case.name, marks=marks))
    return marked


@functools.cache
def verdict(name: str) -> vision_real.Verdict:
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    return vision_real.judge(next(case for case in CASES if case.name == name))


@needs_pictures
@pytest.mark.parametrize("case", _marked(WRONG, "a wrong board today"))
def test_no_real_screenshot_reads_as_a_wrong_board(case):
    found = verdict(case.name)
    assert found.outcome != "wrong", found.detail


@needs_pictures
@pytest.mark.parametrize("case", _marked(WRONG | REFUSED, "not read exactly today"))
def test_every_real_screenshot_reads_exactly(case):
    found = verdict(case.name)
    assert found.outcome == "exact", f"{found.outcome}: {found.detail}"


def test_truth_files_are_whole_and_listed():
    """Every truth file is listed in pictures.txt and reads back as written; a solved picture's play
    is a solution the verifier passes, a half played one's play has pipes."""
    listed = {case.name for case in CASES}
    files = {str(p.relative_to(TRUTH))[: -len(".txt")] for p in TRUTH.glob("*/*.txt")}
    assert {f for f in files if not f.endswith(".play")} == listed
    assert {f[: -len(".play")] for f in files if f.endswith(".play")} <= listed
    assert len(CASES) >= 60
    for case in CASES:
        text = (TRUTH / f"{case.name}.txt").read_text()
        if case.puzzle is None:
            assert text == "refuse\n" and case.state == "-", case.name
            continue
        assert picture(case.puzzle) == text, case.name
        play = TRUTH / f"{case.name}.play.txt"
        assert (case.state == "unsolved") != play.exists(), case.name
        if case.state == "solved":
            assert is_solution(case.puzzle, parse_solution(case.puzzle, play.read_text(), str(play))), case.name
        if case.state == "half":
            assert case.drawn, case.name


def test_truth_covers_every_kind_and_look():
    kinds = {case.kind for case in CASES}
    looks = {case.look for case in CASES}
    states = {case.state for case in CASES}
    assert kinds >= {"square", "holes", "walls", "hexagons", "refuse"}
    assert looks >= {"phone", "tablet", "desktop", "old", "colour-blind", "crop", "tiny"}
    assert states >= {"unsolved", "half", "solved"}


def test_no_picture_is_copied_into_the_repository():
    pictures = [p for p in TRUTH.rglob("*") if p.suffix.lower() in {".png", ".jpg", ".jpeg"}]
    assert pictures == []
    assert all(Path(case.picture).is_relative_to(PICTURES) for case in CASES)
