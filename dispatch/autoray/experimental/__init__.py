"""``autoray.experimental``: its ``complexity_tracing`` submodule."""
