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
