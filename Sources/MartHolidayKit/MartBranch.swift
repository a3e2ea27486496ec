import Foundation
internal import MartCore

/// A brand: its slug as used in branch ids (`emart`, `homeplus-express`), its Korean name, and
/// whether its stores keep the closing days their district designates.
public struct MartBrand: Hashable, Sendable {
  /// The slug, e.g. `emart`.
  public var slug: String
  /// The name Korean shoppers know, e.g. `이마트`; the slug when the bundle names none.
  public var name: String
  /// Whether the brand's stores are hypermarkets or SSMs that keep the closing days (의무휴업일)
  /// their 시·군·구 designates; `false` for specialty stores (토이저러스, 보틀벙커), which choose
  /// their own. The manifest's `designated`; `true` when a bundle does not say.
  public var isDesignated: Bool
  /// The class of store its branches are for the designation (the manifest's `storeClass`):
  /// `nil` for specialty stores; ``MartStoreClass/hypermarket`` when a bundle made before
  /// classes does not say.
  public var storeClass: MartStoreClass?

  /// A brand from its slug and Korean name.
  public init(slug: String, name: String, isDesignated: Bool = true, storeClass: MartStoreClass? = .hypermarket) {
    self.slug = slug
    self.name = name
    self.isDesignated = isDesignated
    self.storeClass = isDesignated ? storeClass : nil
  }
}

/// A point on the earth in WGS84 degrees.
public struct MartCoordinate: Hashable, Sendable, Codable {
  /// Degrees north.
  public var latitude: Double
  /// Degrees east.
  public var longitude: Double

  /// A point from its latitude and longitude in degrees.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// The great-circle distance to `other` in metres (haversine, mean earth radius 6,371,008.8 m).
  public func distance(to other: MartCoordinate) -> Double {
    // The pipeline's own formula, so the kit and the bundles agree on distances.
    GeoPoint(latitude: latitude, longitude: longitude).distance(
      to: GeoPoint(latitude: other.latitude, longitude: other.longitude))
  }
}

/// A branch's address: as published and, where it could be read, in canonical forms.
public struct MartAddress: Hashable, Sendable {
  /// The address exactly as the brand published it.
  public var published: String?
  /// Canonical road-name address, e.g. `서울특별시 송파구 올림픽로 300`.
  public var road: String?
  /// Canonical lot-number (지번) address.
  public var jibun: String?
  /// The province (시도) by its official name, e.g. `서울특별시`.
  public var sido: String?
  /// The city or district (시군구), e.g. `송파구`.
  public var sigungu: String?

  /// The best one-line address to show: road-name, else lot-number, else as published.
  public var display: String? { road ?? jibun ?? published }
}

/// Daily opening hours read from the published text, 24-hour `HH:MM`.
public struct MartHours: Hashable, Sendable {
  /// Opening time, e.g. `10:00`.
  public var open: String
  /// Closing time, e.g. `23:00`; may be `24:00`, or earlier than `open` when the store closes
  /// after midnight.
  public var close: String
}

/// Whether a branch trades, as its source published it. Check it before closing days.
public struct MartStoreStatus: Hashable, Sendable {
  /// The trading state on the bundle's as-of day.
  public enum State: String, Hashable, Sendable, CaseIterable {
    /// Trading; its closing days say when it is closed.
    case trading
    /// Shut for a while (임시휴업, 리뉴얼), possibly ``MartStoreStatus/until`` a day.
    case temporarilyClosed = "temporarily-closed"
    /// Closed for good (영업종료, 폐점).
    case closed
  }

  /// The state.
  public var state: State
  /// The sentence or cell the state was read from, e.g. `마트 임시휴업`; `nil` when none.
  public var text: String?
  /// The last shut day of a temporary closure, when the source gives one.
  public var until: MartDay?
  /// The day a trading branch closes for good, when announced; it trades until the day before.
  public var closesOn: MartDay?
}

/// What the closing days of a branch are known to be: the bundle's dates for its window and the
/// structured schedule behind them.
public struct MartSchedule: Hashable, Sendable {
  /// Whether the source's closing days were understood.
  public enum Status: String, Hashable, Sendable, CaseIterable {
    /// Closing days are known (at least some).
    case closures
    /// The store says it never closes (연중무휴).
    case openAllYear = "open-all-year"
    /// Nothing was understood: every day is unknown, never open.
    case unknown
  }

  /// The status as the bundle gives it (`closures` for a shut store).
  public var status: Status
  /// The closed days within the bundle's window, sorted, including the days the store is shut.
  public var closingDays: [MartDay]
  /// The days within the window nobody knows about, as maximal ranges in order.
  public var unknownRanges: [ClosedRange<MartDay>]
  /// The last day the schedule speaks of: every later day is unknown. `nil` when the schedule is
  /// a recurring rule without an end, which the kit expands for later days.
  public var knownThrough: MartDay?
  /// The closing-day text as published, or `nil` when the source published dates only.
  public var text: String?
  /// Notes on parts of the text that were not understood, or understood with doubt.
  public var warnings: [String]
  /// The days within the window the branch is expected to close, sorted: its source publishes
  /// none, so they come from its district's other stores (``MartDayStatus/expectedClosed``);
  /// never confirmed closing days. Empty for most branches.
  public var expectedDays: [MartDay] = []
  /// The district (`<sido> <sigungu>`) whose designation ``expectedDays`` come from, or `nil`.
  public var expectedFrom: String?
  /// What ``expectedDays`` rest on (the district's stores, the researched table, or the
  /// store's own standing exception); `nil` when there are none. They stay expected days
  /// whatever it is.
  public var expectedBasis: MartExpectedBasis?
  /// The class of store whose designation gave ``expectedDays``; `nil` when there are none or
  /// the bundle does not say.
  public var expectedStoreClass: MartStoreClass?
}

/// One branch of a bundle, with the answers apps need: is it closed on a day, when does it
/// next close.
///
/// Every answer is honest about what the bundle knows: a day the schedule does not speak of is
/// ``MartDayStatus/unknown``, never ``MartDayStatus/open``.
public struct MartBranch: Hashable, Sendable, Identifiable {
  /// The permanent id, `<brand slug>-<store id>`, e.g. `emart-1059`; safe for favourites.
  public let id: String
  /// The brand.
  public let brand: MartBrand
  /// The class of store it is for its district's designation: its own when the bundle gives
  /// one (a register store, as the register lists it), else its brand's; `nil` for a specialty
  /// store, which keeps days of its own choosing.
  public var storeClass: MartStoreClass? { ownStoreClass ?? brand.storeClass }
  /// The banner the branch trades under when the bundle gives one, e.g. a store format.
  public let banner: String?
  /// The branch name without the brand, e.g. `창원점`.
  public let name: String
  /// The address.
  public let address: MartAddress
  /// Where the branch is, or `nil` when unknown.
  public let coordinate: MartCoordinate?
  /// The phone number in `055-211-1234` form, or `nil`.
  public let phone: String?
  /// The opening hours as published, e.g. `10:00 ~ 23:00`.
  public let openingHours: String?
  /// The opening hours as one daily range, or `nil` when the text is not one.
  public let hours: MartHours?
  /// Whether the branch trades.
  public let storeStatus: MartStoreStatus
  /// The closing days as the bundle gives them.
  public let schedule: MartSchedule
  /// The branch's page on the brand's site, for people to open.
  public let pageURL: URL?
  /// The ids the branch was published under before (newest first), when its source stopped
  /// carrying what its id was made from; ``MartBundle/branch(id:)`` finds the branch by any of
  /// them, so a favourite saved under one still works (store ``id`` in its place).
  public let formerIDs: [String]
  /// The first day the branch's source did not list it, while it is kept with its last data
  /// (for two runs, then removed); `nil` while the source lists it. A branch missing from its
  /// source may have closed: say so beside its closing days.
  public let missingFromSourceSince: MartDay?
  /// The 관리번호 of the national register of large stores' entry the branch is, when the run
  /// that published it matched one; `nil` otherwise.
  public let registerID: String?
  /// Whether the branch is a store the national register of large stores alone lists (a branch
  /// of a register brand such as `nonghyup-hanaro` or `independent-mart`, the bundle's `source`
  /// `register`): its name, address, point and phone are the register's, and it publishes no
  /// closing days: its days are ``MartSchedule/expectedDays`` where its district's pattern is
  /// known, and unknown otherwise, never confirmed.
  public let isFromRegister: Bool
  /// The branch's own store class when the bundle gives one (a register store: 대규모점포 or
  /// 준대규모점포); `nil` when the branch is of its brand's class.
  let ownStoreClass: MartStoreClass?
  /// How current its brand's data is in the bundle (``MartBundle/freshness(ofBrand:)`` for
  /// ``brand``): check it before announcing a closing day.
  public let freshness: MartBrandFreshness

  /// The bundle's expansion state: the core schedule, window and as-of day.
  let core: BranchCore

  /// The name to show: the banner or brand, then the branch name, e.g. `이마트 창원점`.
  public var displayName: String { "\(banner ?? brand.name) \(name)" }

  /// Whether the branch is closed, open, shut or unknown on `day`.
  ///
  /// - ``MartDayStatus/shut`` while the store does not trade: from the bundle's as-of day for a
  ///   store closed (for good or for a while, through ``MartStoreStatus/until``), and from
  ///   ``MartStoreStatus/closesOn`` for a store announced to close.
  /// - Inside the bundle's window: ``MartDayStatus/closed`` for the bundle's closing days,
  ///   ``MartDayStatus/expectedClosed`` for the days a branch without published days is expected
  ///   to close (``MartSchedule/expectedDays``), ``MartDayStatus/unknown`` inside its unknown
  ///   ranges, ``MartDayStatus/open`` otherwise.
  /// - After the window: the schedule expanded with the same rules and lunar table the pipeline
  ///   uses, up to ``MartSchedule/knownThrough`` (unbounded when it is `nil`); unknown after it,
  ///   on the schedule's uncertain days and when the status is unknown.
  /// - Before the window: ``MartDayStatus/unknown``.
  public func status(on day: MartDay) -> MartDayStatus { core.status(on: day.calendarDate) }

  /// The next closing day after `day`, or why none can be promised, looking at most 366 days
  /// ahead.
  ///
  /// "After" is exclusive: the days looked at start the day after `day` (a closing day on `day`
  /// itself is not the answer). They are taken in order with ``status(on:)``:
  /// - ``MartNextClosing/closing(_:)`` for the first ``MartDayStatus/closed`` day;
  /// - ``MartNextClosing/unknownFrom(_:)`` when an ``MartDayStatus/unknown`` or
  ///   ``MartDayStatus/expectedClosed`` day comes first (an expected day is not a promise);
  /// - ``MartNextClosing/noneKnown`` when all 366 days are open or shut.
  ///
  /// Days the store is shut (``MartDayStatus/shut``) are not closing days: they are passed
  /// over, so a store shut for a while answers its first closing day after it reopens, and a
  /// store closed for good answers ``MartNextClosing/noneKnown``. Check ``storeStatus`` first.
  public func nextClosing(after day: MartDay) -> MartNextClosing {
    nextClosing(after: day, horizon: 366)
  }

  /// The first closing day after `day`, or `nil` when an unknown day comes first or none comes
  /// within `horizon` days. Days the store is shut are passed over.
  @available(*, deprecated, message: "use nextClosing(after:)")
  public func nextClosingDay(after day: MartDay, horizon: Int = 366) -> MartDay? {
    guard case .closing(let next) = nextClosing(after: day, horizon: horizon) else { return nil }
    return next
  }

  /// ``nextClosing(after:)`` looking at most `horizon` days ahead.
  func nextClosing(after day: MartDay, horizon: Int) -> MartNextClosing {
    var candidate = day
    for _ in 0..<max(0, horizon) {
      candidate = candidate.adding(days: 1)
      switch status(on: candidate) {
      case .closed: return .closing(candidate)
      case .unknown, .expectedClosed: return .unknownFrom(candidate)
      case .open, .shut: continue
      }
    }
    return .noneKnown
  }

  /// The status of every day from `first` through `last`, in order.
  public func statuses(from first: MartDay, through last: MartDay) -> [(day: MartDay, status: MartDayStatus)] {
    first.days(through: last).map { ($0, status(on: $0)) }
  }

  /// The closing days from `first` through `last` (days whose status is ``MartDayStatus/closed``).
  public func closingDays(from first: MartDay, through last: MartDay) -> [MartDay] {
    first.days(through: last).filter { status(on: $0) == .closed }
  }
}
