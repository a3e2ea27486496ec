import Foundation
import MartCore

/// A branch as schema.org sees it (JSON-LD in the branch's page): a store with its id, name,
/// address, point, phone, daily hours, and one special opening-hours entry per closing day
/// from the as-of day to the end of the window, each closed all day (`opens` = `closes` =
/// `00:00`, schema.org's way of saying closed on a day).
///
/// Only days the source states are marked: an unknown day is not marked (nothing is known of
/// it), and an expected day (`closing.expected`, inferred from the district's other stores)
/// is not marked either: it is not a closure the store announced.
struct StructuredData: Encodable {
  struct Address: Encodable {
    let type = "PostalAddress"
    var streetAddress: String?
    var addressRegion: String?
    var addressLocality: String?
    let addressCountry = "KR"
    enum CodingKeys: String, CodingKey {
      case type = "@type"
      case streetAddress, addressRegion, addressLocality, addressCountry
    }
  }

  struct Geo: Encodable {
    let type = "GeoCoordinates"
    var latitude: Double
    var longitude: Double
    enum CodingKeys: String, CodingKey {
      case type = "@type"
      case latitude, longitude
    }
  }

  struct Hours: Encodable {
    let type = "OpeningHoursSpecification"
    var dayOfWeek: [String]?
    var opens: String
    var closes: String
    var validFrom: String?
    var validThrough: String?
    enum CodingKeys: String, CodingKey {
      case type = "@type"
      case dayOfWeek, opens, closes, validFrom, validThrough
    }

  }

  let context = "https://schema.org"
  var type: String
  var identifier: String
  var name: String
  var url: String?
  var address: Address
  var geo: Geo?
  var telephone: String?
  var openingHoursSpecification: [Hours]
  var specialOpeningHoursSpecification: [Hours]

  enum CodingKeys: String, CodingKey {
    case context = "@context"
    case type = "@type"
    case identifier, name, url, address, geo, telephone, openingHoursSpecification, specialOpeningHoursSpecification
  }

  static let everyDay = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map {
    "https://schema.org/\($0)"
  }

  init(_ days: BranchDays, name: String, url: String?) {
    let branch = days.branch
    type = Self.storeType(branch.brand)
    identifier = branch.id.description
    self.name = name
    self.url = url
    address = Address(
      streetAddress: branch.address.road ?? branch.address.jibun ?? branch.address.published,
      addressRegion: branch.address.sido, addressLocality: branch.address.sigungu)
    geo = branch.coordinate.map { Geo(latitude: $0.latitude, longitude: $0.longitude) }
    telephone = branch.phone
    openingHoursSpecification =
      branch.hours.map { [Hours(dayOfWeek: Self.everyDay, opens: $0.open, closes: $0.close)] } ?? []
    specialOpeningHoursSpecification = days.closingDaysFromAsOf.map {
      Hours(opens: "00:00", closes: "00:00", validFrom: $0.iso, validThrough: $0.iso)
    }
  }

  /// The schema.org type of a brand's stores: toys, liquor, warehouse club, else a grocery.
  static func storeType(_ brand: BrandSlug) -> String {
    switch brand.rawValue {
    case "toysrus": "ToyStore"
    case "bottle-bunker": "LiquorStore"
    default: "GroceryStore"
    }
  }

  /// The `<script type="application/ld+json">` element: compact JSON, keys sorted (equal data,
  /// equal bytes), absent values left out, every `<` written as `\u003c` so that no text of the
  /// data can end the element.
  func scriptElement() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Strings, numbers and arrays of them: encoding cannot fail.
    let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    return "<script type=\"application/ld+json\">"
      + json.replacingOccurrences(of: "<", with: "\\u003c") + "</script>"
  }
}
