"""``shengji export --to parquet OUTDIR FILE...``: the corpus as the Parquet store of
:mod:`analyzer.store.parquet` (tables matches, hands, tricks, plays, diagnostics; Gouji's
gouji_matches, gouji_games, gouji_plays), here, in worker processes or on a Dask cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.io.progress import Progress

if TYPE_CHECKING:
    from analyzer.store.chunk import ExportOptions


def run_command(outdir: str, files: list[str], *, rules: str | None = None, jobs: int | None = None,
                cluster: str | None = None, source_format: str | None = None, progress: bool = True) -> int:
    from analyzer.store.chunk import ExportOptions
    bar = BytesProgress(files, enabled=progress)
    options = ExportOptions(rules=rules, source_format=source_format)
    from analyzer.store import workers as W
    from analyzer.store.schema import SPLIT_BYTES
    if cluster is None:        # the workers' forkserver imports while this process imports pyarrow
        W.start_early(jobs, bar.sizes, SPLIT_BYTES)
    return _run(outdir, files, bar, options, jobs, cluster)


def _run(outdir: str, files: list[str], bar: BytesProgress, options: ExportOptions, jobs: int | None,
         cluster: str | None) -> int:
    import typer

    from analyzer.io.echo import fail
    from analyzer.store import parquet as S
    from analyzer.store.schema import StoreError, check_pyarrow
    try:
        check_pyarrow()
        bar.start(bar.size)
        try:
            if cluster is not None:
                from analyzer.store import cluster as C
                try:
                    with C.connect(cluster) as client:
                        report = S.export_paths(files, outdir, options=options, client=client,
                                                on_chunk=bar.on_chunk)
                except C.ClusterError as exc:
                    fail(str(exc))
                except (RuntimeError, TimeoutError) as exc:       # the scheduler went away
                    fail(f"the cluster run failed: {type(exc).__name__}: {exc}")
            else:
                report = S.export_paths(files, outdir, options=options, jobs=jobs, on_chunk=bar.on_chunk)
        finally:
            bar.stop()
    except StoreError as exc:
        fail(str(exc))
    for r in report.recovered:
        typer.echo(f"shengji: note: {r}", err=True)
    for m in report.missing:
        typer.echo(f"shengji: error: {m}: no such file or directory", err=True)
    for e in report.errors:
        typer.echo(f"shengji: error: {e}", err=True)
    for s in report.skipped:
        typer.echo(f"shengji: note: skipped {s}", err=True)
    typer.echo(report.summary(), err=True)
    return report.exit_code


class BytesProgress(Progress):
    """The export's progress in bytes of input: the total is the size of every
    file given (so the bar has a real total and an ETA), each chunk exported
    advances it by its bytes."""

    def __init__(self, files: list[str], *, enabled: bool = True) -> None:
        import os

        from analyzer.lint import expand_paths
        super().__init__("shengji export", "bytes", enabled=enabled)
        #: each file's size (0: not found, not a regular path)
        self.sizes: list[int] = []
        for path, _ in expand_paths(files)[0]:
            try:
                self.sizes.append(os.path.getsize(path))
            except (OSError, TypeError):
                self.sizes.append(0)
        self.size = sum(self.sizes)

    def on_chunk(self, job) -> None:  # type: ignore[no-untyped-def]  # an analyzer.store.cluster.Job
        import os
        end = job.end
        if end is None:
            try:
                end = os.path.getsize(job.path)
            except OSError:
                end = job.start
        self.advance(max(0, end - job.start))
