"""The ingest progress bar: documents per second and the time left, from a fake clock."""

from __future__ import annotations

from rich.progress import Progress

from disputatio.cli.ingest import EtaColumn, RateColumn


def test_rate_and_eta_follow_the_files_settled() -> None:
    now = [100.0]
    progress = Progress(get_time=lambda: now[0], disable=True)
    task_id = progress.add_task("ingesting", total=10_000, last="")
    task = progress.tasks[0]
    assert RateColumn().render(task).plain == "– docs/s"
    assert EtaColumn().render(task).plain == "eta –"
    now[0] = 140.0  # 40 s later, a burst of one batch and then another settle
    progress.update(task_id, advance=64)
    progress.update(task_id, advance=1936)
    assert RateColumn().render(task).plain == "50.0 docs/s"  # 2,000 files in 40 s
    assert EtaColumn().render(task).plain == "eta 0:02:40"  # 8,000 left at 50/s = 160 s
