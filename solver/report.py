"""``report.md`` of a solved spot, read as a designer reads it: the spot, how close to an
equilibrium it is, what each side wins, and the strategy by hand category."""

from __future__ import annotations

from solver.tree import DECISION


def report(solution) -> str:
    s, tree = solution.settings, solution.tree
    pot = tree.pot
    ev_oop, ev_ip = solution.ev("oop"), solution.ev("ip")
    lines = [
        f"# Solved spot: {s.game}, board {s.board}",
        "",
        "| setting | value |",
        "|---|---|",
        f"| out of position (oop) | `{s.oop}` ({solution.problem.n_hands[0]:,} combos) |",
        f"| in position (ip) | `{s.ip}` ({solution.problem.n_hands[1]:,} combos) |",
        f"| pot, stack behind | {s.pot}, {s.stack} chips |",
        f"| betting | {s.betting}; bets `{s.bets}`; raises `{s.raises}`, at most {s.max_raises} a street |",
        f"| tree | {tree.nodes:,} nodes; {solution.problem.memory() / 2**20:,.0f} MB of solver arrays |",
        f"| solve | {solution.iterations:,} DCFR iterations in {solution.seconds:.1f} s |",
        "",
        f"**Exploitability: {solution.exploitability:.3f} % of the pot** (exact: each player's best "
        "response to the other's average strategy over the whole tree; 0 is an equilibrium).",
        "",
        f"EV (chips won from the pot minus chips put in; the two sum to the pot of {pot}): "
        f"oop {ev_oop:.2f} ({100 * ev_oop / pot:.1f} % of the pot), ip {ev_ip:.2f} ({100 * ev_ip / pot:.1f} %).",
        "",
        "Odd chips are not modelled: a split pot is shared in exact fractions.",
        "",
        "## Root: oop to act",
        "",
        _table(solution.by_category("")),
    ]
    classes = solution.by_class("")
    shown = classes if len(classes) <= 40 else classes.head(25).vstack(classes.tail(10))
    note = "" if len(classes) <= 40 else f" (the 25 best and 10 worst of {len(classes):,} classes by EV)"
    lines += ["", f"## Root by hand class{note}", "", _table(shown)]
    for label in tree.actions(0):
        node = tree.find([label])
        if tree.kind[node] == DECISION and label != "check":
            lines += ["", f"## ip facing `{label}`", "", _table(solution.by_category([label]))]
    check = tree.find(["check"]) if "check" in tree.actions(0) else None
    if check is not None and tree.kind[check] == DECISION:
        lines += ["", "## ip after oop checks", "", _table(solution.by_category(["check"]))]
    lines += [
        "",
        "Frequencies are weighted by how much of each combo reaches the node; EV is the node's, in chips. "
        "Every combo's strategy is in `strategy.parquet`.",
        "",
        "![exploitability by iteration](exploitability.png)",
        "",
    ]
    return "\n".join(lines)


def _table(frame) -> str:
    columns = frame.columns
    head = "| " + " | ".join(columns) + " |"
    rule = "|" + "|".join("---" if c in ("category", "class") else "---:" for c in columns) + "|"
    rows = []
    for row in frame.iter_rows():
        cells = [row[0]] + [
            f"{100 * v:.1f} %" if c != "ev" and v is not None else (f"{v:.1f}" if v is not None else "")
            for c, v in zip(columns[1:], row[1:])
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join([head, rule, *rows])
