import datetime as dt


def test_cursor_saved_with_entries(store, entry_factory):
    store.save_entries([entry_factory("A", 100)], "cur-1")
    assert store.get_cursor() == "cur-1"
    assert [e.entry_ref for e in store.entries_for_day(dt.date(2026, 10, 1))] == ["A"]


def test_empty_page_keeps_cursor_moving(store):
    store.save_entries([], "cur-2")
    assert store.get_cursor() == "cur-2"


def test_upsert_updates_amount(store, entry_factory):
    store.save_entries([entry_factory("A", 100)], None)
    store.save_entries([entry_factory("A", 150)], None)
    (entry,) = store.entries_for_day(dt.date(2026, 10, 1))
    assert entry.amount_minor == 150


def test_corrections_are_deduplicated(store):
    assert store.add_correction("A", "amount_differs", 100) is True
    assert store.add_correction("A", "amount_differs", 100) is False
    assert store.count_pending() == 1
