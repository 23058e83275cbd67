#include "vips_shim.h"
