"""Log intelligence, pure: what a training job's log lines say, with no I/O of any kind.

Detectors read single lines (crash signals, progress, checkpoints, Xid, telemetry records,
straggler reports), the engine keeps the state across lines (crash confirmation, phases and their
hang allowances, throughput baselines) and attribution names a cause and culprit nodes. The
watcher (`activities/watch.py`) and `ajr check-log` both feed this same engine; reading files,
locating logs and checking access stay in `activities/logs/`.
"""
