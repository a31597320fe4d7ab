// libjpeg-turbo. jpeglib.h uses FILE and size_t without including their headers,
// so stdio.h (and stddef.h) must come first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
