/// A point on the earth as a source published it, before validation.
public struct GeoPoint: Hashable, Sendable, Codable {
  public var latitude: Double
  public var longitude: Double
  /// The fewer of the two values' digits after the decimal point as published (`35.123` → 3),
  /// which bounds how precisely the point can place the store; `nil` when unknown.
  public var fractionDigits: Int?

  public init(latitude: Double, longitude: Double, fractionDigits: Int? = nil) {
    self.latitude = latitude
    self.longitude = longitude
    self.fractionDigits = fractionDigits
  }
}

/// One branch exactly as a brand source published it: the output of a brand parser and the
/// input of normalization. Fields hold the source's text, trimmed but otherwise untouched.
public struct RawBranch: Hashable, Sendable {
  /// The permanent id, `<brand>-<store id>`.
  public var id: BranchID
  /// The branch name without the brand prefix, e.g. `창원점`.
  public var name: String
  /// The name exactly as the source published it, when that differs from `name` by more than
  /// the brand (a format code such as 롯데슈퍼's `E다산역점`); `nil` otherwise.
  public var publishedName: String?
  /// The store format the source names when it differs from the brand (`스타필드 마켓`,
  /// `홈플러스 스페셜`), so a client can show "홈플러스 스페셜 광주하남점"; `nil` otherwise.
  public var banner: String?
  /// The address as published (road-name form when the source has one).
  public var address: String?
  /// A second, lot-number (지번) address when the source publishes one separately.
  public var lotAddress: String?
  /// The phone number as published.
  public var phone: String?
  /// Opening hours as published, e.g. `10:00 ~ 23:00`.
  public var openingHours: String?
  /// Coordinates as the source gave them, if any (not yet validated).
  public var coordinate: GeoPoint?
  /// The closing-day text as published, e.g. `매월 둘째, 넷째주 일요일 (11/8, 11/22)`. `nil` when
  /// the source publishes no closing-day text.
  public var closingText: String?
  /// Closing dates the source publishes as data (not text), e.g. E-mart's YYYYMMDD slots. Empty when none.
  public var closingDates: [CalendarDate]
  /// What the source's published closing dates (`closingDates`) speak of; the pipeline sets it
  /// from `BrandSource.closingDateCoverage`.
  public var closingCoverage: DateCoverage = .wholeMonths
  /// What the explicit dates of `closingText` speak of when the text does not say (a bare list
  /// such as `9/27(일), 10/11(일)` is the next closing days, not whole months); the pipeline sets
  /// it from `BrandSource.closingTextCoverage`.
  public var closingTextCoverage: DateCoverage = .asOfThroughLastListed
  /// What the source publishes about the store trading, when it has a field of its own for
  /// it: a state cell (Lotte Mart's `영업중`, `임시휴업`, `영업종료`) or a shut-down date (GS THE
  /// FRESH's `shutDownDate`, e.g. `20250831`, the day the store closes for good). `nil` when the
  /// source has no such field or left it blank. Sources that say it only in their hours or
  /// closing-day text (Homeplus) leave those as published; the normalizer reads all three.
  public var statusText: String?
  /// The URL this run read the record from: the list or feed, or the branch's own page when
  /// that was read and used; never a page that answered an error.
  public var sourceURL: String
  /// The branch's own page on the brand's site, for people to open, when the source gives or
  /// documents one; `nil` otherwise.
  public var pageURL: String?

  public init(
    id: BranchID, name: String, publishedName: String? = nil, banner: String? = nil, address: String? = nil,
    lotAddress: String? = nil,
    phone: String? = nil, openingHours: String? = nil, coordinate: GeoPoint? = nil,
    closingText: String? = nil, closingDates: [CalendarDate] = [], statusText: String? = nil,
    sourceURL: String, pageURL: String? = nil
  ) {
    self.id = id
    self.name = name
    self.publishedName = publishedName
    self.banner = banner
    self.address = address
    self.lotAddress = lotAddress
    self.phone = phone
    self.openingHours = openingHours
    self.coordinate = coordinate
    self.closingText = closingText
    self.closingDates = closingDates
    self.statusText = statusText
    self.sourceURL = sourceURL
    self.pageURL = pageURL
  }
}
