/*
 * simd_motion_psnr.h - motion's and PSNR's rows: a part of simd_impl.h (included there, inside
 * the instruction set's namespace; its rules hold here).
 */
/* ---- motion ----------------------------------------------------------- */

/* P: the previous frame's store (packed, uint8 for bpc <= 8), T: the current frame's samples */
template <typename P, typename T>
static uint64_t motion_row_t(VqPlaneView prev, VqPlaneView cur, int i, int bpc, int32_t *y_row)
{
    const int w = cur.w, h = cur.h, sh = sizeof(T) == 1 ? 0 : cur.shift;
    const P *pr[5];
    const T *cr[5];
    int32_t tap[5];
    for (int k = 0; k < 5; k++) {
        const int row = vq_reflect101(i - VQ_MOTION_RADIUS + k, h);
        pr[k] = (const P *)(prev.data + (ptrdiff_t)row * prev.pitch);
        cr[k] = (const T *)(cur.data + (ptrdiff_t)row * cur.pitch);
        tap[k] = vq_motion_tap(k);
    }
    /* |sum| <= 65536 * (2^bpc - 1) + 2^(bpc-1) < 2^31 for bpc <= 15 */
    const int32_t round = 1 << (bpc - 1);
    int32_t *y = y_row + 2;
    int32_t lo = 0, hi = 0;
    for (int j = 0; j < w; j++) {
        int32_t acc = 0;
        for (int k = 0; k < 5; k++)
            acc += tap[k] * ((int32_t)pr[k][j] - (int32_t)((uint32_t)cr[k][j] >> sh));
        const int32_t v = (acc + round) >> bpc;
        y[j] = v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    y[-2] = y[2];
    y[-1] = y[1];
    y[w] = y[w - 2];
    y[w + 1] = y[w - 3];
    uint64_t sad = 0;
    if (lo > -32768 && hi < 32768 && w < 65536) {
        /* every |y| <= 32767: |sum| <= 65536 * 32767, and with the rounding
         * term below 2^31, so int32 gives the int64 sum, each |v| <= 32768
         * and the row's sum below 2^32 (a row of real video; the full range
         * takes the loop below) */
        uint32_t row = 0;
        for (int j = 0; j < w; j++) {
            int32_t acc = 0;
            for (int k = 0; k < 5; k++)
                acc += tap[k] * y[j - 2 + k];
            const int32_t v = (acc + 32768) >> 16;
            row += (uint32_t)(v < 0 ? -v : v);
        }
        return row;
    }
    for (int j = 0; j < w; j++) {
        int64_t acc = 0;
        for (int k = 0; k < 5; k++)
            acc += (int64_t)tap[k] * y[j - 2 + k];
        const int32_t v = (int32_t)((acc + 32768) >> 16);
        sad += (uint32_t)(v < 0 ? -v : v);
    }
    return sad;
}

static uint64_t motion_row(VqPlaneView prev, VqPlaneView cur, int i, int bpc, int32_t *y_row)
{
    if (cur.step != 1 || prev.step != 1 || prev.shift || bpc > 15 || cur.w < 4)
        return vq_motion_row_plain(prev, cur, i, bpc, y_row);
    if (prev.bytes == 1)
        return cur.bytes == 1 ? motion_row_t<uint8_t, uint8_t>(prev, cur, i, bpc, y_row)
                              : motion_row_t<uint8_t, uint16_t>(prev, cur, i, bpc, y_row);
    return cur.bytes == 1 ? motion_row_t<uint16_t, uint8_t>(prev, cur, i, bpc, y_row)
                          : motion_row_t<uint16_t, uint16_t>(prev, cur, i, bpc, y_row);
}

/* ---- psnr ------------------------------------------------------------- */

static uint64_t psnr_row(VqPlaneView ref, VqPlaneView dis, int i, int w, int bpc)
{
    if (ref.step != 1 || dis.step != 1)
        return vq_psnr_row_plain(ref, dis, i, w, bpc);
    if (bpc == 8 && ref.bytes == 1 && dis.bytes == 1) {
        /* |ref - dis| <= 255: the int16 cast keeps it; a row sum < 2^32 per 66051 samples */
        const uint8_t *a = ref.data + (ptrdiff_t)i * ref.pitch, *b = dis.data + (ptrdiff_t)i * dis.pitch;
        uint64_t sse = 0;
        for (int j0 = 0; j0 < w; j0 += 32768) {
            const int n = w - j0 < 32768 ? w - j0 : 32768;
            uint32_t s = 0;
            for (int j = 0; j < n; j++) {
                const int32_t d = (int32_t)a[j0 + j] - (int32_t)b[j0 + j];
                s += (uint32_t)(d * d);
            }
            sse += s;
        }
        return sse;
    }
    if (bpc > 8 && ref.bytes == 2 && dis.bytes == 2) {
        const uint16_t *a = (const uint16_t *)(ref.data + (ptrdiff_t)i * ref.pitch);
        const uint16_t *b = (const uint16_t *)(dis.data + (ptrdiff_t)i * dis.pitch);
        const int as = ref.shift, bs = dis.shift;
        uint64_t sse = 0;
        for (int j = 0; j < w; j++) {
            const int32_t d = (int32_t)((uint32_t)a[j] >> as) - (int32_t)((uint32_t)b[j] >> bs);
            const uint32_t e = (uint32_t)(d < 0 ? -d : d);
            sse += e * e;
        }
        return sse;
    }
    return vq_psnr_row_plain(ref, dis, i, w, bpc);
}
