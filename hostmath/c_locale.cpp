/* c_locale.c - see c_locale.h.  POSIX 2008 locale objects (glibc). */
#define _GNU_SOURCE 1
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "c_locale.h"

static locale_t c_loc;
static pthread_once_t c_loc_once = PTHREAD_ONCE_INIT;

static void c_loc_init(void)
{
    c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* (locale_t)0 when newlocale failed: then the functions fall back to the
 * process locale, which is "C" unless the program changed it */
static locale_t get_c_loc(void)
{
    pthread_once(&c_loc_once, c_loc_init);
    return c_loc;
}

double vq_strtod_c(const char *s, char **end)
{
    locale_t l = get_c_loc();
    return l ? strtod_l(s, end, l) : strtod(s, end);
}

float vq_strtof_c(const char *s, char **end)
{
    locale_t l = get_c_loc();
    return l ? strtof_l(s, end, l) : strtof(s, end);
}

int vq_vsnprintf_c(char *buf, size_t n, const char *fmt, va_list ap)
{
    locale_t l = get_c_loc();
    locale_t old = l ? uselocale(l) : (locale_t)0;
    int r = vsnprintf(buf, n, fmt, ap);
    if (l)
        uselocale(old);
    return r;
}

int vq_snprintf_c(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vq_vsnprintf_c(buf, n, fmt, ap);
    va_end(ap);
    return r;
}
