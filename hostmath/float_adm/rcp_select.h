/*
 * rcp_select.h - which CPU's RCPSS float_adm divides with (its `rcp`
 * option): the tables generated on each vendor's CPU (rcp_table_<vendor>.h,
 * scripts/rcp_table_gen.c), exact division, or the vendor of the CPU this
 * process runs on (cpuid).  docs/float-adm.md.
 */
#ifndef VQ_RCP_SELECT_H
#define VQ_RCP_SELECT_H

#include <stddef.h>

#include "float_adm/rcp_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The table for which = "amd", "intel", "div" or "auto" (this CPU's vendor:
 * AuthenticAMD -> amd, GenuineIntel -> intel, a build for a CPU without SSE2
 * (not x86) -> div, as libvmaf's build there).  NULL with a message in err
 * when there is none (an unknown vendor, a table not generated yet).  The
 * tables are built once and live as long as the process. */
const VqRcpTable *vq_rcp_select(const char *which, char *err, size_t errlen);

/* this CPU's vendor string (cpuid leaf 0), "" where there is no cpuid */
const char *vq_rcp_cpu_vendor(void);

/* "amd" / "intel" for this CPU's vendor, "div" on a build without SSE2,
 * NULL for other vendors */
const char *vq_rcp_auto_name(void);

/* the CPU a table was generated on (its header's words), NULL if the table
 * is missing; name "amd" or "intel" */
const char *vq_rcp_table_cpu(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* VQ_RCP_SELECT_H */
