"""Pictures: SVG with the right shapes, PNG with the right colours in the right places, GIFs, the terminal."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest
from PIL import Image
from rich.console import Console
from typer.testing import CliRunner

from conftest import LARGE, PUZZLES, VARIANTS, ZUCKER, board, needs_variants, project_puzzles, variant_levels
from cpflow.board.formats import load, load_solution, load_with_solutions, parse
from cpflow.board.geometry import centre
from cpflow.board.grid import cell_of, lattice
from cpflow.cli import app
from cpflow.engines.pipeline import solve
from cpflow.pictures import raster
from cpflow.pictures.files import frames, scale_for, write_picture
from cpflow.pictures.palette import colours, spare_colour
from cpflow.pictures.scene import scene
from cpflow.pictures.svg import svg
from cpflow.pictures.terminal import terminal

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"
STARTER = PUZZLES / "starter_9x9.txt"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def starter():
    (puzzle,) = load(STARTER)
    return puzzle, load_solution(puzzle, STARTER.with_suffix(".solution.txt"))


def shapes(text: str) -> dict[str, int]:
    """How many elements of each class an SVG holds."""
    found: dict[str, int] = {}
    for element in ET.fromstring(text).iter():
        kind = element.get("class")
        if kind:
            found[kind] = found.get(kind, 0) + 1
    return found


def warp_steps(puzzle, solution) -> int:
    return sum(not puzzle.touches(cell_of(u), cell_of(w)) for p in solution.paths.values() for u, w in pairwise(p))


def border_sides(puzzle) -> int:
    """The sides of board cells with no board cell beyond (walls and warps aside: a warp leaves by one)."""
    on, sides = set(puzzle.cells), {"square": 4, "hex": 6}[puzzle.shape]
    beyond = sum(sides - len(set(lattice(puzzle.shape, puzzle.width, puzzle.height, cell)) & on) for cell in on)
    return beyond - 2 * len(puzzle.warps())


def expected_shapes(puzzle, solution) -> dict[str, int]:
    warps = warp_steps(puzzle, solution)
    crossed = len(puzzle.bridges())  # the game's bridges are always crossed both ways
    found = {"background": 1, "cell": len(puzzle.cells), "dot": 2 * len(puzzle.colours)}
    found |= {"pipe": len(puzzle.colours) + warps, "wall": len(puzzle.walls())}
    found |= {"gap": crossed, "overpass": crossed, "bridge": crossed, "warp": 2 * warps + 2 * len(puzzle.warps())}
    found["border"] = border_sides(puzzle)
    return {kind: n for kind, n in found.items() if n}


def test_a_classic_board_as_svg_has_a_cell_a_pipe_and_two_dots_per_colour():
    puzzle, solution = starter()
    assert shapes(svg(scene(puzzle, solution), 40)) == expected_shapes(puzzle, solution)


@needs_variants
@pytest.mark.parametrize("path", variant_levels(), ids=lambda p: p.stem)
def test_every_variant_as_svg_has_its_cells_walls_warps_and_bridges(path):
    ((puzzle, solution),) = load_with_solutions(path)
    assert shapes(svg(scene(puzzle, solution), 40)) == expected_shapes(puzzle, solution)


def pixel(image: Image.Image, puzzle, node, scale: float) -> tuple[int, int, int]:
    x, y = centre(puzzle.shape, cell_of(node))
    return image.getpixel((int(x * scale), int(y * scale)))


def close(a, b, slack: int = 12) -> bool:
    return all(abs(x - y) <= slack for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    "path", [STARTER, *[VARIANTS / f"{n}.level" for n in ("15_bridges_L22", "23_hexes_hex_L61", "27_warps_warps_L47")]]
)
def test_a_png_shows_each_endpoint_and_each_path_cell_in_its_colour(path):
    if not path.exists():
        pytest.skip("../shared/puzzles/variants is absent")
    ((puzzle, solution),) = load_with_solutions(path)
    solution = solution or solve(puzzle).solution
    picture = scene(puzzle, solution)
    scale = scale_for(picture)
    image = Image.open(io.BytesIO(raster.png(picture, scale))).convert("RGB")
    palette = colours(puzzle)
    bridges = set(puzzle.bridges())
    for colour, path_nodes in solution.paths.items():
        for node in path_nodes:
            if cell_of(node) not in bridges:
                assert close(pixel(image, puzzle, node, scale), palette[colour]), (colour, node)


def test_a_gif_has_one_frame_per_drawing_step():
    puzzle, solution = starter()
    data = raster.gif(frames(puzzle, solution), 20, 2.0)
    animation = Image.open(io.BytesIO(data))
    longest = max(len(p) for p in solution.paths.values())
    assert animation.n_frames == len(frames(puzzle, solution)) == longest  # short paths: one step a frame
    big = load(PUZZLES / "gen_30x30_01.txt")[0]
    assert len(frames(big, solve(big).solution)) <= 61


def test_a_gif_draws_the_cells_not_reached_yet_in_the_board_s_black():
    puzzle, solution = starter()
    animation = Image.open(io.BytesIO(raster.gif(frames(puzzle, solution), 20, 2.0)))
    first = animation.convert("RGB")  # the first frame: each path has taken its first step
    later = [node for path in solution.paths.values() for node in path[3:-1]]
    assert later
    assert all(pixel(first, puzzle, node, 20) == (0, 0, 0) for node in later)


def test_an_animated_svg_draws_each_pipe_in():
    puzzle, solution = starter()
    text = svg(scene(puzzle, solution), 40, animate=3.0)
    assert text.count("<animate ") == len(puzzle.colours)


def test_two_solutions_side_by_side_mark_the_cells_that_differ():
    puzzle = board("""
        B..G
        .GB.
        .RR.
        ....
    """)
    from cpflow.workflows.unique import uniqueness

    found = uniqueness(puzzle)
    both = scene(puzzle, found.solutions[0])
    from cpflow.pictures.scene import beside

    pair = beside([scene(puzzle, s, found.differences()) for s in found.solutions])
    assert pair.width > 2 * both.width and len(pair.marks) == 2 * len(found.differences()) > 0


def test_hundreds_of_colours_are_distinct_and_bright_enough_to_read_on_black():
    spare = [spare_colour(i) for i in range(300)]
    assert len(set(spare)) == 300
    assert all(0.299 * r + 0.587 * g + 0.114 * b > 90 for r, g, b in spare)


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_render_draws_a_puzzle_and_a_level_carries_its_solution(tmp_path, suffix):
    out = tmp_path / f"board{suffix}"
    result = run("render", STARTER, "--solve", "--out", out)
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 0
    if VARIANTS.is_dir():
        level = tmp_path / f"level{suffix}"
        assert run("render", VARIANTS / "15_bridges_L22.level", "--out", level).exit_code == 0
        if suffix == ".svg":
            assert shapes(level.read_text())["pipe"] == 4


def test_render_refuses_a_bad_suffix_and_an_unsolvable_board_writing_nothing(tmp_path):
    bad = run("render", STARTER, "--out", tmp_path / "board.bmp")
    assert bad.exit_code == 2 and "picture format" in bad.stderr and not (tmp_path / "board.bmp").exists()
    unsolvable = project_puzzles(solvable=False)[0]
    nothing = run("render", unsolvable, "--solve", "--out", tmp_path / "none.png")
    assert nothing.exit_code == 1 and not (tmp_path / "none.png").exists()


def test_solve_unique_and_generate_draw_beside_their_output(tmp_path):
    assert run("solve", "--quiet", "--svg", tmp_path / "s", "--png", tmp_path / "s", STARTER).exit_code == 0
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["starter_9x9.png", "starter_9x9.svg"]
    two = tmp_path / "two.txt"
    two.write_text("B..G\n.GB.\n.RR.\n....\n")
    assert run("unique", "--quiet", "--png", tmp_path / "u", two).exit_code == 1
    pair = Image.open(tmp_path / "u" / "two.png")
    assert pair.width > 2 * pair.height
    made = run("generate", "--size", "5x5", "--seed", "1", "--svg", tmp_path / "g")
    assert made.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == ["gen_5x5_01.solution.svg", "gen_5x5_01.svg"]


def test_the_terminal_picture_fits_the_terminal_or_says_how_to_see_the_board():
    puzzle = load(PUZZLES / "gen_40x10_01.txt")[0]
    solution = solve(puzzle).solution
    wide, narrow, tiny = (terminal(puzzle, solution, width=w).plain for w in (200, 60, 30))
    assert max(map(len, wide.splitlines())) == 2 * 40 + 1
    assert max(map(len, narrow.splitlines())) == 40 + 1
    assert "cpflow render" in tiny and len(tiny.splitlines()) == 1


def test_without_colour_endpoints_show_their_letters(tmp_path):
    result = run("solve", "--format", "terminal", "--color", "never", STARTER)
    assert "●" not in result.stdout and "\x1b[" not in result.stdout
    assert {"R", "G", "B"} <= set(result.stdout)
    coloured = run("solve", "--format", "terminal", "--color", "always", STARTER)
    assert "●" in coloured.stdout and "\x1b[" in coloured.stdout


def test_no_color_in_the_environment_turns_colour_off():
    console = Console(force_terminal=True, highlight=False, _environ={"NO_COLOR": "1"})
    puzzle, solution = starter()
    with console.capture() as captured:
        console.print(terminal(puzzle, solution, colour=console.color_system is not None))
    assert "\x1b[3" not in captured.get()


def every_board():
    paths = project_puzzles() + project_puzzles(solvable=False)
    for folder in (ZUCKER, LARGE):
        paths += sorted(p for p in folder.glob("*.txt") if not p.name.endswith(".sol.txt")) if folder.is_dir() else []
    return paths + variant_levels()


def test_every_board_renders_to_svg_and_png(tmp_path):
    for path in every_board():
        for puzzle, carried in load_with_solutions(path):
            stored = path.with_suffix(".solution.txt")
            solution = carried or (load_solution(puzzle, stored) if stored.exists() else None)
            for suffix in (".svg", ".png"):
                out = tmp_path / f"{path.stem}{suffix}"
                write_picture(out, puzzle, [solution] if solution else [])
                assert out.stat().st_size > 0


def test_a_board_file_with_holes_renders_its_holes_as_background():
    (puzzle,) = parse("board 3x2\nR#R\n...\n")
    text = svg(scene(puzzle), 40)
    assert shapes(text)["cell"] == 5


def test_an_ilp_gif_has_one_frame_per_round_of_loop_cuts(tmp_path):
    from dataclasses import replace

    from cpflow.board.grid import Rules

    path = tmp_path / "loops.txt"
    path.write_text("R....\n.....\nR.G..\nG....\n.....\n")  # with touching allowed, CBC's first answers loop
    puzzle = replace(load(path)[0], rules=Rules(touch=True))
    rounds = []
    result = solve(puzzle, "ilp-cbc", on_round=rounds.append)
    assert len(rounds) == result.stats["rounds"] > 1
    out = tmp_path / "cuts.gif"
    assert run("render", path, "--solve", "--engine", "ilp-cbc", "--allow-touch", "--out", out).exit_code == 0
    assert Image.open(out).n_frames == result.stats["rounds"]
