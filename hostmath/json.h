/*
 * json.h - a JSON text into a tree, for C callers (the tests read golden
 * logs with it): nlohmann-json's SAX parser underneath (json.cpp).  Numbers
 * keep their text, and their value is strtod's ("C" locale), the correctly
 * rounded double.  Nesting deeper than 1000 levels is refused.
 */
#ifndef VQ_JSON_H
#define VQ_JSON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum VqJsonType {
    VQ_JSON_NULL, VQ_JSON_FALSE, VQ_JSON_TRUE, VQ_JSON_NUMBER,
    VQ_JSON_STRING, VQ_JSON_ARRAY, VQ_JSON_OBJECT
} VqJsonType;

typedef struct VqJson {
    VqJsonType type;
    double number;          /* NUMBER */
    char *str;              /* STRING: the value (UTF-8, NUL-ended); NUMBER: its text */
    size_t len;             /* bytes in str */
    size_t n;               /* ARRAY, OBJECT: children */
    struct VqJson *item;    /* ARRAY, OBJECT: the n children, in file order */
    char **key;             /* OBJECT: the n keys */
} VqJson;

/* 0, or -1 with a message ("line L, column C: ...") in err. */
int  vq_json_parse(const char *text, size_t len, VqJson **out, char *err, size_t errlen);
void vq_json_free(VqJson *v);

/* the first member named key of an object; NULL if none or v is no object */
const VqJson *vq_json_get(const VqJson *v, const char *key);

#ifdef __cplusplus
}
#endif
#endif /* VQ_JSON_H */
