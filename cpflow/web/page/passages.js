// Where a path may go on the board being played (play.js): the cells it steps to from a cell, the colour a cell
// holds (drawn, or its endpoint's), the cells of one colour joined to a cell, and what of a path drawn over goes.

import { cellOf, endpointAt, key, wallKey } from "./board.js";

export function passagesOf({ board, layout }, cell) {
  // The cells a path steps to from `cell`: its neighbours less holes and walls, and the other end of a warp.
  const k = key(cell);
  const found = layout.neighbours(cell).filter((n) => !board.holes.has(key(n)) && !board.walls.has(wallKey(cell, n)));
  for (const [a, b] of board.warps) {
    if (key(a) === k) found.push(b);
    if (key(b) === k) found.push(a);
  }
  return found;
}

export const colourIn = (page, drawn, k) => drawn.get(k) || endpointAt(page.board, cellOf(k))?.colour || null;

export function joined(page, drawn, from, colour) {
  // The cell keys of `colour` joined to the cell `from` (a key) through cells of that colour, drawn or endpoints.
  const seen = new Set([from]);
  const todo = [from];
  while (todo.length) {
    for (const next of passagesOf(page, cellOf(todo.pop()))) {
      const n = key(next);
      if (seen.has(n) || colourIn(page, drawn, n) !== colour) continue;
      seen.add(n);
      todo.push(n);
    }
  }
  return seen;
}

export function cutAway(page, drawn, k, colour, piece, from) {
  // The cells of `colour`'s `piece` (the cells joined to `k` before another colour was drawn over it, as `drawn` now
  // holds) that go, as in the game: the path is cut at `k` and what lies beyond the cut goes. A path joined to both
  // its ends keeps the side of the end it was started from (`from`, an endpoint's key), or, its start unknown (a play
  // from a link or a screenshot), its longer side; any other piece keeps what an endpoint of its colour still reaches.
  const ends = page.board.ends.filter((end) => end.colour === colour).flatMap((end) => end.cells.map(key));
  const reached = ends.filter((end) => piece.has(end)); // an end outside the piece reaches none of it
  const sides = reached.map((end) => joined(page, drawn, end, colour));
  let kept = new Set(sides.flatMap((side) => [...side]));
  if (sides.length === 2) {
    const start = reached.indexOf(from);
    kept = sides[start >= 0 ? start : Number(sides[1].size > sides[0].size)];
  }
  return [...piece].filter((j) => j !== k && !kept.has(j));
}
