// The server's answers about the board: Solve, Unique? and Count (drawn by the server, as `cpflow render`
// draws them), and Fix (the one edit that leaves exactly one solution, loaded into the editor).

import { problems } from "./board.js";
import { $ } from "./dom.js";
import { countLimit, options } from "./options.js";
import { loadBoard, written } from "./session.js";
import { say, showError } from "./status.js";

export const seconds = (s) => (s < 10 ? s.toFixed(3) : s.toFixed(1)) + " s";

export async function ask(page, kind) {
  const problem = problems(page.board);
  if (problem) return showError(problem);
  const doing = { solve: "Solving", unique: "Proving uniqueness", count: "Counting solutions" }[kind];
  say(`${doing}…`);
  try {
    const puzzle = await written(page);
    if (puzzle === null) return;
    const body = { puzzle, name: "puzzle", ...options() };
    if (kind === "count") body.limit = countLimit();
    else body.draw = true;
    const began = performance.now();
    const answer = await page.api.job(`api/${kind}`, body);
    if (answer) show(page, kind, answer, (performance.now() - began) / 1000);
  } catch (error) {
    showError(error.message);
  }
}

function show(page, kind, answer, roundTrip) {
  const took = `${seconds(answer.seconds)} (${seconds(roundTrip)} with the round trip)`;
  if (kind === "count") {
    const many = `${answer.count} solution${answer.count === 1 ? "" : "s"}`;
    const cut = answer.exact ? "" : " (stopped at the limit or the time limit)";
    say(`${answer.exact ? "Exactly" : "At least"} ${many}${cut} · ${took}`, answer.exact ? "ok" : "unknown");
    return;
  }
  const [verdict, tone] = kind === "solve" ? solved(answer) : proven(answer);
  say(`${verdict} · ${took}`, tone);
  $("result").innerHTML = answer.svg; // the server's drawing, as `cpflow render` makes it
  if (matchMedia("(max-width: 820px)").matches) $("answer").scrollIntoView({ behavior: "smooth", block: "start" });
  $("result").dataset.kind = kind;
  page.shown = { solutions: answer.solution_texts, picture: true };
  $("get-solution").disabled = !page.shown.solutions.length;
  page.hooks.emit("answered", kind, answer);
}

function solved(answer) {
  const verdict = { solved: "Solved", unsolvable: "Unsolvable: no solution exists", unknown: "Unknown: the time limit came first" }[answer.status];
  return [verdict, answer.status === "solved" ? "ok" : answer.status === "unsolvable" ? "bad" : "unknown"];
}

function proven(answer) {
  const n = answer.differences.length;
  const verdict = {
    unique: "Unique: exactly one solution",
    "not-unique": `Not unique: two solutions, the ${n} cell${n === 1 ? "" : "s"} where they differ outlined`,
    unsolvable: "Unsolvable: no solution exists",
    unknown: "Unknown: the time limit came first",
  }[answer.verdict];
  return [verdict, { unique: "ok", "not-unique": "bad", unsolvable: "bad", unknown: "unknown" }[answer.verdict]];
}

export async function fix(page) {
  // For a designer: the smallest edit that leaves exactly one solution, loaded into the editor.
  const problem = problems(page.board);
  if (problem) return showError(problem);
  say("Looking for one edit that leaves exactly one solution…");
  const asked = options();
  delete asked.engine; // the repair proves with the default engine
  try {
    const puzzle = await written(page);
    if (puzzle === null) return;
    const answer = await page.api.job("api/fix", { puzzle, name: "puzzle", ...asked });
    if (!answer) return;
    const took = seconds(answer.seconds);
    if (answer.status === "fixed") {
      await loadBoard(page, answer.board, "fixed");
      const edit = answer.edit.words.charAt(0).toUpperCase() + answer.edit.words.slice(1);
      say(`Fixed: ${edit}. Now exactly one solution (${answer.tried} proofs) · ${took}. Press Unique? to see it proven.`, "ok");
    } else {
      const said = {
        unique: ["Already unique: nothing to fix", "ok"],
        "not fixed": ["Not unique, and no single edit tried makes it unique", "bad"],
        unsolvable: ["Unsolvable: no solution exists, so there is nothing to fix", "bad"],
        unknown: ["Unknown: the time limit came before an edit was proven", "unknown"],
      }[answer.status];
      say(`${said[0]} · ${took}`, said[1]);
    }
  } catch (error) {
    showError(error.message);
  }
}
