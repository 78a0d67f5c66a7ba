/* Constants shared by crt0.S and C. */
#define RT_FRAME 256		/* 32 saved registers */
#define RT_MAGIC 0x52564d58	/* a7 of the ecall that ends rt_run */
