// A puzzle in the page's address: `#p=` and the board's text as the editor reads it, its rows joined by `/`
// (`#p=.GY.Y/GO..B/R.CO./BR.C./.....`), each character an address may not hold percent-encoded (a hole's `#` is
// `%23`, a space `%20`). Any board: a variant's text is cpflow's board format (`#p=board%203x3%20hex/R.B/.R./B..`).
// A text with a `/` of its own (a colour named `/`) is kept whole instead, its line breaks percent-encoded (`%0A`).
// Older links (`#puzzle=` and the whole text URL-encoded) still open.

const KEEP = /[A-Za-z0-9\-._~!$&'()*+,;=:@]/; // what an address's fragment holds as it is (RFC 3986), but `/`

const encode = (text) => [...text].map((ch) => (KEEP.test(ch) ? ch : encodeURIComponent(ch))).join("");

export function linkOf(text) {
  // The address's fragment that opens the puzzle whose text this is.
  if (text.includes("/")) return `#p=${encode(text)}`;
  return `#p=${text.replace(/\n$/, "").split("\n").map(encode).join("/")}`;
}

export function puzzleIn(hash) {
  // The puzzle's text a fragment holds, or null when it names none. Text that is not a puzzle is returned as it
  // is, for the reader to say what is wrong with it (as it says of a file).
  const [, kind, body] = hash.match(/^#(p|puzzle)=(.*)$/s) || [];
  if (!body) return null;
  let text = body;
  try {
    text = decodeURIComponent(body);
  } catch (_) {} // a stray `%`: the text as it stands
  return kind === "p" && !text.includes("\n") ? `${text.split("/").join("\n")}\n` : text;
}
