#include "pool_impl.h"
