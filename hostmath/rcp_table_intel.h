/*
 * rcp_table_intel.h - PLACEHOLDER: Intel's RCPSS table has not been
 * generated yet.  It is made on an Intel CPU by scripts/rcp_table_gen.c,
 * whose output replaces this file:
 *     gcc -O2 -static -o rcp_table_gen scripts/rcp_table_gen.c     (anywhere x86-64)
 *     ./rcp_table_gen --name intel > hostmath/rcp_table_intel.h    (on the Intel CPU)
 * Until then float_adm refuses rcp=intel (and rcp=auto on an Intel CPU),
 * saying so (hostmath/rcp_select.cpp; docs/float-adm.md).
 */
#define VQ_RCP_INTEL_MISSING 1
