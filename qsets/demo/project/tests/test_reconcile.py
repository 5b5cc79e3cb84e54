from ledgersync.reconcile import MismatchKind, read_export, reconcile_day


def test_three_kinds_of_mismatch(entry_factory):
    entries = [entry_factory("A", 100), entry_factory("B", 200), entry_factory("C", 300)]
    export = {"A": 100, "B": 260, "D": 400}
    kinds = {m.entry_ref: m.kind for m in reconcile_day(entries, export)}
    assert kinds == {
        "B": MismatchKind.AMOUNT_DIFFERS,
        "C": MismatchKind.MISSING_IN_EXPORT,
        "D": MismatchKind.MISSING_UPSTREAM,
    }


def test_tolerance(entry_factory):
    assert reconcile_day([entry_factory("A", 100)], {"A": 101}, tolerance=1) == []


def test_read_export(tmp_path):
    p = tmp_path / "ledger-export-2026-10-01.csv"
    p.write_text("entry_ref,amount\nA,1.00\nB,-2.40\n", encoding="utf-8")
    assert read_export(p) == {"A": 100, "B": -240}
