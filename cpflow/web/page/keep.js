// What a reload would lose of a play besides its drawing (which the address holds, link.js): the moves, the hints
// applied, the seconds played, the time it was solved in, the strokes Undo takes back, and the end each colour's
// path was started from (the side a cut keeps). Kept in the tab's
// sessionStorage with the address it belongs to (its puzzle and drawing), and given back only to that address, so
// that a reload goes on where it was; a link opened elsewhere (another tab, another phone) starts its count anew.

import { key } from "./board.js";
import { drawingOf, drawnIn } from "./link.js";

const NAME = "cpflow-play";
const UNDOS = 200; // strokes kept for Undo across a reload, the latest

const puzzleOf = (hash) => (hash.match(/^#p=[^&]*/) || [""])[0];

export function keepPlay(play) {
  // The play as it stands, kept for a reload of this address (none kept for a board with no link).
  const puzzle = puzzleOf(location.hash);
  if (!puzzle) return;
  const kept = {
    puzzle,
    drawing: drawingOf(play.drawn),
    moves: play.moves,
    hints: play.hints,
    seconds: play.began === null ? 0 : (performance.now() - play.began) / 1000,
    took: play.took,
    undos: play.undos.slice(-UNDOS).map(drawingOf),
    from: [...play.from],
  };
  try {
    sessionStorage.setItem(NAME, JSON.stringify(kept));
  } catch (_) {} // no storage (a private window, full): a reload starts the count anew
}

export function keptPlay() {
  // What was kept for a reload (read before the play opened from the address keeps its own), or null.
  try {
    return JSON.parse(sessionStorage.getItem(NAME));
  } catch (_) {
    return null;
  }
}

export function restorePlay(play, board, kept) {
  // The count, the clock and the undos `kept` (keptPlay), if they are this address's and the play drawn is the one
  // kept. True if restored.
  if (!kept || kept.puzzle !== puzzleOf(location.hash) || kept.drawing !== drawingOf(play.drawn)) return false;
  const drawn = (drawing) => new Map(drawnIn(`#p=${drawing}`, board).map(([r, c, colour]) => [key([r, c]), colour]));
  Object.assign(play, { moves: kept.moves, hints: kept.hints, took: kept.took, undos: kept.undos.map(drawn) });
  play.from = new Map(kept.from || []);
  play.began = performance.now() - kept.seconds * 1000;
  return true;
}
