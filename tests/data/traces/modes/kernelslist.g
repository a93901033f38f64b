MemcpyHtoD,0x0000000000001000,4096
kernel-1.traceg
