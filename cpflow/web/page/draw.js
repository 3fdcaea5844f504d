// Drawing the editor: the board's cells where the server's layout puts them, its holes, bridges, walls,
// warps and endpoints, the rows' and columns' labels (r1, c1: a hint's words for a cell, counted from 1), and
// the keyboard's cursor; then whatever the "draw" hook adds (the play).

import { cellOf, endpointAt, key } from "./board.js";
import { $, el, pts } from "./dom.js";

export function colourOf(page, name) {
  return page.board.rgb[name] || page.palette[name] || "#bbbbbb";
}

function ink(hex) {
  // Black on light colours, white on dark ones, as the server's labels are.
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}

export function drawEditor(page) {
  const { board, layout, cursor } = page;
  const svg = $("editor");
  svg.replaceChildren();
  if (!layout || !layout.fits(board)) return; // drawn when the server's layout arrives
  const [w, h] = layout.extent;
  const axes = labelSizes(page, svg);
  svg.setAttribute("viewBox", `${-axes.left} ${-axes.top} ${w + axes.left + 0.05} ${h + axes.top + 0.05}`);
  drawLabels(page, svg, axes);
  drawCells(page, svg);
  drawPairs(page, svg);
  drawEnds(page, svg);
  el("polygon", { class: "e-cursor", points: pts(layout.outline(cursor)) }, svg);
  svg.setAttribute("aria-label", `Puzzle editor, ${board.width} by ${board.height} ${board.shape}; cursor at row ${cursor[0] + 1}, column ${cursor[1] + 1}${describe(board, cursor)}. Arrow keys move, Enter places, Delete removes.`);
  page.hooks.emit("draw", svg);
}

function drawCells({ board, layout }, svg) {
  for (let r = 0; r < board.height; r++) {
    for (let c = 0; c < board.width; c++) {
      const k = key([r, c]);
      const kind = board.holes.has(k) ? "hole" : board.bridges.has(k) ? "bridge" : "cell";
      el("polygon", { class: `e-${kind}`, points: pts(layout.outline([r, c])), "data-cell": k }, svg);
      const [x, y] = layout.centre([r, c]);
      if (kind === "hole") el("path", { class: "e-hole-mark", d: `M${x - 0.2},${y - 0.2}L${x + 0.2},${y + 0.2}M${x + 0.2},${y - 0.2}L${x - 0.2},${y + 0.2}` }, svg);
      if (kind === "bridge") el("path", { class: "e-bridge-mark", d: `M${x - 0.45},${y}H${x + 0.45}M${x},${y - 0.45}V${y + 0.45}` }, svg);
    }
  }
}

const LABEL_PX = 12; // the labels' smallest size on the screen, in CSS pixels

function labelSizes({ board, layout }, svg) {
  // The labels' size in cell units (0.3 of a cell, or LABEL_PX on the screen when cells are drawn small), the room
  // they take left of and above the board, and which are shown: every one, or every other (third, ...) where
  // neighbours would overlap. The scale is the one the editor's box gives (its width, its max-height).
  const [w, h] = layout.extent;
  const width = svg.clientWidth;
  const high = parseFloat(getComputedStyle(svg).maxHeight) || Infinity;
  const chars = (n) => String(n).length + 1; // "r12": 3
  let [size, left, top] = [0.3, 0, 0];
  for (let i = 0; i < 3; i++) { // the margins change the scale a little: settle it
    left = 0.62 * size * chars(board.height) + 0.12;
    top = 0.9 * size + 0.15;
    const scale = Math.min(width / (w + left + 0.05), high / (h + top + 0.05)); // CSS pixels per cell unit
    if (scale > 0) size = Math.max(0.3, LABEL_PX / scale);
  }
  const apart = board.width > 1 ? layout.centre([0, 1])[0] - layout.centre([0, 0])[0] : 1;
  const columns = Math.ceil((0.62 * size * chars(board.width) + 0.3 * size) / apart);
  const rows = Math.ceil(1.1 * size);
  return { size, left, top, rows, columns };
}

function drawLabels({ board, layout }, svg, { size, rows, columns }) {
  // r1, r2, ... down the side, c1, c2, ... across the top: where the hint's `r5c1` is.
  for (let r = 0; r < board.height; r += rows) {
    const x = Math.min(...layout.outline([r, 0]).map((p) => p[0])) - 0.08;
    const label = el("text", { class: "e-axis", x, y: layout.centre([r, 0])[1] + 0.3 * size, "font-size": size, "text-anchor": "end", "data-row": r + 1 }, svg);
    label.textContent = `r${r + 1}`;
  }
  for (let c = 0; c < board.width; c += columns) {
    const y = Math.min(...layout.outline([0, c]).map((p) => p[1])) - 0.1;
    const label = el("text", { class: "e-axis", x: layout.centre([0, c])[0], y, "font-size": size, "text-anchor": "middle", "data-column": c + 1 }, svg);
    label.textContent = `c${c + 1}`;
  }
}

export function redrawOnResize(page) {
  // The labels' size follows the editor's width and max-height (a window resized, a phone turned).
  const svg = $("editor");
  let seen = "";
  new ResizeObserver(() => {
    const now = `${svg.clientWidth} ${getComputedStyle(svg).maxHeight}`;
    if (now !== seen && seen) drawEditor(page);
    seen = now;
  }).observe(svg);
}

function drawPairs({ board, layout }, svg) {
  for (const w of board.walls) {
    const [a, b] = w.split("|").map(cellOf);
    const side = layout.sharedSide(a, b);
    if (side) el("line", { class: "e-wall", x1: side[0][0], y1: side[0][1], x2: side[1][0], y2: side[1][1] }, svg);
  }
  for (const [a, b] of board.warps) {
    for (const cell of [a, b]) {
      const [x, y] = layout.centre(cell);
      el("circle", { class: "e-warp", cx: x, cy: y, r: 0.42 }, svg);
    }
  }
}

function drawEnds(page, svg) {
  const { board, layout } = page;
  const big = Math.max(board.width, board.height);
  for (const end of board.ends) {
    for (const cell of end.cells) {
      const [x, y] = layout.centre(cell);
      const open = end.cells.length === 1;
      el("circle", { class: open ? "e-dot e-open" : "e-dot", cx: x, cy: y, r: 0.33, fill: colourOf(page, end.colour), "data-colour": end.colour }, svg);
      if (big <= 30) {
        const label = el("text", { class: "e-label", x, y: y + 0.12, "text-anchor": "middle", fill: ink(colourOf(page, end.colour)) }, svg);
        label.textContent = end.colour;
      }
    }
  }
}

function describe(board, cell) {
  const k = key(cell);
  const end = endpointAt(board, cell);
  if (end) return `, endpoint ${end.colour}`;
  if (board.holes.has(k)) return ", a hole";
  if (board.bridges.has(k)) return ", a bridge";
  return "";
}

export function pointAt(event) {
  // Where a pointer event is, in the drawing's cell units.
  const svg = $("editor");
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, p.y];
}
