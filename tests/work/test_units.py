"""havhex._units: the plans' results taken back in input order."""
from havhex._units import ordered_results


class Future:
    def __init__(self, log, name, results):
        self.log, self.name, self.results = log, name, results

    def result(self):
        self.log.append(("taken", self.name))
        return self.results

    def cancel(self):
        self.log.append(("cancelled", self.name))


def test_units_under_way_elsewhere_wait_beside_the_window():
    """Units the plan says are under way elsewhere (files the client
    handles while it connects) do not hold back the tasks: up to the window
    are submitted before the first of those units is waited for, and the
    results still come in plan order."""
    log = []
    plan = [("started", index, Future(log, f"here {index}", [("ok", index)]))
            for index in range(6)]
    plan += [("task", [(index, ("path", index))]) for index in range(6, 12)]

    def submit(units):
        [(_, index)] = units
        log.append(("submitted", index))
        return Future(log, f"task {index}", [("ok", index)])

    results = list(ordered_results(plan, submit, 3))
    assert results == [(index, ("ok", index)) for index in range(12)]
    first_wait = log.index(("taken", "here 0"))
    assert [entry for entry in log[:first_wait]] == [("submitted", index) for index in range(6, 10)]


def test_the_bytes_after_each_file():
    from havhex._units import bytes_after

    assert bytes_after([3, None, 5, 1]) == [6, 6, 1, 0]
    assert bytes_after([]) == []
