// Where the server draws each cell of a board and which cells touch it (`api/board` with `geometry`:
// cpflow/board/geometry.py and the board's lattice), for one shape and size. The page computes none of it.

export class Layout {
  constructor(geometry, { shape, width, height }) {
    Object.assign(this, { shape, width, height });
    this.extent = geometry.extent; // [width, height] of the drawing, in cell units
    this.cells = geometry.cells; // row by row: { centre, outline, neighbours }
  }

  fits(board) {
    return board.shape === this.shape && board.width === this.width && board.height === this.height;
  }

  centre([r, c]) {
    return this.cells[r * this.width + c].centre;
  }

  outline([r, c]) {
    return this.cells[r * this.width + c].outline;
  }

  neighbours([r, c]) {
    return this.cells[r * this.width + c].neighbours;
  }

  touch(a, b) {
    return this.neighbours(a).some(([r, c]) => r === b[0] && c === b[1]);
  }

  sharedSide(a, b) {
    // The two corners the outlines of touching cells have in common: where a wall between them stands.
    const other = this.outline(b);
    const near = this.outline(a).filter((p) => other.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-3));
    return near.length === 2 ? near : null;
  }

  nearest([x, y]) {
    // Every cell with its distance from the point (x, y), nearest first.
    const found = [];
    for (let r = 0; r < this.height; r++) {
      for (let c = 0; c < this.width; c++) {
        const [cx, cy] = this.centre([r, c]);
        found.push([Math.hypot(cx - x, cy - y), [r, c]]);
      }
    }
    return found.sort((a, b) => a[0] - b[0]);
  }
}
