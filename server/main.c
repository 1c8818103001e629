/* main.c: placeholder entry point, replaced by the server work in progress. */
#include "common/common.h"
#include <stdio.h>
int main(void)
{
    printf("eddy %s\n", EDDY_VERSION);
    return 0;
}
