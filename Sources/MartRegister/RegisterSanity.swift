/// Whether a freshly fetched register may replace the last good one: a register that lost most
/// of its open stores is a broken export, a frozen mirror or a half-written file, never the
/// country closing its marts overnight.
public enum RegisterSanity {
  /// A new register must hold at least this share of the last good one's open stores (percent).
  public static let minimumSharePercent = 80

  /// Why a register is refused.
  public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    public var openStores: Int
    public var lastGoodOpenStores: Int

    public init(openStores: Int, lastGoodOpenStores: Int) {
      self.openStores = openStores
      self.lastGoodOpenStores = lastGoodOpenStores
    }

    public var description: String {
      "the register lists \(openStores) open stores where the last good one listed \(lastGoodOpenStores) "
        + "(fewer than \(RegisterSanity.minimumSharePercent) %)"
    }
  }

  /// Throws when `listing` holds fewer than ``minimumSharePercent`` % of the open stores
  /// `lastGoodOpenStores` counted; a first register (`nil`) passes when it lists any store.
  public static func check(_ listing: RegisterListing, lastGoodOpenStores: Int?) throws(Refusal) {
    let open = listing.stores.filter { $0.status == .open }.count
    let floor = lastGoodOpenStores.map { ($0 * minimumSharePercent + 99) / 100 } ?? 1
    if open < floor { throw Refusal(openStores: open, lastGoodOpenStores: lastGoodOpenStores ?? 0) }
  }
}
