import CLibXML2
import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay

#if canImport(Glibc)
  import Glibc
  private let resourceUsageOfSelf = RUSAGE_SELF.rawValue
  /// Linux reports `ru_maxrss` in kilobytes.
  private let maximumResidentSetUnit = 1024
#elseif canImport(Darwin)
  import Darwin
  private let resourceUsageOfSelf = RUSAGE_SELF
  /// Darwin reports `ru_maxrss` in bytes.
  private let maximumResidentSetUnit = 1
#endif

/// CPU time and peak memory of the current process, from `getrusage`.
public struct ResourceUsage: Sendable {
  /// User plus system CPU time, in seconds.
  public var cpuSeconds: Double
  /// The largest resident set size so far, in bytes.
  public var peakMemoryBytes: Int

  public static func current() -> ResourceUsage {
    var usage = rusage()
    getrusage(resourceUsageOfSelf, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return ResourceUsage(
      cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
      peakMemoryBytes: Int(usage.ru_maxrss) * maximumResidentSetUnit)
  }
}

/// Wall-clock seconds `body` takes.
public func wallSeconds(_ body: () throws -> Void) rethrows -> Double {
  let start = ContinuousClock.now
  try body()
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Throughput measurements of single stages, on the pages and texts of a generated recording.
public enum StageBenchmarks {
  /// Our HTML parse+extract time over libxml2's bare parse time on the same bytes.
  public struct ParseComparison: Sendable, Encodable {
    public var pages: Int
    public var bytes: Int
    /// Seconds per pass of the brand parsers (parse and extract).
    public var parseAndExtractSeconds: Double
    /// Seconds per pass of `htmlReadMemory` + `xmlFreeDoc` alone.
    public var rawParseSeconds: Double
    public var ratio: Double { parseAndExtractSeconds / rawParseSeconds }

    private enum CodingKeys: String, CodingKey {
      case pages, bytes, parseAndExtractSeconds, rawParseSeconds, ratio
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(pages, forKey: .pages)
      try container.encode(bytes, forKey: .bytes)
      try container.encode(parseAndExtractSeconds, forKey: .parseAndExtractSeconds)
      try container.encode(rawParseSeconds, forKey: .rawParseSeconds)
      try container.encode(ratio, forKey: .ratio)
    }
  }

  /// The kinds of HTML page `compareHTMLParsing` reads, each with the brand parser that reads it.
  public enum HTMLPageKind: String, CaseIterable, Sendable, Codable {
    /// Lotte Mart's store list (`shop_search_type.asp`), one page of every store.
    case lotteMartStoreList
    /// Homeplus's store pages (`store_detail`).
    case homeplusStoreDetail
    /// E-mart's store pages (`view.do`), read for No Brand phones.
    case noBrandStorePage

    /// The kind of page `url` is, or `nil` when the comparison does not read it.
    init?(url: String) {
      if url.contains("shop_search_type.asp") {
        self = .lotteMartStoreList
      } else if url.contains("/store/store_detail") {
        self = .homeplusStoreDetail
      } else if url.contains("/branch/view.do") {
        self = .noBrandStorePage
      } else {
        return nil
      }
    }
  }

  /// Parses every HTML page of `archive` with the brand parser that reads it, and with libxml2
  /// alone, `passes` times each (best pass kept). `kinds` limits the comparison to those pages.
  public static func compareHTMLParsing(
    _ archive: ReplayArchive, passes: Int = 5, kinds: Set<HTMLPageKind> = Set(HTMLPageKind.allCases)
  ) -> ParseComparison {
    var pages: [(kind: HTMLPageKind, url: String, body: Data)] = []
    for exchange in archive.exchanges {
      if let kind = HTMLPageKind(url: exchange.url), kinds.contains(kind) {
        pages.append((kind, exchange.url, exchange.body))
      }
    }
    var extracted = 0
    func ours() {
      for page in pages {
        switch page.kind {
        case .lotteMartStoreList:
          extracted += (try? LotteMartSource.parseStoreList(page.body, url: page.url, charset: "UTF-8"))?.count ?? 0
        case .homeplusStoreDetail:
          extracted += (try? HomeplusSource.parseDetail(page.body, url: page.url, charset: "UTF-8")) == nil ? 0 : 1
        case .noBrandStorePage:
          extracted += (try? EmartSource.parseDetailPhone(page.body, url: page.url, charset: "UTF-8")) == nil ? 0 : 1
        }
      }
    }
    let options = Int32(
      HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | HTML_PARSE_IGNORE_ENC.rawValue)
    func raw() {
      for page in pages {
        page.body.withUnsafeBytes { bytes in
          guard let base = bytes.baseAddress, bytes.count > 0,
            let document = htmlReadMemory(
              base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), page.url, "UTF-8", options)
          else { return }
          extracted += 1
          xmlFreeDoc(document)
        }
      }
    }
    ours()
    raw()
    var best = (ours: Double.infinity, raw: Double.infinity)
    for _ in 0..<passes {
      best.raw = min(best.raw, wallSeconds(raw))
      best.ours = min(best.ours, wallSeconds(ours))
    }
    return ParseComparison(
      pages: pages.count, bytes: pages.reduce(0) { $0 + $1.body.count }, parseAndExtractSeconds: best.ours,
      rawParseSeconds: best.raw)
  }

  /// A rate: items and bytes per second.
  public struct Rate: Sendable {
    public var items: Int
    public var bytes: Int
    public var seconds: Double
    public var itemsPerSecond: Double { Double(items) / seconds }
    public var megabytesPerSecond: Double { Double(bytes) / seconds / 1e6 }
  }

  /// Closing texts as the brands publish them: the generator's wordings for every brand.
  public static func closingTexts(seed: UInt64 = 7, count: Int = 2_000) -> [String] {
    let generator = SourceDataGenerator(mix: .national(total: count), seed: seed)
    var texts: [String] = []
    for (_, exchange) in generator.exchanges() {
      let body = String(decoding: exchange.body, as: UTF8.self)
      if exchange.url.contains("shop_search_type.asp") {
        texts += fragments(of: body, between: "<span class=\"day-off\">", and: "</span>").map(strippingTags)
      } else if exchange.url.contains("/store/store_detail") {
        texts += fragments(of: body, between: "<dt>휴점일</dt><dd>", and: "</dd>")
      } else if exchange.url.contains("holidayList.do") {
        texts += fragments(of: body, between: "\"HOLIDAY_DAY1_YMD\": \"", and: "\"")
      } else if exchange.url.contains("costco") {
        texts += fragments(of: body, between: "\\u003Cspan style=\\u0027color:red;\\u0027\\u003E", and: "\\u003C")
          .map { $0 + " *휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)" }
      }
    }
    return texts.filter { !$0.isEmpty }
  }

  /// Addresses as the brands publish them (road, lot-number and short-province forms).
  public static func addresses(seed: UInt64 = 11, count: Int = 5_000) -> [String] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { index in
      let place = PlaceSample.random(using: &random)
      switch index % 3 {
      case 0: return place.roadAddress
      case 1: return place.lotAddress
      default: return place.shortRoadAddress
      }
    }
  }

  /// Parses every closing text (and expands it over three months), best of `passes`.
  public static func closingTextRate(_ texts: [String], asOf: CalendarDate, passes: Int = 3) -> Rate {
    let through = asOf.firstOfMonth(addingMonths: 3).adding(days: -1)
    return rate(of: texts, passes: passes, nothingRead: "closing texts gave no dates") { text in
      // Closed days only: what a text's dates cover does not change them.
      ClosingSchedule.parse(text, asOf: asOf, coverage: .wholeMonths).closedDates(from: asOf.firstOfMonth(), through: through).count
    }
  }

  /// Normalizes every address, best of `passes`.
  public static func addressRate(_ addresses: [String], passes: Int = 3) -> Rate {
    rate(of: addresses, passes: passes, nothingRead: "no address was understood") { address in
      KoreanAddress(parsing: address).province == nil ? 0 : 1
    }
  }

  /// Reads every text with `read`, best of `passes`. What `read` returns is summed so the work
  /// cannot be left out; a sum of zero means nothing was read, a broken measurement.
  private static func rate(
    of texts: [String], passes: Int, nothingRead: String, _ read: (String) -> Int
  ) -> Rate {
    var checksum = 0
    var best = Double.infinity
    for _ in 0..<passes {
      best = min(best, wallSeconds { for text in texts { checksum &+= read(text) } })
    }
    precondition(checksum != 0, nothingRead)
    return Rate(items: texts.count, bytes: texts.reduce(0) { $0 + $1.utf8.count }, seconds: best)
  }

  private static func strippingTags(_ html: String) -> String {
    var text = ""
    var inTag = false
    for character in html {
      if character == "<" {
        inTag = true
      } else if character == ">" {
        inTag = false
      } else if !inTag {
        text.append(character)
      }
    }
    return text.trimmingCharacters(in: .whitespaces)
  }

  private static func fragments(of text: String, between start: String, and end: String) -> [String] {
    var result: [String] = []
    var rest = text[...]
    while let open = rest.range(of: start) {
      rest = rest[open.upperBound...]
      guard let close = rest.range(of: end) else { break }
      result.append(String(rest[..<close.lowerBound]).trimmingCharacters(in: .whitespaces))
      rest = rest[close.upperBound...]
    }
    return result
  }
}
