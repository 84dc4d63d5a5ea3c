"""Reading a job's log: locating it, checking access, tailing it (the I/O around `analysis`)."""
