// LD_PRELOAD shim for the h18b cases (gcc -shared -fPIC -O2 -o /work/lab18b/inject18.so inject18.c -ldl):
// in the process whose RANK equals INJ_RANK, write()/pwrite64()/writev() on an fd whose path contains INJ_PATH fail
// with errno INJ_ERRNO (default 5, EIO): a disk or filesystem failing under one node's checkpoint writes.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
static int hit(int fd) {
  const char *r = getenv("RANK"), *want = getenv("INJ_RANK"), *pat = getenv("INJ_PATH");
  if (!pat || (want && (!r || strcmp(r, want)))) return 0;
  char l[64], buf[1024]; snprintf(l, sizeof l, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(l, buf, sizeof buf - 1); if (n <= 0) return 0; buf[n] = 0;
  if (!strstr(buf, pat)) return 0;
  errno = getenv("INJ_ERRNO") ? atoi(getenv("INJ_ERRNO")) : EIO;
  return 1;
}
ssize_t write(int fd, const void *b, size_t c) {
  static ssize_t (*real)(int, const void *, size_t); if (!real) real = dlsym(RTLD_NEXT, "write");
  if (hit(fd)) return -1; return real(fd, b, c);
}
ssize_t pwrite64(int fd, const void *b, size_t c, off_t o) {
  static ssize_t (*real)(int, const void *, size_t, off_t); if (!real) real = dlsym(RTLD_NEXT, "pwrite64");
  if (hit(fd)) return -1; return real(fd, b, c, o);
}
ssize_t writev(int fd, const struct iovec *v, int n) {
  static ssize_t (*real)(int, const struct iovec *, int); if (!real) real = dlsym(RTLD_NEXT, "writev");
  if (hit(fd)) return -1; return real(fd, v, n);
}
