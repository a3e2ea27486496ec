import Foundation
import Testing

// Work measured by size rather than by a wall-clock limit: the CPU time of an input against that
// of one four times as long.

/// Expects `work(4 × base)` to take less than eight times the CPU time of `work(base)` (linear
/// work takes four times, quadratic work sixteen), each the least of several runs.
///
/// The runs of the large input stop at the first one under the bound: the least of all of them
/// would be under it too, so the outcome is the one all the runs give, and only growth that is
/// not linear (or a busy machine) costs every run.
public func expectLinearGrowth(
  _ comment: Comment, base: Int, sourceLocation: SourceLocation = #_sourceLocation, _ work: (Int) -> Void
) {
  var small = leastCPUTime { work(base) }
  var large = leastCPUTime(stoppingBelow: 8 * small) { work(base * 4) }
  if large >= 8 * small {
    // Measure once more before failing: a busy machine can slow one series of runs.
    small = min(small, leastCPUTime { work(base) })
    large = min(large, leastCPUTime(stoppingBelow: 8 * small + 0.000_2) { work(base * 4) })
  }
  #expect(
    large < 8 * small + 0.000_2,
    Comment(rawValue: "\(comment.rawValue): CPU seconds \(small) for size \(base), \(large) for size \(base * 4)"),
    sourceLocation: sourceLocation)
}

/// The least CPU time, in seconds, this thread spent in `runs` runs of `work`.
public func leastCPUTime(runs: Int = 5, _ work: () -> Void) -> Double {
  leastCPUTime(runs: runs, stoppingBelow: 0, work)
}

/// The least CPU time, in seconds, this thread spent in at most `runs` runs of `work`: the
/// runs stop at the first that takes less than `bound` seconds.
func leastCPUTime(runs: Int = 5, stoppingBelow bound: Double, _ work: () -> Void) -> Double {
  var least = Double.infinity
  for _ in 0..<runs where least >= bound {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    work()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    least = min(least, Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9)
  }
  return least
}
