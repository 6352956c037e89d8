# clip_table.sh - sourced by the shell scripts: the test pairs of
# tests/data/clips.tsv (the one list, also read by the C++ tests, CMake and
# the Python drivers).  Each script keeps its own choice of pairs and takes
# their clips, size and format from here.
clips_tsv=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/data/clips.tsv

# clip_row PAIR: "ref dist WxH pix_fmt bpc ssx ssy device" (device: nv12,
# p010, p016 or -); fails for a pair not in the table
clip_row() {
    awk -F'\t' -v n="$1" '!/^#/ && $1 == n { print $2, $3, $4, $5, $6, $7, $8, $9; f = 1 }
        END { exit !f }' "$clips_tsv"
}

# clip_names: every pair, in the table's order
clip_names() {
    awk -F'\t' '!/^#/ && $1 != "name" { print $1 }' "$clips_tsv"
}
