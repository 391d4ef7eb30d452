"""Reading and writing: inputs, outputs and atomic writes, other programs' logs in (importers) and out (exporters), fmt and convert."""
