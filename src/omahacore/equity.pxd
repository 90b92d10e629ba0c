# C-level interface of the equity kernels: nothing is shared with other compiled modules
# yet; the kernels are reached through exact_counts and sample_counts.
