"""Real screenshots changed as a user's own would differ from them (bench/vision_perturbed.py: scaled, cut
to the board, cut through its edge cells, dimmed, darker mid tones, framed, a banner over the top), each of
which was once read as a wrong board: now refused in one line, or read exactly. Skipped without
../shared/screenshots/real."""

from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import vision_real  # noqa: E402

PICTURES = ROOT.parent / "shared" / "screenshots" / "real"
HARRISON, HEMOALI, PKONKLE = "Harrison5399_Flow-Free-CNF-SAT-Solver", "hemoali_Flow-Solver", "pkonkle213_FlowFreeSolver"
ZNORAKA, TALSOR = "znoraka_flow-free-solver", "TalsoR92_flowFreeSolver"
LUDOVIC = "ludovicb1239_FlowShapesSolver"
# (picture, variant, side of a cut: vision_perturbed.SIDES' index) -> what it must read as now, and what it was
ONCE_WRONG = [
    (f"{HEMOALI}/Flow_Solver_mazes_maze8x8.png", "cut", 0, {"refused"}, "read 7x8 for 8x8"),
    (f"{HARRISON}/Boards_9x9_IMG_9109.PNG", "cut", 0, {"refused"}, "read 8x9 for 9x9"),
    (f"{PKONKLE}/SolvedBoards_board1.jpg", "crop", 0, {"exact"}, "read 6x6 for 5x5"),
    (f"{PKONKLE}/SolvedBoards_boardHard.jpg", "crop", 0, {"exact"}, "read 13x17 for 12x15"),
    (f"{HARRISON}/Boards_14x12_IMG_9169.PNG", "dim", 0, {"exact", "refused"}, "two pairs of dark dots left out"),
    (f"{HARRISON}/Boards_14x12_IMG_9170.PNG", "dim", 0, {"exact", "refused"}, "two pairs of dark dots left out"),
    (f"{HEMOALI}/Flow_Solver_mazes_maze10x12.png", "scale 0.75", 0, {"exact", "refused"}, "two rows of buttons read"),
    (f"{PKONKLE}/SolvedBoards_2022-08-30_18.17.47.jpg", "scale 0.75", 0, {"exact"}, "a line of the outline missed"),
    (f"{ZNORAKA}/data_150.png", "gamma", 0, {"exact", "refused"}, "16 holes read where faded lines are"),
    (f"{ZNORAKA}/data_141.png", "gamma", 0, {"exact", "refused"}, "8 holes read where faded lines are"),
    (f"{ZNORAKA}/data_150.png", "frame", 0, {"exact", "refused"}, "4 holes read along a faded edge line"),
    (f"{TALSOR}/src_levels_on_img_board_9-9_final_capture_10.png", "frame", 0, {"exact", "refused"}, "2 edge holes"),
    (f"{LUDOVIC}/FlowShapesSolver_tests_4.jpg", "cut", 3, {"exact", "refused"}, "a hole cut in half read as a cell"),
    (f"{LUDOVIC}/FlowShapesSolver_tests_4.jpg", "banner", 0, {"refused"}, "read 9x8 hex for 9x9 hex"),
    (f"{ZNORAKA}/data_in2.jpg", "banner", 0, {"refused"}, "read 10x9 for 10x10: a banner over most of its top row"),
    (f"{LUDOVIC}/FlowShapesSolver_tests_original6.png", "scale 0.5", 0, {"exact", "refused"}, "its 40 walls left out"),
    (f"{LUDOVIC}/FlowShapesSolver_tests_original7.png", "scale 0.5", 0, {"exact", "refused"}, "22 walls read as tints"),
    (f"{PKONKLE}/SolvedBoards_2022-08-30_18.17.47.jpg", "crop", 0, {"exact", "refused"}, "page read as cells"),
    (f"{PKONKLE}/SolvedBoards_2022-08-30_18.17.47.jpg", "cut", 3, {"exact", "refused"}, "read 12x13 for 12x14"),
]


@pytest.mark.skipif(not PICTURES.is_dir(), reason="../shared/screenshots/real is absent")
@pytest.mark.parametrize(
    ("name", "variant", "side", "now", "once"), ONCE_WRONG, ids=[f"{c[1]}:{c[0]}" for c in ONCE_WRONG]
)
def test_a_variant_once_read_wrong_is_refused_or_exact(name, variant, side, now, once, tmp_path):
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    import vision_perturbed

    case = next(case for case in vision_real.cases(PICTURES) if case.name == name)
    box = vision_perturbed.board_box(case) if variant in vision_perturbed.NEEDS_BOX else None
    changed = vision_perturbed.variant(case, variant, side, box, tmp_path)
    assert changed is not None
    verdict = vision_real.judge(changed)
    assert verdict.outcome in now, f"{verdict.outcome} (once: {once}): {verdict.detail}"
    if verdict.outcome == "refused":
        assert "\n" not in verdict.detail
