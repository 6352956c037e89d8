// Linked into every unit test: the data directories this build was
// configured with become the environment's defaults (VQ_RAW_DIR, ...), so
// that the golden cases run under ctest however the test was discovered;
// a variable already set wins.
#include <cstdlib>

namespace {

struct Defaults {
    Defaults()
    {
        const char *const kv[][2] = {
            { "VQ_RAW_DIR", VQ_TEST_RAW_DIR },     { "VQ_GOLDEN_DIR", VQ_TEST_GOLDEN_DIR },
            { "VQ_MODELS_DIR", VQ_TEST_MODELS_DIR }, { "VQ_CLIPS_DIR", VQ_TEST_CLIPS_DIR },
            { "VQ_FFMPEG", VQ_TEST_FFMPEG },
        };
        for (const auto &p : kv)
            if (p[1][0])
                setenv(p[0], p[1], 0);
    }
} defaults;

}  // namespace
