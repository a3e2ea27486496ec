/// The class of store a closing-day designation (의무휴업일) binds: a 시·군·구 designates its
/// 대규모점포 and its 준대규모점포 apart, and the two may close on different days.
public enum MartStoreClass: String, Hashable, Sendable, CaseIterable, Codable {
  /// A 대규모점포 that is a hypermarket (대형마트), and the formats trading inside one.
  case hypermarket
  /// A 준대규모점포: a supermarket of a large retailer (SSM: 이마트 에브리데이, 홈플러스 익스프레스,
  /// 롯데슈퍼, GS더프레시, 노브랜드).
  case ssm
}

/// What a branch's expected closing days (``MartSchedule/expectedDays``) rest on. Whichever it
/// is, the days stay expected, never confirmed (``MartDayStatus/expectedClosed``).
public enum MartExpectedBasis: String, Hashable, Sendable, CaseIterable, Codable {
  /// Its class's pattern in its district, as the district's stores that publish their days
  /// established it (`learned`; `district` in bundles made before `cited` existed).
  case learned
  /// Its class's designation in its district as the project's researched table cites it (a
  /// news report or 시·군·구 notice), which no stores have established yet.
  case cited
  /// The days the store kept on its own, as a standing exception, while it published them.
  case storeException = "store-exception"

  /// The basis a bundle names, or `nil` for one the kit does not know.
  init?(bundleValue: String) {
    if bundleValue == "district" {
      self = .learned
    } else {
      self.init(rawValue: bundleValue)
    }
  }
}
