#!/bin/bash
# scripts/build-ffmpeg.sh refuses bad input at once, before anything is
# compiled or downloaded, with a message naming what it expected: a release
# it has no patch for, a source of another release than asked, a source
# without RELEASE/VERSION, a patch that does not apply.  No network needed.
#   build_refusals.sh OUT_DIR
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-/tmp/vq-build-refusals}")
rm -rf "$out" && mkdir -p "$out"
fail=0

# a fake FFmpeg source: RELEASE $2 (none if empty), files the patches do not fit
fake_src() {
    local d=$out/$1
    mkdir -p "$d/libavfilter"
    [ -n "$2" ] && echo "$2" > "$d/RELEASE"
    printf '#!/bin/sh\necho not FFmpeg\n' > "$d/configure"
    echo '# not FFmpeg' > "$d/libavfilter/Makefile"
    echo '/* not FFmpeg */' > "$d/libavfilter/allfilters.c"
    echo "$d"
}

# expect NAME PATTERN ENV...: the build fails, says PATTERN, and leaves
# nothing compiled or fetched in its build dir
expect() {
    local name=$1 pattern=$2 b=$out/build.$1 rc=0
    shift 2
    env -u FFMPEG_VERSION -u FFMPEG_SRC -u VQCUDA_PREFIX "$@" \
        "$root/scripts/build-ffmpeg.sh" "$b" > "$out/$name.log" 2>&1 || rc=$?
    if [ $rc -eq 0 ]; then
        echo "FAIL $name: the build went on"; fail=1
    elif ! grep -q -- "$pattern" "$out/$name.log"; then
        echo "FAIL $name: no message matching '$pattern':"; cat "$out/$name.log"; fail=1
    elif [ -e "$b/libvqcuda" ] || [ -e "$b/deps/lib" ] || [ -e "$b/ffmpeg" ] || [ -e "$b/src/apt" ] ||
         [ -n "$(find "$b" -name '*.o' -print -quit 2>/dev/null)" ]; then
        echo "FAIL $name: stopped too late (it built or fetched something)"; fail=1
    else
        echo "ok   $name: $(grep build-ffmpeg: "$out/$name.log" | tail -n1)"
    fi
}

d71=$(fake_src src71 7.1.5)
d90=$(fake_src src90 9.0.2)
d61=$(fake_src src61 6.1.1)
dnone=$(fake_src srcnone "")
tar -C "$out" -cJf "$out/ffmpeg-6.1.1.tar.xz" src61
tar -C "$out" -cJf "$out/ffmpeg-7.1.5.tar.xz" src71

expect unsupported_version 'FFMPEG_VERSION=6.1 is not supported: expected one of 7.1 8.1 9.0' FFMPEG_VERSION=6.1
expect garbage_version 'FFMPEG_VERSION=8 is not supported: expected one of 7.1 8.1 9.0' FFMPEG_VERSION=8
expect other_release_dir "is FFmpeg 7.1.5, not 8.1" FFMPEG_VERSION=8.1 FFMPEG_SRC="$d71"
expect other_release_tarball "is FFmpeg 7.1.5, not 9.0" FFMPEG_VERSION=9.0 FFMPEG_SRC="$out/ffmpeg-7.1.5.tar.xz"
expect unsupported_source 'is FFmpeg 6.1.1: expected one of 7.1 8.1 9.0' FFMPEG_SRC="$out/ffmpeg-6.1.1.tar.xz"
expect no_release_file 'has no RELEASE or VERSION file' FFMPEG_SRC="$dnone"
expect missing_source 'no such file or directory' FFMPEG_SRC="$out/nowhere.tar.xz"
expect patch_does_not_apply 'ffmpeg-9.0-vqcuda.patch does not apply.*expected a pristine FFmpeg 9.0 source' FFMPEG_SRC="$d90"
exit $fail
