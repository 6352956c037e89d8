#!/bin/bash
# What the VMAF tools ask of the ffmpeg binary before they score anything:
# -version reporting the release (RELEASE: 7.1, 8.1, 9.0; empty: any N.N),
# -filters listing libvmaf and libvmaf_cuda (and the filters they put around
# them), and two lavfi color inputs through libvmaf exiting 0; through
# libvmaf_cuda on the GPU, or without one refused as such (with device=cpu it
# scores on the CPU like the others).
#   e2e_binary.sh FFMPEG [RELEASE]
set -uo pipefail
ff=$1 want=${2:-}
bad=0
banner=$("$ff" -version | sed -n 1p)
if [ -n "$want" ]; then
    case $banner in
        "ffmpeg version $want."*|"ffmpeg version $want-"*) echo "ok   -version: $banner" ;;
        *) echo "FAIL -version does not report $want: $banner"; bad=1 ;;
    esac
elif grep -Eq '^ffmpeg version [0-9]+\.[0-9]+' <<<"$banner"; then
    echo "ok   -version: $banner"
else
    echo "FAIL -version reports no release: $banner"; bad=1
fi
filters=$("$ff" -hide_banner -filters 2>/dev/null | awk '{print $2}')
fbad=0
for f in libvmaf libvmaf_cuda vqcuda yadif fps format scale setpts trim setparams hwupload_cuda hwdownload psnr; do
    # a here-string, not a pipe: grep -q leaves at its first match, and the
    # writer's SIGPIPE would fail the pipeline under pipefail
    grep -qx "$f" <<<"$filters" || { echo "FAIL -filters does not list $f"; fbad=1; bad=1; }
done
[ $fbad -eq 0 ] && echo "ok   -filters lists libvmaf, libvmaf_cuda and the filters the tools use"
if "$ff" -hide_banner -loglevel error -f lavfi -i color=black:s=320x240:r=1:d=1 \
        -f lavfi -i color=black:s=320x240:r=1:d=1 \
        -lavfi 'libvmaf=log_fmt=json:log_path=/dev/null' -f null - 2>&1; then
    echo "ok   lavfi color inputs through libvmaf"
else
    echo "FAIL lavfi color inputs through libvmaf"; bad=1
fi
colors=(-f lavfi -i color=black:s=320x240:r=1:d=1 -f lavfi -i color=black:s=320x240:r=1:d=1)
if "$ff" -hide_banner -loglevel error "${colors[@]}" -lavfi 'libvmaf_cuda=device=cpu' -f null - 2>&1; then
    echo "ok   lavfi color inputs through libvmaf_cuda=device=cpu"
else
    echo "FAIL lavfi color inputs through libvmaf_cuda=device=cpu"; bad=1
fi
if err=$("$ff" -hide_banner -loglevel error "${colors[@]}" -lavfi libvmaf_cuda -f null - 2>&1); then
    echo "ok   lavfi color inputs through libvmaf_cuda (on the GPU)"
elif grep -q 'no usable CUDA device' <<<"$err"; then
    echo "ok   libvmaf_cuda without a GPU: refused ($(grep -m1 'no usable CUDA device' <<<"$err" | sed 's/.*cuda executor: //'))"
else
    echo "FAIL libvmaf_cuda: neither scored nor refused for want of a GPU: $err"; bad=1
fi
exit $bad
