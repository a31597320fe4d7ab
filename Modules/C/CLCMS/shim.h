// Little CMS 2: ICC colour profiles and colour transforms.
#include <lcms2.h>
