"""The same algorithms in plain Python: what a Python user writes without havhex.

These are the baselines the benchmarks compare against, measured in the same run.
"""

NEIGHBOURS = ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))


def havannah_first_win(size, moves):
    """(kinds bitmask, 1-based move) of the first winning move, or (0, 0).

    Dict of cells, union-find lists with path halving, corner/edge bit masks,
    and the ring test on runs of stone neighbours around the new stone.
    """
    last = 2 * size - 1
    corners = {(1, 1): 1, (1, size): 2, (size, 1): 4, (size, last): 8,
               (last, size): 16, (last, last): 32}
    index = {}
    parent = []
    mask = []

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for number, (x, y) in enumerate(moves):
        if (x, y) in corners:
            bits = corners[(x, y)]
        elif x == 1:
            bits = 64
        elif y == 1:
            bits = 128
        elif x == last:
            bits = 256
        elif y == last:
            bits = 512
        elif y - x == size - 1:
            bits = 1024
        elif x - y == size - 1:
            bits = 2048
        else:
            bits = 0
        around = [index.get((x + dx, y + dy), -1) for dx, dy in NEIGHBOURS]
        kinds = 0
        roots = []
        for k in range(6):
            if around[k] >= 0 and around[k - 1] < 0:
                root = find(around[k])
                if root in roots:
                    kinds = 4
                roots.append(root)
        index[(x, y)] = number
        parent.append(number)
        mask.append(bits)
        for stone in around:
            if stone >= 0:
                a, b = find(stone), find(number)
                if a != b:
                    parent[a] = b
                    mask[b] |= mask[a]
        bits = mask[find(number)]
        if bin(bits & 63).count("1") >= 2:
            kinds |= 1
        if bin(bits >> 6).count("1") >= 3:
            kinds |= 2
        if kinds:
            return kinds, number + 1
    return 0, 0


def havannah_parse(text):
    """Cases of the judge format as (size, [(x, y), ...])."""
    tokens = text.split()
    position = 1
    cases = []
    for _ in range(int(tokens[0])):
        size, count = int(tokens[position]), int(tokens[position + 1])
        position += 2
        values = list(map(int, tokens[position:position + 2 * count]))
        position += 2 * count
        cases.append((size, list(zip(values[0::2], values[1::2]))))
    return cases


def havannah_judge_text(text):
    return [havannah_first_win(size, moves) for size, moves in havannah_parse(text)]


# ---------------------------------------------------------------------------
# Hex
# ---------------------------------------------------------------------------

HEX_NEIGHBOURS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


def _hex_chain(rows, n, colour):
    """One winning chain of ``colour`` as a list of cells (BFS), or None."""
    if colour == "R":
        starts = [(0, j) for j in range(n) if rows[0][j] == "R"]
        is_goal = lambda i, j: i == n - 1  # noqa: E731
    else:
        starts = [(i, 0) for i in range(n) if rows[i][0] == "B"]
        is_goal = lambda i, j: j == n - 1  # noqa: E731
    came_from = {cell: None for cell in starts}
    queue = list(starts)
    for cell in queue:
        i, j = cell
        if is_goal(i, j):
            chain = []
            while cell is not None:
                chain.append(cell)
                cell = came_from[cell]
            return chain[::-1]
        for di, dj in HEX_NEIGHBOURS:
            a, b = i + di, j + dj
            if 0 <= a < n and 0 <= b < n and rows[a][b] == colour and (a, b) not in came_from:
                came_from[(a, b)] = cell
                queue.append((a, b))
    return None


def _hex_cut_stones(rows, n, colour, chain):
    """Stones of ``chain`` that lie on every winning chain.

    Other winner stones form components off the chain; a component (or a side,
    or a direct edge) touching chain positions a < b lets every chain stone
    strictly between them be bypassed.  What no interval covers is a cut.
    """
    position = {cell: k + 1 for k, cell in enumerate(chain)}  # sides: 0 and len + 1
    last = len(chain) + 1

    def side_positions(i, j):
        touching = []
        if (colour == "R" and i == 0) or (colour == "B" and j == 0):
            touching.append(0)
        if (colour == "R" and i == n - 1) or (colour == "B" and j == n - 1):
            touching.append(last)
        return touching

    covers = []
    for (i, j), k in position.items():
        for side in side_positions(i, j):
            covers.append((min(side, k), max(side, k)))
        for di, dj in HEX_NEIGHBOURS:
            other = position.get((i + di, j + dj))
            if other is not None and other > k + 1:
                covers.append((k, other))
    seen = set()
    for i in range(n):
        for j in range(n):
            if rows[i][j] != colour or (i, j) in position or (i, j) in seen:
                continue
            touched = []
            seen.add((i, j))
            queue = [(i, j)]
            for a, b in queue:
                touched.extend(side_positions(a, b))
                for di, dj in HEX_NEIGHBOURS:
                    c, d = a + di, b + dj
                    if 0 <= c < n and 0 <= d < n and rows[c][d] == colour:
                        if (c, d) in position:
                            touched.append(position[(c, d)])
                        elif (c, d) not in seen:
                            seen.add((c, d))
                            queue.append((c, d))
            if len(touched) >= 2:
                covers.append((min(touched), max(touched)))
    bypassed = [0] * (last + 2)
    for a, b in covers:
        if b > a + 1:
            bypassed[a + 1] += 1
            bypassed[b] -= 1
    cuts, running = [], 0
    for k in range(1, last):
        running += bypassed[k]
        if running == 0:
            cuts.append(chain[k - 1])
    return cuts


def hex_judge(rows):
    """The verdict string of one board."""
    n = len(rows)
    reds = sum(row.count("R") for row in rows)
    blues = sum(row.count("B") for row in rows)
    if abs(reds - blues) > 1:
        return "Impossible"
    red_chain = _hex_chain(rows, n, "R")
    blue_chain = _hex_chain(rows, n, "B")
    if red_chain and blue_chain:
        return "Impossible"
    if not red_chain and not blue_chain:
        return "Nobody wins"
    colour, chain = ("R", red_chain) if red_chain else ("B", blue_chain)
    if (reds if colour == "R" else blues) < (blues if colour == "R" else reds):
        return "Impossible"
    if not _hex_cut_stones(rows, n, colour, chain):
        return "Impossible"
    return "Red wins" if colour == "R" else "Blue wins"


def hex_parse(text):
    tokens = text.split()
    boards, position = [], 1
    for _ in range(int(tokens[0])):
        n = int(tokens[position])
        boards.append(tokens[position + 1:position + 1 + n])
        position += 1 + n
    return boards


def hex_judge_text(text):
    return [hex_judge(rows) for rows in hex_parse(text)]
