// A puzzle in the page's address: `#p=` and the board's text as the editor reads it, its rows joined by `/`
// (`#p=.GY.Y/GO..B/R.CO./BR.C./.....`), each character an address may not hold percent-encoded (a hole's `#` is
// `%23`, a space `%20`, an `&` `%26`). Any board: a variant's text is cpflow's board format
// (`#p=board%203x3%20hex/R.B/.R./B..`). A text with a `/` of its own (a colour named `/`) is kept whole instead, its
// line breaks percent-encoded (`%0A`). Older links (`#puzzle=` and the whole text URL-encoded) still open.
// The play drawn so far follows after `&d=`: a row a line, joined by `/`, a drawn cell its colour, any other `.`
// (`&d=.RR/..R`: r1c2, r1c3 and r2c3 drawn in R), dots at a row's end and empty rows at the end left out. A link
// opens its puzzle in Play, with its drawing; a reload keeps the play so.

const KEEP = /[A-Za-z0-9\-._~!$'()*+,;=:@]/; // what an address's fragment holds as it is (RFC 3986), but `/` and `&`

const encode = (text) => [...text].map((ch) => (KEEP.test(ch) ? ch : encodeURIComponent(ch))).join("");

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch (_) {
    return text; // a stray `%`: the text as it stands
  }
}

export function linkOf(text, drawing = "") {
  // The address's fragment that opens the puzzle whose text this is (and the play `drawingOf` wrote).
  if (text.includes("/")) return `#p=${encode(text)}${drawing}`;
  return `#p=${text.replace(/\n$/, "").split("\n").map(encode).join("/")}${drawing}`;
}

const LINK = /^#(p|puzzle)=(.*?)(?:&d=([^&]*))?$/s;

export function puzzleIn(hash) {
  // The puzzle's text a fragment holds, or null when it names none. Text that is not a puzzle is returned as it
  // is, for the reader to say what is wrong with it (as it says of a file).
  const [, kind, body] = hash.match(LINK) || [];
  if (!body) return null;
  const text = decode(body);
  return kind === "p" && !text.includes("\n") ? `${text.split("/").join("\n")}\n` : text;
}

export function drawingOf(drawn) {
  // The part of the address after the puzzle's link that holds the play (`drawn`: cell key -> colour); "" for none.
  const rows = [];
  for (const [k, colour] of drawn) {
    const [r, c] = k.split(",").map(Number);
    while (rows.length <= r) rows.push([]);
    while (rows[r].length < c) rows[r].push(".");
    rows[r][c] = colour;
  }
  return rows.length ? `&d=${rows.map((row) => row.map((ch) => (ch === undefined ? "." : encode(ch))).join("")).join("/")}` : "";
}

export function drawnIn(hash, board) {
  // The cells a fragment's play draws on this board, `[row, col, colour]` each: those inside it, neither a hole nor
  // an endpoint, in one of its colours (anything else is left out).
  const [, , , drawing] = hash.match(LINK) || [];
  if (!drawing) return [];
  const colours = new Set(board.ends.map((end) => end.colour));
  const taken = new Set([...board.holes, ...board.ends.flatMap((end) => end.cells.map(([r, c]) => `${r},${c}`))]);
  const cells = [];
  drawing.split("/").forEach((row, r) => {
    [...decode(row)].forEach((colour, c) => {
      if (r < board.height && c < board.width && colours.has(colour) && !taken.has(`${r},${c}`)) cells.push([r, c, colour]);
    });
  });
  return cells;
}
