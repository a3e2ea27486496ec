import Foundation
import MartCore
import MartFetch
import MartFiles
import MartReplay

/// Writes a recording (the replay format of `fixtures/web`) of every brand site at any scale:
/// the same endpoints, keys, markup and quirks as the fixtures, with seeded random names,
/// addresses across the provinces, phones, coordinates and closing texts in the sites' wordings.
///
/// The same seed, mix and as-of date always give the same bytes.
public struct SourceDataGenerator: Sendable {
  public var mix: BrandMix
  public var seed: UInt64
  /// The day the recording is made for (`recordedOn`); closing dates cover its month and the
  /// next two.
  public var asOf: CalendarDate

  public init(
    mix: BrandMix, seed: UInt64 = 20_261_120, asOf: CalendarDate = CalendarDate(year: 2026, month: 11, day: 20)!
  ) {
    self.mix = mix
    self.seed = seed
    self.asOf = asOf
  }

  /// Every exchange of the recording, named as the files it is written to.
  public func exchanges() -> [(name: String, exchange: RecordedExchange)] {
    var random = SeededRandom(seed: seed)
    var output: [(name: String, exchange: RecordedExchange)] = []
    // Each generator, in the sources' order, drawing from one random stream.
    for generator in SampleGenerators.all {
      output += generator.init(mix: mix, asOf: asOf).exchanges(&random)
    }
    return output
  }

  /// Writes `replay.json` and every exchange into `directory`; returns the number of exchanges.
  @discardableResult
  public func write(to directory: URL) throws(FileError) -> Int {
    try ReplayArchive.writeManifest(
      recordedOn: asOf.iso,
      description:
        "Generated source data (seed \(seed)): \(mix.total) branches of \(SampleGenerators.brands.count) brands in each site's format.",
      to: directory)
    let all = exchanges()
    for (name, exchange) in all {
      try ReplayArchive.write(exchange, name: name, to: directory)
    }
    return all.count
  }
}
