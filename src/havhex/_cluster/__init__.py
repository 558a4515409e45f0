"""What runs the command line's work on a Dask cluster, under the bag API of
:mod:`havhex.dask`: the judges' work units (:mod:`.judge`), the client's
side of a run (:mod:`.client`) and the command line's run on a cluster
(:mod:`.run`).  The record units are
:mod:`havhex.records.units`'s, the plan's shape :mod:`havhex._units`'s."""
