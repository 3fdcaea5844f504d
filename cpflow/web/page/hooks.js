// Named hooks: a part of the page (Play) registers what it does when the page draws, changes or answers,
// and the page calls them, in the order they were registered.
//   "draw" (svg): the editor was drawn; draw over it.
//   "changed" (): the board was edited or replaced; anything made on the old board is void.
//   "answered" (kind, answer): the server's answer to Solve, Unique or Count was shown.
//   "play" (cells): a play read from a screenshot, `[row, col, colour]` per cell; true if it is shown.
//   "link" (cells): a puzzle opened from a link, and the cells its play draws (as "play"); true if it is in Play.

export function createHooks() {
  const listeners = new Map();
  return {
    on(name, listener) {
      listeners.set(name, [...(listeners.get(name) || []), listener]);
    },
    emit(name, ...args) {
      // What each listener returned, in order.
      return (listeners.get(name) || []).map((listener) => listener(...args));
    },
  };
}
