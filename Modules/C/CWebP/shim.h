// libwebp: decoding, encoding, the demuxer (animated and extended files) and the muxer
// (ICCP chunks and animations on write).
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
