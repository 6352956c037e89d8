/*
 * c_locale.h - number parsing and printing that ignore the process locale.
 * libvmaf runs in the "C" locale (nothing there calls setlocale), so model
 * numbers are read, and log numbers written, as in "C" whatever locale the
 * program that loads libvqcuda has set.
 */
#ifndef VQ_C_LOCALE_H
#define VQ_C_LOCALE_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

double vq_strtod_c(const char *s, char **end);
float  vq_strtof_c(const char *s, char **end);
/* vsnprintf/snprintf in the "C" locale (for %g, %f, %.17g) */
int vq_vsnprintf_c(char *buf, size_t n, const char *fmt, va_list ap);
int vq_snprintf_c(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif /* VQ_C_LOCALE_H */
