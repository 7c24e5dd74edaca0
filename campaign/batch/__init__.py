"""Batches of replicates: many variants of a scenario, many seeds each, on Dask; and their analysis.

``seeds`` (common random numbers), ``measures`` (one replicate's records flattened into named scalars),
``design`` (grids and Latin hypercubes over scenario parameters), ``parameters`` (what each parameter
changes), ``store`` (the Zarr store of results), ``run`` (the driver on dask.distributed), ``analyse``
(tables with confidence intervals, paired differences, analysis.html).
"""
