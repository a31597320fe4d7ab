#include <jxl/resizable_parallel_runner.h>
#include <jxl/version.h>

#include "CCodecLoader.h"
#include "loader.h"

// libjxl's thread pool, a library of its own beside libjxl (same versioning).
#define OSP_STR(x) #x
#define OSP_SONAME(major, minor) "libjxl_threads.so." OSP_STR(major) "." OSP_STR(minor)
static const char *const names[] = {OSP_SONAME(JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION), "libjxl_threads.so", NULL};

#define OSP_JXL_THREADS_FUNCTIONS(F, V)                                                                   \
    F(JxlParallelRetCode, JxlResizableParallelRunner,                                                    \
      (void *r, void *o, JxlParallelRunInit i, JxlParallelRunFunction f, uint32_t s, uint32_t e), (r, o, i, f, s, e)) \
    F(void *, JxlResizableParallelRunnerCreate, (const JxlMemoryManager *m), (m))                        \
    V(JxlResizableParallelRunnerSetThreads, (void *r, size_t n), (r, n))                                 \
    V(JxlResizableParallelRunnerDestroy, (void *r), (r))

OSP_DEFINE_LIBRARY(jxl_threads, OSP_JXL_THREADS_FUNCTIONS)
