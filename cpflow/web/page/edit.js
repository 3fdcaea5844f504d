// Editing the board: what each tool does to a cell, and the pointer and the keyboard on the editor.
// Endpoints take the palette's names in order; a second click elsewhere places the partner.

import { endpointAt, key, wallKey } from "./board.js";
import { $ } from "./dom.js";
import { drawEditor, pointAt } from "./draw.js";
import { changed } from "./session.js";
import { clearError, showError } from "./status.js";

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const TOOL_KEYS = { e: "endpoint", h: "hole", w: "wall", b: "bridge" };
const tool = () => document.querySelector("input[name=tool]:checked").value;

function useTool(page, name, cell) {
  clearError();
  const { board } = page;
  const k = key(cell);
  if (name === "endpoint") return placeEndpoint(page, cell);
  if (name === "hole") {
    if (board.holes.has(k)) board.holes.delete(k);
    else {
      removeEndpoint(board, cell);
      board.bridges.delete(k);
      board.holes.add(k);
      for (const w of [...board.walls]) if (w.split("|").includes(k)) board.walls.delete(w);
    }
  } else if (name === "bridge") {
    if (board.shape !== "square") return showError("Bridges stand on square boards only.");
    if (board.holes.has(k)) return showError("A hole cannot be a bridge: remove the hole first.");
    if (board.bridges.has(k)) board.bridges.delete(k);
    else {
      removeEndpoint(board, cell);
      board.bridges.add(k);
    }
  }
  changed(page);
}

function placeEndpoint(page, cell) {
  const { board } = page;
  const k = key(cell);
  if (board.holes.has(k)) return showError(`r${cell[0] + 1}c${cell[1] + 1} is a hole: an endpoint needs a cell on the board.`);
  if (board.bridges.has(k)) return showError(`r${cell[0] + 1}c${cell[1] + 1} is a bridge: endpoints cannot stand on bridges.`);
  if (endpointAt(board, cell)) removeEndpoint(board, cell);
  else {
    const open = board.ends.find((e) => e.cells.length === 1);
    if (open) open.cells.push(cell);
    else {
      const used = new Set(board.ends.map((e) => e.colour));
      const name = page.names.find((n) => !used.has(n));
      if (!name) return showError("No colour names left.");
      board.ends.push({ colour: name, cells: [cell] });
    }
  }
  changed(page);
}

function removeEndpoint(board, cell) {
  const end = endpointAt(board, cell);
  if (!end) return;
  end.cells = end.cells.filter((c) => key(c) !== key(cell));
  if (!end.cells.length) board.ends = board.ends.filter((e) => e !== end);
}

function toggleWall(page, a, b) {
  clearError();
  const { board } = page;
  if (!page.layout.touch(a, b)) return;
  if (board.holes.has(key(a)) || board.holes.has(key(b))) return showError("A wall stands between two cells of the board, not beside a hole.");
  const w = wallKey(a, b);
  if (board.walls.has(w)) board.walls.delete(w);
  else board.walls.add(w);
  changed(page);
}

function clearCell(page, cell) {
  const k = key(cell);
  removeEndpoint(page.board, cell);
  page.board.holes.delete(k);
  page.board.bridges.delete(k);
  changed(page);
}

function onClick(page, event) {
  if (!page.layout) return; // the board is not laid out yet
  const [first, second] = page.layout.nearest(pointAt(event));
  if (!first || first[0] > 0.75) return;
  page.cursor = first[1];
  if (tool() === "wall") {
    if (second && second[0] - first[0] < 0.3) toggleWall(page, first[1], second[1]);
    else {
      showError("With the wall tool, click on the line between two cells.");
      drawEditor(page);
    }
    return;
  }
  useTool(page, tool(), first[1]);
}

function onKey(page, event, ask) {
  if (event.ctrlKey || event.metaKey || event.altKey || !page.layout) return;
  const { board, cursor } = page;
  const step = ARROWS[event.key];
  if (step) {
    const to = [cursor[0] + step[0], cursor[1] + step[1]];
    if (event.shiftKey) {
      const near = page.layout.neighbours(cursor).filter((n) => (step[0] ? n[0] === to[0] && n[1] === cursor[1] : n[1] === to[1] && n[0] === cursor[0]));
      if (near.length) toggleWall(page, cursor, near[0]);
    } else if (to[0] >= 0 && to[1] >= 0 && to[0] < board.height && to[1] < board.width) {
      page.cursor = to;
      drawEditor(page);
    }
  } else if (event.key === "Enter" || event.key === " ") {
    if (tool() === "wall") showError("With the wall tool, Shift+arrow toggles the wall on that side of the cursor.");
    else useTool(page, tool(), cursor);
  } else if (event.key === "Delete" || event.key === "Backspace") {
    clearCell(page, cursor);
  } else if (TOOL_KEYS[event.key.toLowerCase()]) {
    document.querySelector(`input[name=tool][value=${TOOL_KEYS[event.key.toLowerCase()]}]`).checked = true;
  } else if (event.key === "s") {
    ask("solve");
  } else if (event.key === "u") {
    ask("unique");
  } else return;
  event.preventDefault();
}

export function startEditing(page, ask) {
  // `ask(kind)`: what the S and U keys start (Solve, Unique?).
  $("editor").addEventListener("click", (event) => onClick(page, event));
  $("editor").addEventListener("keydown", (event) => onKey(page, event, ask));
}
