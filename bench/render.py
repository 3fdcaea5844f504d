"""Times drawing solved boards to SVG, PNG and GIF, in-process (the solve is not timed).

python bench/render.py [--repeat 3] [FILE ...]   (default: the 50x50 boards of ../shared/puzzles/large)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from common import puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    from cpflow.board.formats import load
    from cpflow.engines.pipeline import solve
    from cpflow.pictures.files import write_picture

    paths = args.files or [p for p in puzzles("large") if "50x50" in p.name]
    print("| board | size | svg s | png s | gif s | gif frames | png KiB |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            puzzle = load(path)[0]
            solution = solve(puzzle).solution
            row = [path.stem, f"{puzzle.width}x{puzzle.height}"]
            for suffix in (".svg", ".png", ".gif"):
                out = Path(folder) / f"board{suffix}"
                seconds = []
                for _ in range(args.repeat if suffix != ".gif" else 1):
                    began = time.perf_counter()
                    write_picture(out, puzzle, [solution])
                    seconds.append(time.perf_counter() - began)
                row.append(f"{statistics.median(seconds):.3f}")
            from PIL import Image

            row.append(str(Image.open(Path(folder) / "board.gif").n_frames))
            write_picture(Path(folder) / "board.png", puzzle, [solution])
            row.append(str((Path(folder) / "board.png").stat().st_size // 1024))
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
