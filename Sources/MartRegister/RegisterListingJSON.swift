import Foundation
import MartCore

/// The JSON of `mart-holiday register --format json`:
/// `{"stores": [{"id", "name", "kind", "status", "brand", "sido", "sigungu", "roadAddress",
/// "jibunAddress", "phone", "latitude", "longitude"}], "skipped": {reason: count}}`, keys sorted,
/// absent values as `null`.
public enum RegisterListingJSON {
  public static func text(_ listing: RegisterListing) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(Document(listing)), as: UTF8.self)
  }

  private struct Document: Encodable {
    var stores: [Store]
    var skipped: [String: Int]

    init(_ listing: RegisterListing) {
      stores = listing.stores.map(Store.init)
      skipped = Dictionary(uniqueKeysWithValues: listing.skipped.map { ($0.key.rawValue, $0.value) })
    }
  }

  private struct Store: Encodable {
    let store: RegisterStore

    enum Key: String, CodingKey {
      case id, name, kind, status, brand, sido, sigungu, roadAddress, jibunAddress, phone, latitude, longitude
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(store.id, forKey: .id)
      try container.encode(store.name, forKey: .name)
      try container.encode(store.kind.rawValue, forKey: .kind)
      try container.encode(store.status.rawValue, forKey: .status)
      // Every key is written: what the register does not say is null.
      try container.encode(store.brand?.rawValue, forKey: .brand)
      try container.encode(store.sido, forKey: .sido)
      try container.encode(store.sigungu, forKey: .sigungu)
      try container.encode(store.roadAddress, forKey: .roadAddress)
      try container.encode(store.jibunAddress, forKey: .jibunAddress)
      try container.encode(store.phone, forKey: .phone)
      try container.encode(store.point?.latitude, forKey: .latitude)
      try container.encode(store.point?.longitude, forKey: .longitude)
    }
  }
}
