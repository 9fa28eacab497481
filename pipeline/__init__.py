"""The sharded pipeline: plan, backends (serial, Ray), store, aggregate, report, and the CLI."""
