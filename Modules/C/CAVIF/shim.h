// libavif: AVIF decoding (dav1d) and encoding (aom).
#include <avif/avif.h>
