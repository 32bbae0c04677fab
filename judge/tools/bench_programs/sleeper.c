/* Never ends and uses no CPU: what the wall limit must stop. */
#include <unistd.h>
int main(void){for(;;)sleep(60);}
