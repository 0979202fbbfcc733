"""A peer for `scripts/bench-itc2021 --peer cpsat`: a RobinX instance's hard constraints as a
CP-SAT model (OR-Tools), one Boolean a game and slot, solved for feasibility; writes the
competition's solution XML for `fixtures check` to score. Soft constraints are left out: this
peer answers only whether a timetable keeping every hard constraint is found in the time.

    python robinx_cpsat.py INSTANCE.xml SOLUTION.xml --time-limit 10 --workers 1 --seed 0

Prints one line: status, the seconds to the first solution (or none), and exits 0 when one
was found, 3 when not.
"""
import argparse
import sys
import time
import xml.etree.ElementTree as ET

from ortools.sat.python import cp_model


def ids(text):
    return [int(x) for x in text.split(";") if x.strip()] if text else []


def model(root):
    n = len(root.find("Resources/Teams"))
    slots = len(root.find("Resources/Slots"))
    phased = (root.findtext("Structure/Format/gameMode") or "").strip() == "P"
    m = cp_model.CpModel()
    teams = range(n)
    x = {(i, j, s): m.NewBoolVar(f"x{i}_{j}_{s}")
         for i in teams for j in teams if i != j for s in range(slots)}
    for i in teams:
        for s in range(slots):
            m.AddExactlyOne([x[i, j, s] for j in teams if j != i] + [x[j, i, s] for j in teams if j != i])
        for j in teams:
            if i != j:
                m.AddExactlyOne([x[i, j, s] for s in range(slots)])
                if phased and i < j:
                    half = range(slots // 2)
                    m.AddExactlyOne([x[i, j, s] for s in half] + [x[j, i, s] for s in half])
    home = {}
    for i in teams:
        for s in range(slots):
            h = m.NewBoolVar(f"h{i}_{s}")
            m.Add(h == sum(x[i, j, s] for j in teams if j != i))
            home[i, s] = h
    # A break at slot s: the same venue in s - 1 and s (home break, away break).
    brk = {}
    for i in teams:
        for s in range(1, slots):
            hb, ab = m.NewBoolVar(""), m.NewBoolVar("")
            a, b = home[i, s - 1], home[i, s]
            m.AddBoolAnd([a, b]).OnlyEnforceIf(hb)
            m.AddBoolOr([a.Not(), b.Not()]).OnlyEnforceIf(hb.Not())
            m.AddBoolAnd([a.Not(), b.Not()]).OnlyEnforceIf(ab)
            m.AddBoolOr([a, b]).OnlyEnforceIf(ab.Not())
            brk[i, s] = (hb, ab)

    def games(i, j, s, mode):
        return ([x[i, j, s]] if mode in ("H", "HA") else []) + ([x[j, i, s]] if mode in ("A", "HA") else [])

    def breaks(i, s, mode):
        if s == 0:
            return []
        hb, ab = brk[i, s]
        return ([hb] if mode in ("H", "HA") else []) + ([ab] if mode in ("A", "HA") else [])

    def bound(terms, c, lo="min", hi="max"):
        if c.get(hi) is not None:
            m.Add(sum(terms) <= int(c[hi]))
        if int(c.get(lo) or 0) > 0:
            m.Add(sum(terms) >= int(c[lo]))

    for c in root.find("Constraints").iter():
        a = c.attrib
        if a.get("type") != "HARD":
            continue
        tag = c.tag
        if tag == "CA1":
            for i in ids(a["teams"]):
                bound([home[i, s] if a["mode"] == "H" else home[i, s].Not() for s in ids(a["slots"])], a)
        elif tag == "CA2":
            for i in ids(a["teams1"]):
                bound([g for j in ids(a["teams2"]) if j != i for s in ids(a["slots"])
                       for g in games(i, j, s, a["mode1"])], a)
        elif tag == "CA3":
            k = int(a["intp"])
            for i in ids(a["teams1"]):
                for s0 in range(slots - k + 1):
                    bound([g for j in ids(a["teams2"]) if j != i for s in range(s0, s0 + k)
                           for g in games(i, j, s, a["mode1"])], a)
        elif tag == "CA4":
            t1, t2 = ids(a["teams1"]), ids(a["teams2"])
            groups = [[s] for s in ids(a["slots"])] if a["mode2"] == "EVERY" else [ids(a["slots"])]
            for g in groups:
                bound([v for i in t1 for j in t2 if j != i for s in g for v in games(i, j, s, a["mode1"])], a)
        elif tag == "GA1":
            meetings = [tuple(int(v) for v in p.split(",")) for p in a["meetings"].split(";") if p.strip()]
            bound([x[i, j, s] for (i, j) in meetings for s in ids(a["slots"])], a)
        elif tag == "BR1":
            for i in ids(a["teams"]):
                m.Add(sum(b for s in ids(a["slots"]) for b in breaks(i, s, a["mode2"])) <= int(a["intp"]))
        elif tag == "BR2":
            m.Add(sum(b for i in ids(a["teams"]) for s in ids(a["slots"])
                      for b in breaks(i, s, a.get("homeMode", "HA"))) <= int(a["intp"]))
        elif tag == "FA2":
            t = ids(a["teams"])
            for s in ids(a["slots"]):
                for p in t:
                    for q in t:
                        if p < q:
                            d = sum(home[p, u] for u in range(s + 1)) - sum(home[q, u] for u in range(s + 1))
                            m.Add(d <= int(a["intp"]))
                            m.Add(-d <= int(a["intp"]))
        elif tag == "SE1":
            k = int(a["min"])
            t = ids(a["teams"])
            for p in t:
                for q in t:
                    if p < q:
                        for s1 in range(slots):
                            for s2 in range(s1 + 1, min(slots, s1 + k + 1)):
                                m.AddBoolOr([x[p, q, s1].Not(), x[q, p, s2].Not()])
                                m.AddBoolOr([x[q, p, s1].Not(), x[p, q, s2].Not()])
        elif tag in ("CA", "Constraints", "CapacityConstraints", "GameConstraints", "BreakConstraints",
                     "FairnessConstraints", "SeparationConstraints", "BasicConstraints"):
            continue
        else:
            sys.exit(f"robinx_cpsat: constraint {tag} is not modelled")
    return m, x, n, slots


class First(cp_model.CpSolverSolutionCallback):
    def __init__(self, start):
        super().__init__()
        self.start, self.at = start, None

    def on_solution_callback(self):
        if self.at is None:
            self.at = time.time() - self.start
        self.StopSearch()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("instance")
    p.add_argument("solution")
    p.add_argument("--time-limit", type=float, default=10.0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    start = time.time()
    m, x, n, slots = model(ET.parse(a.instance).getroot())
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, a.time_limit - (time.time() - start))
    solver.parameters.num_workers = a.workers
    solver.parameters.random_seed = a.seed
    first = First(start)
    status = solver.Solve(m, first)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print(f"cpsat: {solver.StatusName(status)}, no solution in {time.time() - start:.1f} s")
        sys.exit(3)
    games = "".join(f'<ScheduledMatch home="{i}" away="{j}" slot="{s}"/>'
                    for (i, j, s), v in x.items() if solver.Value(v))
    with open(a.solution, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<Solution><MetaData>'
                "<SolutionMethod>CP-SAT</SolutionMethod></MetaData>"
                f"<Games>{games}</Games></Solution>\n")
    print(f"cpsat: first feasible {first.at:.2f} s")


if __name__ == "__main__":
    main()
