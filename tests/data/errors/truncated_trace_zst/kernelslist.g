kernel-1.traceg.zst
