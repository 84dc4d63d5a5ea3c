"""Reading and understanding a job's log: locating it, tailing it, finding anomalies in it."""
