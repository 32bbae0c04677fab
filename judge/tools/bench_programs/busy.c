/* Never ends: what the CPU limit must stop. */
int main(void){volatile unsigned long x=0;for(;;)x++;}
