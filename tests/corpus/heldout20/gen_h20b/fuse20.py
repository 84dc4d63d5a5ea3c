"""fuse20.py SRC MNT TRIGGER: read-only passthrough FUSE mount of SRC at MNT (fusepy), standing in for a network
filesystem; while the file TRIGGER exists every read() blocks (the server stops answering), as a hung NFS mount does;
while TRIGGER.slow exists every read() takes 10 ms longer (a slow server)."""
import os, sys, time, errno
from fuse import FUSE, FuseOSError, Operations
src, mnt, trig = sys.argv[1:4]
class Pass(Operations):
    def _p(self, path): return os.path.join(src, path.lstrip("/"))
    def getattr(self, path, fh=None):
        st = os.lstat(self._p(path))
        return {k: getattr(st, k) for k in ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size", "st_uid")}
    def readdir(self, path, fh): return [".", ".."] + os.listdir(self._p(path))
    def open(self, path, flags): return os.open(self._p(path), os.O_RDONLY)
    def read(self, path, size, offset, fh):
        while os.path.exists(trig):
            time.sleep(1)
        if os.path.exists(trig + ".slow"):   # a slow server: 10 ms per read request
            time.sleep(0.010)
        os.lseek(fh, offset, 0); return os.read(fh, size)
    def release(self, path, fh): os.close(fh); return 0
FUSE(Pass(), mnt, foreground=True, ro=True, nothreads=False, allow_other=True)
