import Foundation
import MartCore
import MartFetch

extension HomeplusSource {
  /// The store page of `branch` at `url`, checked by ``storePageMismatch(_:listed:)``. A page
  /// whose title names the listed store proves itself; one that names no store (a
  /// client-rendered shell, the store finder a store that no longer exists leads to, a blank
  /// page) is compared with the run's other answers, and asked again on a fresh connection
  /// only when it repeats another request's answer that came on a reused connection (it may be
  /// that request's leftover, and taking it would cost this store its page).
  static func storePage(
    at url: String, of branch: RawBranch, fresh: Bool = false, _ session: SourceSession
  ) async throws(SourceError) -> HTTPResponse {
    // Each answer's title is read once: the check reads it, and the answer it lets through is
    // proven or not by the same title.
    var lastTitle: String?
    return try await session.send(
      fresh ? HTTPRequest.get(url).onFreshConnection : .get(url),
      answering: { answer in
        lastTitle = titleStoreName(in: answer.body)
        return storePageMismatch(answer, listed: branch, title: lastTitle)
      },
      unproven: { _ in lastTitle.map { !sameName($0, branch.name) } ?? true })
  }

  /// Why `page` is not the store page of `branch`, or nil when it may be: a JSON answer (the
  /// list's), or a page whose `<title>` names another store (`홈플러스 익스프레스 상도점 | 매장안내
  /// | 홈플러스` asked for 망원점). The title is the one part of a store page that names its store
  /// on every page seen; §2.3 of the evidence shows no id on the page (no map link), so none is
  /// required.
  ///
  /// The store list (`get_list`) is one request whose rows carry nothing of the request to check;
  /// any other answer of the site is not a JSON list and fails to read.
  static func storePageMismatch(_ page: HTTPResponse, listed branch: RawBranch) -> String? {
    storePageMismatch(page, listed: branch, title: titleStoreName(in: page.body))
  }

  /// ``storePageMismatch(_:listed:)`` with the store the page's title names already read
  /// (``titleStoreName(in:)``).
  static func storePageMismatch(_ page: HTTPResponse, listed branch: RawBranch, title: String?) -> String? {
    let storeID = branch.id.storeID
    if AnswerChecks.isJSON(page.body) { return "a JSON answer, not the page of store \(storeID)" }
    guard let pageName = title, !sameName(pageName, branch.name) else { return nil }
    return "the page is of \(pageName), not \(branch.name) (store \(storeID))"
  }

  /// The store a page's `<title>` names (`홈플러스 익스프레스 망원점 | 매장안내 | 홈플러스` → `망원점`):
  /// its first part, without the brand, when that is a store's name (it ends in `점`); nil for a
  /// title naming no store (`홈플러스`, `매장안내 | 홈플러스`) and a page without a title.
  static func titleStoreName(in body: Data) -> String? {
    guard let open = body.firstRange(of: "<title"),
      let openEnd = body[open.upperBound...].firstIndex(of: UInt8(ascii: ">")),
      let close = body.firstRange(of: "</title>", from: openEnd)
    else { return nil }
    let title = String(decoding: body[(openEnd + 1)..<close.lowerBound], as: UTF8.self)
    // The first part that is not empty, as `split(separator: "|").first` gives it.
    let first = title.drop { $0 == "|" }.prefix { $0 != "|" }
    guard !first.isEmpty else { return nil }
    let name = strippingBrandPrefix(String(first).trimmingSpacesAndNewlines())
    return name.hasSuffix("점") ? name : nil
  }

  /// Whether two store names are the same apart from spaces.
  static func sameName(_ one: String, _ other: String) -> Bool {
    // A character is whitespace when its first scalar is (`Trimming.isWhitespace`), so a name
    // without such a scalar is the same without its spaces: most names are compared as they
    // are, without walking their characters.
    func hasWhitespace(_ name: String) -> Bool { name.unicodeScalars.contains(where: Trimming.isWhitespace) }
    guard hasWhitespace(one) || hasWhitespace(other) else { return one == other }
    return one.filter { !$0.isWhitespace } == other.filter { !$0.isWhitespace }
  }
}
