"""``array_api_compat.dask``: its ``array`` is this face's namespace of dask."""
