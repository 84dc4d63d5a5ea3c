// LD_PRELOAD shim: after INJ_AFTER matching calls, make write() (INJ_FUNC=write) or read() (INJ_FUNC=read)
// on a file whose path contains INJ_PATH fail with errno INJ_ERRNO. Only in a process whose RANK env var
// equals INJ_RANK (if set). Build: gcc -shared -fPIC -O2 -o /work/lab14b/inject14.so inject14.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static long count = 0;
static int match(int fd, const char *fn) {
  const char *f = getenv("INJ_FUNC"), *p = getenv("INJ_PATH"), *r = getenv("INJ_RANK"), *rk = getenv("RANK");
  if (!f || strcmp(f, fn) || !p) return 0;
  if (r && (!rk || strcmp(r, rk))) return 0;
  char l[64], t[4096]; snprintf(l, sizeof l, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(l, t, sizeof t - 1); if (n <= 0) return 0; t[n] = 0;
  if (!strstr(t, p)) return 0;
  long after = getenv("INJ_AFTER") ? atol(getenv("INJ_AFTER")) : 0;
  return ++count > after;
}
ssize_t write(int fd, const void *b, size_t n) {
  static ssize_t (*real)(int, const void *, size_t) = 0;
  if (!real) real = dlsym(RTLD_NEXT, "write");
  if (fd > 2 && match(fd, "write")) { errno = atoi(getenv("INJ_ERRNO")); return -1; }
  return real(fd, b, n);
}
ssize_t read(int fd, void *b, size_t n) {
  static ssize_t (*real)(int, void *, size_t) = 0;
  if (!real) real = dlsym(RTLD_NEXT, "read");
  if (fd > 2 && match(fd, "read")) { errno = atoi(getenv("INJ_ERRNO")); return -1; }
  return real(fd, b, n);
}
