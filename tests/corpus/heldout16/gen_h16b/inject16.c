// LD_PRELOAD shim: open/open64/openat of a path containing INJ_PATH fails with errno INJ_ERRNO, only when the
// process's RANK equals INJ_RANK (unset: any process). Build: gcc -shared -fPIC -O2 -o /work/lab16b/inject16.so inject16.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
static int hit(const char *p) {
  const char *m = getenv("INJ_PATH"), *r = getenv("INJ_RANK"), *me = getenv("RANK");
  if (!m || !p || !strstr(p, m)) return 0;
  if (r && (!me || strcmp(r, me))) return 0;
  errno = atoi(getenv("INJ_ERRNO") ? getenv("INJ_ERRNO") : "5");
  return 1;
}
#define WRAP(name, ...) \
  int name(const char *p, int f, ...) { va_list a; va_start(a, f); int m = va_arg(a, int); va_end(a); \
    static int (*real)(const char *, int, ...); if (!real) real = dlsym(RTLD_NEXT, #name); \
    if (hit(p)) return -1; return real(p, f, m); }
WRAP(open)
WRAP(open64)
int openat(int d, const char *p, int f, ...) { va_list a; va_start(a, f); int m = va_arg(a, int); va_end(a);
  static int (*real)(int, const char *, int, ...); if (!real) real = dlsym(RTLD_NEXT, "openat");
  if (hit(p)) return -1; return real(d, p, f, m); }
int openat64(int d, const char *p, int f, ...) { va_list a; va_start(a, f); int m = va_arg(a, int); va_end(a);
  static int (*real)(int, const char *, int, ...); if (!real) real = dlsym(RTLD_NEXT, "openat64");
  if (hit(p)) return -1; return real(d, p, f, m); }
