import Foundation
import MartBrands
import MartCore
import MartFetch

/// Writes one source's sites at any scale, for the bench: the same endpoints, keys, markup and
/// quirks as the recorded fixtures, with seeded random data. A source the bench covers has one,
/// in a file of its own (`<Name>SampleGenerator.swift`), listed in ``SampleGenerators``.
public protocol SourceSampleGenerator: Sendable {
  /// The source whose sites this writes: its brands are the ones the generator makes stores of.
  static var source: any BrandSource.Type { get }
  /// A generator for the request's counts of this source's brands, closing days around its day.
  init(_ request: SampleRequest)
  var request: SampleRequest { get }
  /// Every exchange of this source's part of the recording, named as the files it is written
  /// to. The same random state, mix and as-of date always give the same bytes.
  func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)]
  /// The most branches of a brand a run can read from the source (a paging limit), if any.
  static var maximumBranches: [BrandSlug: Int] { get }
}

/// What a bench recording is made for: how many stores of each brand, and the day.
public struct SampleRequest: Sendable {
  public var mix: BrandMix
  /// The day the recording is made for; closing dates cover its month and the next two.
  public var asOf: CalendarDate

  public init(mix: BrandMix, asOf: CalendarDate) {
    self.mix = mix
    self.asOf = asOf
  }
}

extension SourceSampleGenerator {
  /// A generator for `mix`'s counts of this source's brands, closing days around `asOf`.
  public init(mix: BrandMix, asOf: CalendarDate) { self.init(SampleRequest(mix: mix, asOf: asOf)) }

  public var mix: BrandMix { request.mix }

  /// The day the recording is made for; closing dates cover its month and the next two.
  public var asOf: CalendarDate { request.asOf }

  public static var maximumBranches: [BrandSlug: Int] { [:] }

  static var jsonHeaders: [HTTPHeader] { [HTTPHeader("Content-Type", "application/json;charset=UTF-8")] }
  static var htmlHeaders: [HTTPHeader] { [HTTPHeader("Content-Type", "text/html;charset=UTF-8")] }

  /// The 2nd and 4th `weekday` of the month of `month`.
  static func secondAndFourth(_ weekday: Weekday, in month: CalendarDate) -> [CalendarDate] {
    let first = month.firstOfMonth()
    let offset = (weekday.rawValue - first.weekday.rawValue + 7) % 7
    return [first.adding(days: offset + 7), first.adding(days: offset + 21)]
  }

  /// The three months of closing days a site publishes.
  func closingDays(_ weekday: Weekday) -> [[CalendarDate]] {
    (0..<3).map { Self.secondAndFourth(weekday, in: asOf.firstOfMonth(addingMonths: $0)) }
  }

  /// The next closing day on or after the as-of date.
  func nextClosingDay(_ weekday: Weekday) -> CalendarDate {
    closingDays(weekday).joined().first { $0 >= asOf }!
  }

  static func compact(_ date: CalendarDate) -> String { date.iso.replacingOccurrences(of: "-", with: "") }

  static func monthDay(_ date: CalendarDate) -> String { "\(date.month)/\(date.day)" }

  static func coordinateText(_ value: Double, digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// Unique branch names built from neighbourhoods (`역삼점`, `역삼2점`, …).
struct NameBook {
  private var used: [String: Int] = [:]

  mutating func name(near place: PlaceSample) -> String {
    let stem = String(place.dong.dropLast())
    let count = used[stem, default: 0] + 1
    used[stem] = count
    return count == 1 ? "\(stem)점" : "\(stem)\(count)점"
  }
}

/// How many branches of each brand a generated recording holds.
public struct BrandMix: Sendable, Hashable {
  public var counts: [BrandSlug: Int]

  public init(counts: [BrandSlug: Int]) { self.counts = counts }

  /// The relative sizes of the chains in the bench (those with a generator), from the registry
  /// (`KnownBrands`).
  public static var nationalShares: [(BrandSlug, Double)] {
    KnownBrands.entries.filter { SampleGenerators.generator(for: $0.slug) != nil }.map { ($0.slug, $0.nationalShare) }
  }

  /// The most branches of a brand a run can read, from the generators.
  public static var limits: [BrandSlug: Int] {
    SampleGenerators.all.reduce(into: [:]) { limits, generator in
      limits.merge(generator.maximumBranches) { min($0, $1) }
    }
  }

  /// `total` branches spread like the real chains (largest remainders, every brand at least one);
  /// a brand's share above its limit goes to the other brands.
  public static func national(total: Int) -> BrandMix {
    precondition(total >= BrandMix.nationalShares.count, "at least one branch per brand")
    var shares = nationalShares
    var counts: [BrandSlug: Int] = [:]
    var remaining = total
    let shareSum = shares.reduce(0) { $0 + $1.1 }
    for (brand, limit) in limits.sorted(by: { $0.key < $1.key }) {
      guard let share = shares.first(where: { $0.0 == brand })?.1, Double(total) * share / shareSum > Double(limit)
      else { continue }
      counts[brand] = limit
      remaining -= limit
      shares.removeAll { $0.0 == brand }
    }
    let sum = shares.reduce(0) { $0 + $1.1 }
    let exact = shares.map { (brand: $0.0, value: Double(remaining) * $0.1 / sum) }
    var assigned = exact.map { max(1, Int($0.value)) }
    var leftover = remaining - assigned.reduce(0, +)
    let order = exact.indices.sorted {
      (exact[$0].value - Double(Int(exact[$0].value)), $1) > (exact[$1].value - Double(Int(exact[$1].value)), $0)
    }
    var index = 0
    while leftover > 0 {
      assigned[order[index % order.count]] += 1
      leftover -= 1
      index += 1
    }
    for (position, share) in exact.enumerated() { counts[share.brand] = assigned[position] }
    return BrandMix(counts: counts)
  }

  public var total: Int { counts.values.reduce(0, +) }

  public func count(_ brand: BrandSlug) -> Int { counts[brand] ?? 0 }
}

/// Just enough JSON writing for the generated feeds: keys in the order given, as the sites send them.
enum JSONText {
  enum Value {
    case string(String)
    /// A number, written as given.
    case number(String)
    case null
    /// Already JSON.
    case raw(String)
  }

  static func object(_ fields: [(String, Value)]) -> String {
    "{" + fields.map { "\(quoted($0.0)): \(text($0.1))" }.joined(separator: ", ") + "}"
  }

  static func text(_ value: Value) -> String {
    switch value {
    case .string(let string): quoted(string)
    case .number(let number): number
    case .null: "null"
    case .raw(let raw): raw
    }
  }

  static func quoted(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04X", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// Costco's escaping: `<`, `>`, `'` as `\u003C`, `\u003E`, `\u0027`, and `/` as `\/`.
  static func costcoEscaped(_ value: Value) -> String {
    guard case .string = value else { return text(value) }
    return text(value)
      .replacingOccurrences(of: "/", with: "\\/")
      .replacingOccurrences(of: "<", with: "\\u003C")
      .replacingOccurrences(of: ">", with: "\\u003E")
      .replacingOccurrences(of: "'", with: "\\u0027")
  }
}

/// Escaping text into HTML.
enum HTMLText {
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
