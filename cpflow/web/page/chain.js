// "Why?" in Play: a what if's chain played cell by cell, one link a press.
//
// A what-if hint (`api/hint`, status "step", rule "what if") carries its alternatives
// (`assumptions`), each with the chain the rules follow from it (`chain`: {cell, colour, rule, says},
// the first one assumed; a path piece joined between two empty cells has `to`, its other cell, and no
// colour) and the contradiction they meet (`contradiction`: {rule, cells, says}). Why? shows the first
// alternative's links one at a time, each cell in its colour (a piece as a short segment) with those
// before it outlined, then the contradiction's cells crossed out, then the hint again. Any other change
// to the play ends the walk.

import { $ } from "./dom.js";
import { say } from "./status.js";

export function offerWhy(play, answer) {
  // After a hint: Why? is offered when it is a what if.
  const chain = answer.status === "step" && answer.assumptions?.length ? answer.assumptions[0] : null;
  play.why = chain ? { chain, marks: play.marks, reason: $("status").textContent, at: 0 } : null;
}

export function whyOffered(play) {
  // Whether Why? still belongs to the marks shown (a stroke, Undo or another hint ends it).
  const { why, marks } = play;
  if (why && !(marks === why.marks || marks?.walk)) play.why = null;
  $("why").hidden = !play.why;
  return Boolean(play.why);
}

export function nextWhy(play) {
  // The next link, then the contradiction, then the hint as it was.
  const { why } = play;
  if (!why) return;
  const links = why.chain.chain;
  const shown = links.length + 1;
  why.at = (why.at % (shown + 1)) + 1;
  if (why.at <= links.length) {
    const link = links[why.at - 1];
    const before = links.slice(0, why.at - 1).flatMap((l) => (l.to ? [l.cell, l.to] : [l.cell]));
    play.marks = link.to
      ? { kind: "piece", cells: [link.cell, link.to], because: before, walk: true }
      : { kind: "chain", cells: [link.cell], because: before, colour: link.colour, walk: true };
    say(`Why? ${why.at} of ${shown}: ${link.says}.`, "ok");
  } else if (why.at === shown) {
    const { contradiction } = why.chain;
    const because = links.flatMap((l) => (l.to ? [l.cell, l.to] : [l.cell]));
    play.marks = { kind: "mistake", cells: contradiction.cells, because, walk: true };
    say(`Why? ${shown} of ${shown}: then ${contradiction.says}, so that cannot be.`, "bad");
  } else {
    play.marks = why.marks;
    say(why.reason, "ok");
  }
}
