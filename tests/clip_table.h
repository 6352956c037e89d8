/*
 * clip_table.h - the test pairs of tests/data/clips.tsv, for the C++ tests.
 *
 * The table is the one list of pairs (clips, size, depth, chroma
 * subsampling) that the tests, CMake, the scripts and the Python drivers
 * all read; it is read at run time from VQ_CLIPS_TSV (set by
 * tests/tests.cmake), so that a row changed there needs no rebuild.  Each
 * test keeps its own choice of pairs and its own columns (frames, words,
 * sizes it checks) and takes the geometry from here by pair name.
 *
 * A row that is not there, or a table that cannot be read, stops the
 * program: it is a broken checkout, not a test to skip.
 */
#ifndef VQ_TESTS_CLIP_TABLE_H
#define VQ_TESTS_CLIP_TABLE_H

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef VQ_CLIPS_TSV
#error "VQ_CLIPS_TSV (the path of tests/data/clips.tsv) must be defined"
#endif

namespace vq_test {

struct ClipRow {
    std::string name, ref, dis, pix_fmt;
    std::string device;   /* nv12 / p010 / p016, or empty */
    int w, h, bpc, ssx, ssy;

    /* chroma plane size: FFmpeg's rounding up */
    int cw() const { return (w + (1 << ssx) - 1) >> ssx; }
    int ch() const { return (h + (1 << ssy) - 1) >> ssy; }
    int bytes() const { return bpc > 8 ? 2 : 1; }
    /* bytes of one planar frame in the raw file */
    size_t frame_bytes() const { return ((size_t)w * h + 2 * (size_t)cw() * ch()) * bytes(); }
};

[[noreturn]] inline void clip_table_die(const std::string &msg)
{
    fprintf(stderr, "%s: %s\n", VQ_CLIPS_TSV, msg.c_str());
    abort();
}

/* Every row, in the table's order; read once, never changed afterwards (so
 * that the c_str() of its strings stay valid for the program's life). */
inline const std::vector<ClipRow> &clip_rows()
{
    static const std::vector<ClipRow> rows = [] {
        std::vector<ClipRow> v;
        std::ifstream in(VQ_CLIPS_TSV);
        if (!in)
            clip_table_die("cannot read the clip table");
        std::string line;
        bool header = true;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            if (header) {   /* the column names */
                header = false;
                continue;
            }
            std::vector<std::string> f;
            std::stringstream ss(line);
            std::string cell;
            while (std::getline(ss, cell, '\t'))
                f.push_back(cell);
            ClipRow r;
            if (f.size() != 9 || sscanf(f[3].c_str(), "%dx%d", &r.w, &r.h) != 2)
                clip_table_die("bad row: " + line);
            r.name = f[0];
            r.ref = f[1];
            r.dis = f[2];
            r.pix_fmt = f[4];
            r.bpc = atoi(f[5].c_str());
            r.ssx = atoi(f[6].c_str());
            r.ssy = atoi(f[7].c_str());
            r.device = f[8] == "-" ? std::string() : f[8];
            v.push_back(r);
        }
        return v;
    }();
    return rows;
}

inline const ClipRow &clip(const std::string &name)
{
    for (const ClipRow &r : clip_rows())
        if (r.name == name)
            return r;
    clip_table_die("no pair " + name);
}

} // namespace vq_test

#endif
