"""Making puzzles with a proven unique solution.

Method, on any board (holes, walls, hexagons: it walks the board's graph): the board is
cut into tiles; a random path through each tile (a serpentine shuffled by backbite
moves) is cut wherever it would touch itself, and the pieces are merged
across the board, shortest first, until the wanted number of colours is reached:
a cover of the board by non-touching paths, whose ends become the endpoints. The solver
then looks for a second solution; while there is one, the intended path through a cell
where the two differ is split in two (a new colour there), and the check runs again.
Every puzzle returned was proven unique, and its intended solution passed the verifier.

All randomness comes from the `random.Random` passed in, and the solver runs with a
fixed seed on one worker: same seed, same puzzles. Each board of a pack has its own
`Random`, seeded from the pack's seed and the board's number (`board_seed`), so a pack
is the same made here, on a pool or on a cluster of any size. Effort is capped by counts, not by
the clock, for the same reason.

Modules, each importing only those before it:
- order: what to make (`Order`, read from the options by `Order.parse`), the default colours
- carve: holes, walls, warps and bridges taken out or added at random
- cover: a cover of the board by non-touching paths (and `split`, a path cut in two)
- prove: a cover's puzzle made unique by splitting paths, proven so (`generate`, `Generated`)
- pack: puzzles one by one from a pack's seed, wherever they are made, and their files
"""
