"""What-if chains are true as written (issue 38): replayed from the hint's position and the assumption
alone, each link follows by the rule it names, and the contradiction follows at the end."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from conftest import PUZZLES
from cpflow.board.formats import load, load_solution
from cpflow.deduce.replay import broken, holds, replayed, replays
from cpflow.deduce.rulebook import ALL
from cpflow.deduce.rules import IN, NONE, Contradiction, Graph, Partial
from cpflow.deduce.sentences import link_words
from cpflow.deduce.settle import settle
from cpflow.deduce.whatifs import Link
from cpflow.workflows.hints import chain, hint

# puzzles whose chains hold what ifs of every kind: a cell's colours, a path end's ways, on square,
# hexagonal and rectangular boards (a few seconds in all)
REPLAYED = ["gen_10x10_01", "gen_10x10_03", "gen_10x10_09", "gen_7x7_06", "gen_12x8_02", "hex_7x7_01", "hex_7x7_02"]


def stored(name: str):
    puzzle = load(PUZZLES / f"{name}.txt")[0]
    return puzzle, load_solution(puzzle, PUZZLES / f"{name}.solution.txt")


def position(play) -> Partial:
    """The play as the rules leave it before a what if (no step colours anything then)."""
    settled = Graph(play).start()
    settle(settled)
    return settled


def move(g: Graph, step, assumption):
    """What an assumption plays: a path end's other way, or a cell's other colour."""
    if step.origin is not None:
        i, j = g.index[step.origin], g.index[assumption.toward]
        return functools.partial(Partial.join, edge=next(e for k, e in g.adjacent[i] if k == j))
    return functools.partial(Partial.paint, node=g.index[step.cells[0]], c=g.colours.index(assumption.colour))


def taken(board: Partial, i: int) -> int:
    """A node's path edges, as a player counts them: joined, or to a neighbour of its colour."""
    g = board.g
    return sum(1 for j, e in g.adjacent[i] if board.state[e] == IN or board.colour[j] == board.colour[i] != NONE)


def open_sides(board: Partial, node) -> list:
    """A player's open sides of a cell: edges not decided, to an empty cell or, from an empty cell, to a
    path end still open, neither banned the other's colour."""
    g = board.g
    i = g.index[node]
    found = []
    for j, e in g.adjacent[i]:
        mine, theirs = board.colour[i], board.colour[j]
        if board.state[e] or (mine != NONE and theirs != NONE) or (theirs != NONE and taken(board, j) >= g.need[j]):
            continue
        if (mine != NONE and board.banned[j] >> mine & 1) or (theirs != NONE and board.banned[i] >> theirs & 1):
            continue
        found.append(g.nodes[j])
    return found


def assert_true_as_written(play, step) -> int:
    """Each chain of a what-if step replays from the play: each link follows by its rule (for the degree
    rule, by a player's count too: 'it has only two open sides' is exactly two, 'r2c3 has no other way
    on' is no more open sides than it still needs, the link's among them; a path piece joined between
    two empty cells, the same at the cell that had no other way on), then its contradiction.
    The links checked."""
    settled = position(play)
    g = settled.g
    checked = 0
    for a in step.assumptions:
        played = move(g, step, a)
        met = a.conflict
        allow = next((n for n in (0, ALL) if replays(settled, played, a.followed, met.rule, met.nodes, n)), None)
        assert allow is not None, f"not true as written: {step}"
        try:
            for number, (link, board) in enumerate(replayed(settled, played, a.followed, allow)):
                if link is None:
                    assert broken(board, met.rule, [g.index[n] for n in met.nodes])
                    break
                i = g.index[link.node]
                assert holds(board, link), link
                if link.to is not None:
                    (y,) = link.looked
                    sides, other = open_sides(board, y), link.to if y == link.node else link.node
                    assert board.colour[i] == NONE == board.colour[g.index[link.to]], link
                    assert other in sides and len(sides) == g.need[g.index[y]] - taken(board, g.index[y]), link
                elif link.rule == "degree" and board.colour[i] == NONE:
                    (y,) = link.looked
                    sides = open_sides(board, y)
                    if "only two open sides" in link_words(link, a.followed[:number]):
                        assert y == link.node and len(sides) == 2, f"{link}: {len(sides)} open sides"
                    else:  # 'no other way on': the cell itself at a piece's end, or the node it is joined to
                        assert y == link.node or link.node in sides, link
                        assert len(sides) == g.need[g.index[y]] - taken(board, g.index[y]), link
                checked += 1
        except Contradiction as found:  # met as the last links were played: the one the chain says
            assert found.rule == met.rule
    return checked


def what_if_steps(name: str):
    """(the play before, the step) for each what if of a puzzle's chain."""
    puzzle, solution = stored(name)
    before = puzzle
    for found in chain(puzzle, known=solution):
        if found.step and found.step.kind == "what if":
            yield before, found.step
        before = found.play


@pytest.mark.parametrize("name", REPLAYED)
def test_every_what_if_chain_replays_link_by_link_from_the_position_and_the_assumption(name):
    steps = list(what_if_steps(name))
    assert steps, f"{name} has what ifs"
    for before, step in steps:
        assert_true_as_written(before, step)


# gen_14x14_08 as the hint stood before its ninth step (the issue's example): the play so far
ISSUE_PLAY = {
    "p": [(12, 0), (11, 0), (10, 0)],
    "O": [(1, 11), (1, 10), (1, 9), (1, 8)],
    "b": [(10, 13)],
    "g": [(6, 10)],
}


def test_the_issues_chain_that_said_r13c6_had_two_open_sides_is_caught_and_no_longer_given():
    puzzle, solution = stored("gen_14x14_08")
    play = replace(puzzle, drawn={cell: colour for colour, cells in ISSUE_PLAY.items() for cell in cells})
    settled = position(play)
    g = settled.g
    up = functools.partial(Partial.join, edge=next(e for k, e in g.adjacent[g.index[(6, 0)]] if k == g.index[(5, 0)]))
    said = [Link((12, 5), "c", "degree", ((12, 5),)), Link((13, 5), "c", "degree", ((12, 5),))]
    # the chain as it was given: A up from r7c1, "r13c6 is c: it has only two open sides", ...
    assert not any(replays(settled, up, said, "degree", ((13, 6),), allow) for allow in (0, ALL))
    board = next(board for _, board in replayed(settled, up, said))
    assert len(open_sides(board, (12, 5))) > 2  # r13c6 has more than two open sides, as the player sees it
    given = hint(play)
    if given.step.kind == "what if":
        assert assert_true_as_written(play, given.step) >= 0
    assert all("r13c6 is c: it has only two open sides" not in line for line in given.explained)


# gen_24x12_02 where the hint was a guess ("Try R at r1c8") once chains had to be true as written: the
# what if there leans on path pieces the rules join between cells still empty, links of their own now
PIECES_PLAY = {
    "M": [(0, 19), (0, 20), (0, 21), (0, 22), (0, 23)],
    "R": [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6)],
    "j": [(10, 20), (10, 21), (10, 22)],
}


def test_a_what_if_dropped_for_its_path_pieces_is_given_with_them_as_links_and_replays_true():
    puzzle, solution = stored("gen_24x12_02")
    play = replace(puzzle, drawn={cell: colour for colour, cells in PIECES_PLAY.items() for cell in cells})
    given = hint(play)
    step = given.step
    assert step.kind == "what if" and step.colour == solution.colour_of()[step.cells[0]]
    assert assert_true_as_written(play, step) > 0
    a = next(a for a in step.assumptions if any(link.to is not None for link in a.followed))
    assert any(" joined: " in line for line in given.explained)  # 'r1c8-r1c9 joined: r1c8 has no other way on'
    # without its pieces the chain is not true as written: that is why it was dropped
    g = position(play).g
    bare = [link for link in a.followed if link.to is None]
    met = a.conflict
    assert not any(replays(position(play), move(g, step, a), bare, met.rule, met.nodes, n) for n in (0, ALL))
