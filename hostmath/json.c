/* json.c - see json.h.  A recursive-descent reader with a depth limit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_locale.h"
#include "json.h"

#define MAX_DEPTH 256

typedef struct Reader {
    const char *s, *p, *end;
    char *err;
    size_t errlen;
    int failed;
} Reader;

static int fail(Reader *r, const char *fmt, ...)
{
    if (!r->failed) {
        int line = 1, col = 1;
        const char *q, *stop = r->p < r->end ? r->p : r->end;
        char msg[200];
        va_list ap;
        for (q = r->s; q < stop; q++) {
            if (*q == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        if (r->err && r->errlen)
            snprintf(r->err, r->errlen, "line %d, column %d: %s", line, col, msg);
        r->failed = 1;
    }
    return -1;
}

static void skip_ws(Reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static void free_children(VqJson *v)
{
    size_t i;
    for (i = 0; i < v->n; i++) {
        free_children(&v->item[i]);
        if (v->key)
            free(v->key[i]);
    }
    free(v->item);
    free(v->key);
    free(v->str);
    memset(v, 0, sizeof(*v));
}

static int hex4(Reader *r, unsigned *out)
{
    unsigned v = 0;
    int i;
    if (r->end - r->p < 4)
        return fail(r, "truncated \\u escape");
    for (i = 0; i < 4; i++) {
        const char c = *r->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return fail(r, "bad \\u escape");
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *d, unsigned cp)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (char)(0xC0 | (cp >> 6));
        d[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xE0 | (cp >> 12));
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | (cp >> 18));
    d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* at the opening quote; the decoded string is never longer than its source */
static int parse_string(Reader *r, char **out, size_t *outlen)
{
    const char *start = ++r->p;
    char *buf, *d;
    while (r->p < r->end && *r->p != '"') {
        if (*r->p == '\\')
            r->p++;
        r->p++;
    }
    if (r->p >= r->end)
        return fail(r, "unterminated string");
    buf = (char *)malloc((size_t)(r->p - start) + 1);
    if (!buf)
        return fail(r, "out of memory");
    d = buf;
    r->p = start;
    while (*r->p != '"') {
        unsigned char c = (unsigned char)*r->p++;
        if (c < 0x20) {
            free(buf);
            return fail(r, "control character in string");
        }
        if (c != '\\') {
            *d++ = (char)c;
            continue;
        }
        c = (unsigned char)*r->p++;
        switch (c) {
        case '"': *d++ = '"'; break;
        case '\\': *d++ = '\\'; break;
        case '/': *d++ = '/'; break;
        case 'b': *d++ = '\b'; break;
        case 'f': *d++ = '\f'; break;
        case 'n': *d++ = '\n'; break;
        case 'r': *d++ = '\r'; break;
        case 't': *d++ = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(r, &cp) < 0) {
                free(buf);
                return -1;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
                r->p += 2;
                if (hex4(r, &lo) < 0) {
                    free(buf);
                    return -1;
                }
                if (lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    r->p -= 6;  /* not a pair: keep the second escape for later */
            }
            /* 6 source bytes (or 12 for a pair) give at most 3 (or 4) */
            d += put_utf8(d, cp);
            break;
        }
        default:
            free(buf);
            r->p--;
            return fail(r, "bad escape '\\%c'", c);
        }
    }
    r->p++;
    *d = 0;
    *out = buf;
    *outlen = (size_t)(d - buf);
    return 0;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int parse_number(Reader *r, VqJson *v)
{
    const char *start = r->p;
    char *end;
    size_t n;
    if (r->p < r->end && *r->p == '-')
        r->p++;
    if (r->p >= r->end || !is_digit(*r->p))
        return fail(r, "bad number");
    if (*r->p == '0') {
        r->p++;
    } else {
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    }
    if (r->p < r->end && *r->p == '.') {
        r->p++;
        if (r->p >= r->end || !is_digit(*r->p))
            return fail(r, "bad number");
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->end || !is_digit(*r->p))
            return fail(r, "bad number");
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    }
    n = (size_t)(r->p - start);
    v->str = (char *)malloc(n + 1);
    if (!v->str)
        return fail(r, "out of memory");
    memcpy(v->str, start, n);
    v->str[n] = 0;
    v->len = n;
    v->type = VQ_JSON_NUMBER;
    v->number = vq_strtod_c(v->str, &end);
    return 0;
}

static int parse_value(Reader *r, VqJson *v, int depth);

/* appends one child; for objects *key is taken over */
static int push(Reader *r, VqJson *v, size_t *cap, char *key, VqJson **child)
{
    if (v->n == *cap) {
        const size_t nc = *cap ? *cap * 2 : 8;
        VqJson *it = (VqJson *)realloc(v->item, nc * sizeof(*it));
        if (!it) {
            free(key);
            return fail(r, "out of memory");
        }
        v->item = it;
        if (v->type == VQ_JSON_OBJECT) {
            char **k = (char **)realloc(v->key, nc * sizeof(*k));
            if (!k) {
                free(key);
                return fail(r, "out of memory");
            }
            v->key = k;
        }
        *cap = nc;
    }
    memset(&v->item[v->n], 0, sizeof(v->item[v->n]));
    if (v->type == VQ_JSON_OBJECT)
        v->key[v->n] = key;
    *child = &v->item[v->n++];
    return 0;
}

static int parse_container(Reader *r, VqJson *v, int depth)
{
    const int is_obj = *r->p == '{';
    const char close = is_obj ? '}' : ']';
    size_t cap = 0;
    v->type = is_obj ? VQ_JSON_OBJECT : VQ_JSON_ARRAY;
    r->p++;
    skip_ws(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        VqJson *child = NULL;
        skip_ws(r);
        if (is_obj) {
            size_t klen;
            if (r->p >= r->end || *r->p != '"')
                return fail(r, "expected a member name");
            if (parse_string(r, &key, &klen) < 0)
                return -1;
            skip_ws(r);
            if (r->p >= r->end || *r->p != ':') {
                free(key);
                return fail(r, "expected ':'");
            }
            r->p++;
        }
        if (push(r, v, &cap, key, &child) < 0)
            return -1;
        if (parse_value(r, child, depth + 1) < 0)
            return -1;
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            return 0;
        }
        return fail(r, "expected ',' or '%c'", close);
    }
}

static int literal(Reader *r, const char *word, VqJson *v, VqJsonType t)
{
    const size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
        return fail(r, "unexpected character");
    r->p += n;
    v->type = t;
    return 0;
}

static int parse_value(Reader *r, VqJson *v, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(r, "nested too deep");
    skip_ws(r);
    if (r->p >= r->end)
        return fail(r, "unexpected end of text");
    switch (*r->p) {
    case '{':
    case '[':
        return parse_container(r, v, depth);
    case '"':
        v->type = VQ_JSON_STRING;
        return parse_string(r, &v->str, &v->len);
    case 't':
        return literal(r, "true", v, VQ_JSON_TRUE);
    case 'f':
        return literal(r, "false", v, VQ_JSON_FALSE);
    case 'n':
        return literal(r, "null", v, VQ_JSON_NULL);
    default:
        return parse_number(r, v);
    }
}

int vq_json_parse(const char *text, size_t len, VqJson **out, char *err, size_t errlen)
{
    Reader r;
    VqJson *v = (VqJson *)calloc(1, sizeof(*v));
    *out = NULL;
    memset(&r, 0, sizeof(r));
    r.s = r.p = text;
    r.end = text + len;
    r.err = err;
    r.errlen = errlen;
    if (!v) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (parse_value(&r, v, 0) == 0) {
        skip_ws(&r);
        if (r.p == r.end) {
            *out = v;
            return 0;
        }
        fail(&r, "text after the JSON value");
    }
    vq_json_free(v);
    return -1;
}

void vq_json_free(VqJson *v)
{
    if (!v)
        return;
    free_children(v);
    free(v);
}

const VqJson *vq_json_get(const VqJson *v, const char *key)
{
    size_t i;
    if (!v || v->type != VQ_JSON_OBJECT)
        return NULL;
    for (i = 0; i < v->n; i++)
        if (!strcmp(v->key[i], key))
            return &v->item[i];
    return NULL;
}
