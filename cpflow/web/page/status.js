// One line tells the last action's outcome: the status (`say`) or an error (`showError`), each replacing the other.
// An error told in a player's words keeps the technical line under Details, folded.

import { $ } from "./dom.js";

export function say(text, tone = "") {
  // The last action's outcome, in place of the line before it (an error's too).
  clearError();
  $("status").textContent = text;
  $("status").className = tone;
  $("status").scrollTop = 0; // a long one scrolls in its box (page.css): it is read from its start
}

export function showError(message, detail = "") {
  // What went wrong, in place of the status line: it would tell of an earlier action. With `detail`, `message` is a
  // player's sentence and the detail (the reader's line) is folded under it.
  $("status").textContent = "";
  $("status").className = "";
  $("error").textContent = message;
  $("error").classList.toggle("told", Boolean(detail));
  if (detail) {
    const details = $("error").appendChild(document.createElement("details"));
    details.appendChild(document.createElement("summary")).textContent = "Details";
    details.appendChild(document.createElement("code")).textContent = detail;
  }
  $("error").hidden = false;
  $("error").scrollTop = 0;
}

export function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}
