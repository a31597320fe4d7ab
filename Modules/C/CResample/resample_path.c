// Which path the kernels take: the CPU's best, or OSPREY_RESAMPLE_PATH's, chosen once.
#include "CResample.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int osp_resample_path_available(int path) {
    switch (path) {
    case OSP_RESAMPLE_SCALAR: return 1;
#if defined(__x86_64__)
    case OSP_RESAMPLE_SSE2: return 1;  // the x86-64 baseline
    case OSP_RESAMPLE_AVX2: return __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
    default: return 0;
    }
}

static int osp_chosen_path = OSP_RESAMPLE_SCALAR;
static pthread_once_t osp_path_once = PTHREAD_ONCE_INIT;

static void osp_choose_path(void) {
    const char *forced = getenv("OSPREY_RESAMPLE_PATH");
    int path = osp_resample_path_available(OSP_RESAMPLE_AVX2) ? OSP_RESAMPLE_AVX2
             : osp_resample_path_available(OSP_RESAMPLE_SSE2) ? OSP_RESAMPLE_SSE2 : OSP_RESAMPLE_SCALAR;
    if (forced) {
        int named = strcmp(forced, "scalar") == 0 ? OSP_RESAMPLE_SCALAR : strcmp(forced, "sse2") == 0 ? OSP_RESAMPLE_SSE2
                  : strcmp(forced, "avx2") == 0 ? OSP_RESAMPLE_AVX2 : -1;
        if (named >= 0 && osp_resample_path_available(named)) path = named;
    }
    osp_chosen_path = path;
}

int osp_resample_path(void) {
    pthread_once(&osp_path_once, osp_choose_path);
    return osp_chosen_path;
}
