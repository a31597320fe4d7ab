// libjxl: JPEG XL decoding and encoding, and its thread pool (libjxl_threads).
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/resizable_parallel_runner.h>
