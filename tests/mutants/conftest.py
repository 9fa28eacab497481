# The mutation-testing tool here is no test: keep pytest's --doctest-modules from importing it.
collect_ignore_glob = ["*.py"]
