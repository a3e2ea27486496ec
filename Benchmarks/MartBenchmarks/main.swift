// Placeholder for the benchmarks target.
print("no benchmarks yet")
