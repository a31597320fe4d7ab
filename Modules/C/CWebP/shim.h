// libwebp: decoding, encoding, and the demuxer (animated and extended files).
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
