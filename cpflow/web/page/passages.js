// Where a path may go on the board being played (play.js): the cells it steps to from a cell, the colour a cell
// holds (drawn, or its endpoint's), and the cells of one colour joined to a cell.

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
