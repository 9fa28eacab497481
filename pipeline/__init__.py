"""The sharded pipeline, which knows no poker: plan, study (the Study type), runner, backends
(serial, Ray), store, aggregate and progress."""
