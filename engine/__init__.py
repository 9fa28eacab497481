"""Play: a hand's state and betting (``engine.hand``), betting structures (``engine.betting``)
and hand records in the PHH format (``engine.phh``)."""
