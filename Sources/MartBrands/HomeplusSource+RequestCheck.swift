import Foundation
import MartCore
import MartFetch
import MartHTML

extension HomeplusSource {
  /// The store page of `branch` at `url`, checked by ``storePageMismatch(_:listed:)``. A page
  /// naming no store (the blank page or the store finder a store that no longer exists leads
  /// to) cannot show whose it is, so it is asked once more on a fresh connection before it is
  /// believed.
  static func storePage(at url: String, of branch: RawBranch, _ session: SourceSession) async throws(SourceError)
    -> HTTPResponse
  {
    try await session.send(
      .get(url), answering: { storePageMismatch($0, listed: branch) },
      unproven: { linkedStoreID(in: $0.body) == nil })
  }

  /// Why `page` is not the store page of `branch`, or nil when it may be. A store page names
  /// its store twice: by name in its title (`h3.name`, `망원점`, without the brand) and by id in
  /// its map link (`/store/store_map?storId=1201`); either naming another store is a mismatch.
  /// A JSON answer (the list's) is a mismatch too. A blank page (a store that no longer exists)
  /// and a page naming neither pass (its reader then says what is wrong).
  ///
  /// The store list (`get_list`) is one request whose rows carry nothing of the request to check;
  /// any other answer of the site is not a JSON list and fails to read.
  static func storePageMismatch(_ page: HTTPResponse, listed branch: RawBranch) -> String? {
    let storeID = branch.id.storeID
    if AnswerChecks.isJSON(page.body) { return "a JSON answer, not the page of store \(storeID)" }
    if let linkedID = linkedStoreID(in: page.body), linkedID != storeID {
      return "the page links the map of store \(linkedID), not \(storeID)"
    }
    guard !isBlank(page.body),
      let document = try? HTMLDocument(data: page.body, url: page.requestURL, charset: page.charset),
      let title = document.firstElement(where: { $0.hasName("h3") && $0.hasClass("name") })
    else { return nil }
    let pageName = strippingBrandPrefix(title.text.trimmingSpaces())
    guard !pageName.isEmpty, !sameName(pageName, branch.name) else { return nil }
    return "the page is of \(pageName), not \(branch.name) (store \(storeID))"
  }

  /// The `storId` of the page's map link (`store_map?storId=`), if it has one.
  static func linkedStoreID(in body: Data) -> String? {
    let marker = Data("store_map?storId=".utf8)
    guard let found = body.range(of: marker) else { return nil }
    let id = body[found.upperBound...].prefix { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    return id.isEmpty ? nil : String(decoding: id, as: UTF8.self)
  }

  /// Whether two store names are the same apart from spaces.
  private static func sameName(_ one: String, _ other: String) -> Bool {
    one.filter { !$0.isWhitespace } == other.filter { !$0.isWhitespace }
  }
}
