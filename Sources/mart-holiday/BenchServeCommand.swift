import ArgumentParser
import Foundation
import MartBench
import MartExport

/// Serves a kept bench recording on 127.0.0.1 until stopped, for side-by-side runs with other
/// tools (`Benchmarks/side-by-side.sh`).
struct BenchServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench-serve",
    abstract: "Serve a recording on 127.0.0.1 until stopped (for side-by-side runs).",
    discussion: """
      Prints one line per origin, `ORIGIN BASEURL`, then serves until SIGINT or SIGTERM, when it \
      warns on standard error of the requests that matched no recording.
      """,
    shouldDisplay: false)

  @Argument(help: "A recording in the replay format (bench --keep DIR writes DIR/<scale>/recording).")
  var recording: String

  func run() throws {
    let served: Bench.Served
    do { served = try Bench.Served(recording: URL(fileURLWithPath: recording)) } catch {
      StandardStreams.err("error: \(error)\n")
      throw ExitCode(1)
    }
    let lines = served.baseURLs.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)\n" }.joined()
    StandardStreams.out(lines)
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let stop = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { stop.signal() }
      source.resume()
      sources.append(source)
    }
    stop.wait()
    let unmatched = served.unmatchedRequests
    for request in unmatched.prefix(5) { StandardStreams.err("warning: no recording for \(request)\n") }
    if unmatched.count > 5 {
      StandardStreams.err("warning: \(DisplayText.count(unmatched.count - 5, "more request")) had no recording\n")
    }
    served.stop()
    _ = sources
  }
}
