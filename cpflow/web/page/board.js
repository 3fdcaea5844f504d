// The board as the editor holds it: size, shape, endpoints (a colour's second one perhaps not placed
// yet), holes, bridges, walls and warps. Cells are [row, col] from 0; sets hold them as "row,col" keys.
// The server writes it as a puzzle file (`record` is what it is sent as) and lays it out.

export function emptyBoard(width, height, shape) {
  return { width, height, shape, ends: [], holes: new Set(), bridges: new Set(), walls: new Set(), warps: [], rgb: {} };
}

export const key = ([r, c]) => `${r},${c}`;
export const cellOf = (k) => k.split(",").map(Number);
export const wallKey = (a, b) => [key(a), key(b)].sort(compareKeys).join("|");

function compareKeys(x, y) {
  const [a, b] = [cellOf(x), cellOf(y)];
  return a[0] - b[0] || a[1] - b[1];
}

export function endpointAt(board, cell) {
  const k = key(cell);
  for (const end of board.ends) for (const c of end.cells) if (key(c) === k) return end;
  return null;
}

export function isBlank(board) {
  // A square board with nothing on it: the page's address then names no puzzle.
  return board.shape === "square" && !board.ends.length && !board.holes.size && !board.bridges.size && !board.walls.size && !board.warps.length;
}

export function problems(board) {
  // Why the board cannot be asked about yet, or null.
  const open = board.ends.find((e) => e.cells.length === 1);
  if (open) return `Colour ${open.colour} has one endpoint: click a cell for its partner (or click it to remove it).`;
  if (!board.ends.length) return "The board has no endpoints yet: click two cells to place a pair.";
  return null;
}

export function record(board) {
  // The board as `api/board` takes it (the record `api/read` answers, less its colours).
  return {
    width: board.width,
    height: board.height,
    shape: board.shape,
    endpoints: Object.fromEntries(board.ends.map((end) => [end.colour, end.cells])),
    holes: [...board.holes].map(cellOf),
    bridges: [...board.bridges].map(cellOf),
    walls: [...board.walls].map((w) => w.split("|").map(cellOf)),
    warps: board.warps,
  };
}

export function fromRead(answer, names) {
  // The server's reading of a file: colours whose names are not one character are renamed to `names`' that are,
  // and past those (a 30x30 level has up to 77 colours) to further letters, one character each.
  const found = Object.keys(answer.endpoints);
  const given = oneCharacterNames(names, found.length);
  const rename = found.every((n) => n.length === 1 && !".#+".includes(n)) ? (n) => n : (n) => given[found.indexOf(n)];
  const board = emptyBoard(answer.width, answer.height, answer.shape);
  for (const n of found) {
    board.ends.push({ colour: rename(n), cells: answer.endpoints[n] });
    board.rgb[rename(n)] = answer.colours[n];
  }
  for (const h of answer.holes) board.holes.add(key(h));
  for (const b of answer.bridges) board.bridges.add(key(b));
  for (const [a, b] of answer.walls) board.walls.add(wallKey(a, b));
  board.warps = answer.warps;
  return board;
}

function oneCharacterNames(names, count) {
  // `count` names of one character: `names`, then letters from the Greek alphabet on that are not among them.
  const given = names.slice(0, count);
  for (let code = 0x3b1; given.length < count; code++) {
    const name = String.fromCodePoint(code);
    if (/\p{L}/u.test(name) && !names.includes(name)) given.push(name);
  }
  return given;
}
