/* model_internal.h - what model*.c share: an arena for a loaded model's memory. */
#ifndef VQ_MODEL_INTERNAL_H
#define VQ_MODEL_INTERNAL_H

#include <stddef.h>

#include "model.h"

/* every block of a loaded model, freed together by vq_arena_free */
void *vq_arena_alloc(void **arena, size_t n);
char *vq_arena_strndup(void **arena, const char *s, size_t n);
void  vq_arena_free(void **arena);

/* libsvm text (svm.cpp SVMModelParser) -> svm; 0, or -1 with a message */
int vq_svm_parse(void **arena, const char *text, size_t len, VqSvm *svm, char *err, size_t errlen);

/* JSON model text -> d (memory in *arena); 0, or VQ_EMODEL / VQ_ENOMEM with a message */
int vq_model_data_from_json(void **arena, const char *json, size_t len, unsigned flags,
                            VqModelData *d, char *err, size_t errlen);

#endif /* VQ_MODEL_INTERNAL_H */
