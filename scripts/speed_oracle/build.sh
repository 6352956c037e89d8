#!/bin/bash
# The speed_chroma oracle: libvmaf v3.2.0's own feature/speed.c (up to its
# feature extractors) and feature/vif_tools.c, C path, built with gcc -O3
# against stub headers, driven by harness.c as extract_chroma drives them.
# Nothing of libvmaf is kept in this repository: the sources come from a
# checkout at build time.
#   build.sh VMAF_GIT_DIR OUT_DIR            (then:)
#   gen.py tests/data/golden_parts/speed_chroma_options.json OUT_DIR/harness RAW_DIR
set -euo pipefail
repo=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/stub/common" "$out/stub/libvmaf"
show() { git -C "$repo" show "v3.2.0:libvmaf/src/$1"; }
show feature/vif_tools.c > "$out/vif_tools.c"
show feature/vif_tools.h > "$out/vif_tools.h"
show feature/vif_options.h > "$out/vif_options.h"
show feature/common/convolution.h > "$out/stub/common/convolution.h"
show mem.h > "$out/stub/mem.h"
# speed.c up to the first feature extractor's defaults: the SpEED core
show feature/speed.c | sed '/^#define DEFAULT_SPEED_SIGMA_NN/,$d' > "$out/speed_core.c"
for h in dict.h feature_collector.h feature_extractor.h feature_name.h opt.h picture.h \
         cpu.h picture_copy.h libvmaf/picture.h; do : > "$out/stub/$h"; done
printf '#define ARCH_X86 0\n#define HAVE_AVX512 0\n' > "$out/stub/config.h"
printf 'enum { VMAF_LOG_LEVEL_ERROR, VMAF_LOG_LEVEL_WARNING };\n#define vmaf_log(...) ((void)0)\n' \
    > "$out/stub/log.h"
cp "$here/harness.c" "$out/"
gcc -O3 -std=gnu11 -w -I"$out/stub" -I"$out" "$out/harness.c" "$out/vif_tools.c" -lm -o "$out/harness"
echo "$out/harness"
