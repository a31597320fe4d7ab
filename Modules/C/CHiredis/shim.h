// hiredis, Redis's official C client (Debian's libhiredis-dev): the blocking API only.
#include <hiredis/hiredis.h>
