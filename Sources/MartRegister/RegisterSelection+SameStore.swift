import MartCore

extension RegisterSelector {
  /// One entry per physical store: stores with the same name token and the same brand whose road
  /// addresses are one (as the normalizer writes them) or that lie within
  /// ``sameStoreDistance`` are one store, kept as the row modified last (a closed predecessor,
  /// a renamed operator: 신세계 이마트 청계천점 and 주식회사 이마트 청계천점). Returns the stores kept
  /// and how many were folded into them.
  static func collapsingRowsOfOneStore(_ stores: [RegisterStore]) -> (kept: [RegisterStore], collapsed: Int) {
    struct GroupKey: Hashable {
      var token: String
      var owner: StoreNameCatalog.Owner?
    }
    let groups = Dictionary(grouping: stores.indices) {
      GroupKey(token: nameToken(stores[$0].name), owner: stores[$0].owner)
    }
    let roadKeys = stores.map { $0.roadAddress.flatMap(roadKey) }
    var parent = Array(stores.indices)
    func root(_ index: Int) -> Int {
      var index = index
      while parent[index] != index {
        parent[index] = parent[parent[index]]
        index = parent[index]
      }
      return index
    }
    for members in groups.values where members.count > 1 {
      for (position, first) in members.enumerated() {
        for second in members[(position + 1)...] where isOneStore(stores, roadKeys, first, second) {
          parent[root(second)] = root(first)
        }
      }
    }
    var latest: [Int: Int] = [:]
    for index in stores.indices {
      let group = root(index)
      if let current = latest[group] {
        let later = (stores[index].lastModified, stores[index].id) > (stores[current].lastModified, stores[current].id)
        if later { latest[group] = index }
      } else {
        latest[group] = index
      }
    }
    let kept = latest.values.map { stores[$0] }
    return (kept, stores.count - kept.count)
  }

  private static func isOneStore(_ stores: [RegisterStore], _ roadKeys: [String?], _ first: Int, _ second: Int) -> Bool
  {
    if let key = roadKeys[first], key == roadKeys[second] { return true }
    guard let a = stores[first].point, let b = stores[second].point else { return false }
    return a.distance(to: b) <= sameStoreDistance
  }

  /// The last word of a name, the branch's own (`청계천점` of `주식회사 이마트 청계천점`).
  static func nameToken(_ name: String) -> String {
    StoreNameCatalog.key(String(name.split(whereSeparator: \.isWhitespace).last ?? Substring(name)))
  }

  /// A road address as compared: the normalizer's road address (시·도 to building number, `400-0`
  /// and `400` alike), or the text without spaces and the part in parentheses when it cannot
  /// read one.
  static func roadKey(_ address: String) -> String? {
    let parsed = KoreanAddress(parsing: address)
    if let road = parsed.roadAddress, parsed.buildingNumber != nil { return road }
    let base = address.split(separator: "(", maxSplits: 1).first.map(String.init) ?? address
    let key = StoreNameCatalog.key(base)
    return key.isEmpty ? nil : key
  }
}
