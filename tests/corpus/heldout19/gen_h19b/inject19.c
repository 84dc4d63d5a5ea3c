// LD_PRELOAD shim: in the process whose OMPI_COMM_WORLD_RANK equals INJ_RANK, read() on an fd whose path contains
// INJ_PATH fails with errno INJ_ERRNO while the file INJ_TRIGGER exists (the case script creates/removes it).
// gcc -shared -fPIC -O2 -o /work/lab19b/inject19.so inject19.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static ssize_t (*real_read)(int, void *, size_t);
static int armed = -1;
static int match(int fd) {
  if (armed < 0) {
    const char *r = getenv("OMPI_COMM_WORLD_RANK"), *w = getenv("INJ_RANK");
    armed = (r && w && strcmp(r, w) == 0) ? 1 : 0;
  }
  if (!armed) return 0;
  const char *t = getenv("INJ_TRIGGER"), *p = getenv("INJ_PATH");
  if (!t || !p || access(t, F_OK) != 0) return 0;
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  return strstr(path, p) != NULL;
}
ssize_t read(int fd, void *buf, size_t count) {
  if (!real_read) real_read = dlsym(RTLD_NEXT, "read");
  if (match(fd)) { errno = atoi(getenv("INJ_ERRNO") ? getenv("INJ_ERRNO") : "5"); return -1; }
  return real_read(fd, buf, count);
}
