"""``shengji export --to parquet OUTDIR FILE...``: the corpus as the Parquet store of
:mod:`analyzer.store` (tables matches, hands, tricks, plays, diagnostics), here,
in worker processes or on a Dask cluster."""

from __future__ import annotations


def run_command(outdir: str, files: list[str], *, rules: str | None = None, jobs: int = 1,
                cluster: str | None = None, source_format: str | None = None) -> int:
    import typer

    from .. import store as S
    from ..cli import fail
    from ..cluster import ChunkProgress
    progress = ChunkProgress("chunks exported")
    options = S.ExportOptions(rules=rules, source_format=source_format)
    try:
        S.require_pyarrow()
        progress.start(0)
        try:
            if cluster is not None:
                from .. import cluster as C
                try:
                    with C.connect(cluster) as client:
                        report = S.export_paths(files, outdir, options=options, client=client,
                                                on_chunk=progress.on_chunk)
                except C.ClusterError as exc:
                    fail(str(exc))
                except (RuntimeError, TimeoutError) as exc:       # the scheduler went away
                    fail(f"the cluster run failed: {type(exc).__name__}: {exc}")
            else:
                report = S.export_paths(files, outdir, options=options, jobs=jobs, on_chunk=progress.on_chunk)
        finally:
            progress.stop()
    except S.StoreError as exc:
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
