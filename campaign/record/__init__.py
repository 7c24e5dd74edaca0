"""The historical record beside a run: what happened in 1914 that the simulation should produce.

``schema`` reads a record file (``data/record/<scenario>.yaml``: each event with its time or window, place
and radius, tolerance, source, and whether the scenario feeds it in); ``match`` finds each event in a run's
records and scores it; ``tables`` words the result for the command line, ``report.md``, the replay's events
panel and a batch's analysis. It reads records only, never the world (the layers: README).
"""
