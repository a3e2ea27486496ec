/// Infers each district's closing days (의무휴업일) from the stores in it that publish theirs, and
/// flags the stores that break them. Pure: a function of the branches and the window.
///
/// Korea designates the closing days of hypermarkets and SSMs per 시·군·구 (유통산업발전법 §12-2,
/// read 2026-11), and no public list of the designations exists (brand-sources.md §9.6), so the
/// stores are the evidence:
///
/// 1. **Stores**: per ``District``, the trading branches of brands subject to the designation
///    (not in `exempt`) whose closing status is `closures` and whose source speaks of at least one
///    day of the window (open-all-year and unknown ones are left out). Only the days a store's
///    source speaks of count (its `unknownRanges` are not evidence either way). A store of an
///    exempt brand (a specialty store such as 토이저러스) keeps days of its own choosing: it is
///    neither evidence nor a mismatch. Callers put stale brands (kept from an earlier bundle
///    because this run failed for them) in `exempt` too: only what the sources say now counts.
///    세종특별자치시 has no 시·군·구 and is one district.
/// 2. **A store's own pattern**: the days it closes on in more than half of the months where it
///    speaks of that day, each read both as an nth weekday (2nd Wednesday) and as a day of the
///    month (the 10th), so that 안산 (the 10th and the 4th Sunday) and 충주 (the 10th and the 25th)
///    are patterns as much as 제주's 2nd Friday and 4th Saturday.
/// 3. **Following a pattern**, month by month: a pattern day the store opens is a break unless it
///    is a **swap** (the store closed another day of the same month instead, and one of the two
///    days is a public holiday: a 설 or 추석 move) or the pattern day is itself a public holiday
///    (opened on the holiday); a closed day outside the pattern is a break unless it is a public
///    holiday (a store also closed on 1/1, 설 or 추석 keeps its pattern).
/// 4. **The district's pattern** is the store pattern most stores follow, kept when at least
///    ``minimumAgreeing`` stores from at least ``minimumSources`` independent sources
///    (`sources`: E-mart's four brands are one source, not four) follow it and they are
///    more than ``minimumSharePercent`` % of the district's stores. A majority, not more: a store
///    keeping a day of its own (a warehouse closing on Sundays in a district of Wednesdays, a
///    store with a standing exception) does not erase the pattern of the others. The stores of
///    the district that do not follow it are ``DistrictInference/mismatches``.
public enum DistrictDesignations {
  /// Stores that must follow a pattern.
  public static let minimumAgreeing = 2
  /// Independent sources those stores must come from (the `sources` given to
  /// ``infer(from:window:exempt:storeClasses:sources:asOf:memory:reference:)``).
  public static let minimumSources = 2
  /// The share of the district's stores the followers must exceed, in percent.
  public static let minimumSharePercent = 50

  /// Calendar months a store keeps days of its own before it is a standing exception.
  public static let exceptionAfterMonths = 2

  /// The designations the branches support, per district and store class, and the stores that
  /// break them. `exempt` are the brands not subject to the designation: their branches are left
  /// out, and given no expected days. `storeClasses` gives each designated brand's class (a brand
  /// it does not name is a hypermarket, so that without it there is one pattern per district).
  /// `sources` gives the independent source each brand's closing days come from (the brands say
  /// which: their site's host, `KnownBrands.independentSources`): brands one site publishes
  /// together are one source, whose agreement with itself is no confirmation. A brand it does
  /// not name is a source of its own.
  ///
  /// `memory` is what earlier runs of the same output learned (empty for one without history):
  /// a designation no fresh store confirms now is kept as it was, with the day it was last
  /// confirmed; only stores that qualify as above agreeing on another pattern replace it (a
  /// ``DistrictInference/changes`` entry). `asOf` is the run's as-of date (by default the
  /// window's first day).
  ///
  /// `reference` is the researched table (`data/designations.json`): where the branches include
  /// a trading store of a class in a district that `memory` gives no learned designation, the
  /// table's entry for it is the designation (``DesignationBasis/cited``; one `memory` cited
  /// follows the table as it is now, and is kept where the run has no such store), with
  /// the stores that follow it as its evidence. Stores that qualify as above replace it (a
  /// ``DistrictInference/changes`` entry, and a contradiction of the table); stores that break
  /// it are mismatches, the table's source named, unless the table names the store as keeping
  /// those days of its own (``DesignationReference/namesException(_:key:pattern:)``).
  public static func infer(
    from branches: [Branch], window: DateWindow, exempt: Set<BrandSlug>, storeClasses: [BrandSlug: StoreClass] = [:],
    sources: [BrandSlug: String] = [:], asOf: CalendarDate? = nil, memory: DesignationMemory = DesignationMemory(),
    reference: DesignationReference? = nil
  ) -> DistrictInference {
    let asOf = asOf ?? window.from
    var byKey: [DesignationKey: [StoreDays]] = [:]
    var remembered = memory.designations
    for branch in branches where !exempt.contains(branch.brand) {
      guard let district = District(branch.address) else { continue }
      let key = DesignationKey(district: district, storeClass: storeClasses[branch.brand] ?? .hypermarket)
      if let reference, branch.storeStatus.isTrading, remembered[key]?.basis != .learned,
        let seed = reference.seed(for: key)
      {
        // The table as it is now: a cited designation remembered from it follows its changes.
        if var cited = remembered[key], cited.pattern == seed.pattern {
          cited.citation = seed.citation
          remembered[key] = cited
        } else {
          remembered[key] = seed
        }
      }
      guard let store = StoreDays(branch, window: window) else { continue }
      byKey[key, default: []].append(store)
    }
    var result = DistrictInference(
      districts: [], mismatches: [], expectedDates: [:], exempt: exempt, storeClasses: storeClasses, asOf: asOf)
    result.memory.exceptions = memory.exceptions
    result.window = window
    for key in Set(byKey.keys).union(remembered.keys).sorted() {
      let stores = (byKey[key] ?? []).sorted { $0.id < $1.id }
      let remembered = remembered[key]
      var designation: RememberedDesignation
      let followers: [Following]
      if let found = bestPattern(stores, window: window), qualifies(found.followers, among: stores, sources: sources) {
        followers = found.followers
        let evidence = followers.map(\.store.id)
        if let remembered, remembered.pattern != found.pattern {
          result.changes.append(DesignationChange(key: key, old: remembered, new: found.pattern, evidence: evidence))
        }
        let kept = remembered?.pattern == found.pattern ? remembered?.firstConfirmed : nil
        designation = RememberedDesignation(
          pattern: found.pattern, firstConfirmed: kept ?? asOf, lastConfirmed: asOf, evidence: evidence)
      } else if let remembered {
        // No fresh evidence either way (a stale brand, a split district): the ordinance stands.
        designation = remembered
        followers = stores.compactMap { $0.follows(remembered.pattern, window: window) }
        // A cited designation's evidence is the stores that follow it now.
        if remembered.citation != nil { designation.evidence = followers.map(\.store.id) }
      } else {
        continue
      }
      var swaps: [Following.Swap: [BranchID]] = [:]
      for follower in followers {
        for swap in follower.swaps { swaps[swap, default: []].append(follower.store.id) }
      }
      var districtSwaps = swaps.keys.map {
        DistrictSwap(date: $0.date, ids: swaps[$0]!.sorted(), replaces: $0.replaces)
      }
      // A swap earlier runs saw stands for a pattern day no store following it now speaks of
      // (the stores that made it are stale or silent).
      if let remembered, remembered.pattern == designation.pattern {
        for swap in remembered.swaps {
          guard let replaced = swap.replaces, window.contains(replaced),
            !followers.contains(where: { $0.store.speaks(of: replaced) }),
            !districtSwaps.contains(where: { $0.replaces == replaced })
          else { continue }
          districtSwaps.append(swap)
        }
      }
      districtSwaps.sort { ($0.date, $0.replaces ?? $0.date) < ($1.date, $1.replaces ?? $1.date) }
      designation.swaps = districtSwaps
      result.memory.designations[key] = designation
      let pattern = DistrictPattern(
        district: key.district, pattern: designation.pattern, evidence: designation.evidence, stores: stores.count,
        swaps: districtSwaps, storeClass: key.storeClass,
        firstConfirmed: designation.firstConfirmed, lastConfirmed: designation.lastConfirmed,
        citation: designation.citation)
      result.expectedDates[key] = expectedDates(pattern, followers: followers, window: window)
      let following = Set(followers.map(\.store.id))
      var exceptions: [StoreException] = []
      for store in stores {
        if following.contains(store.id) {
          result.memory.exceptions[store.id] = nil
          continue
        }
        let own = store.ownPattern(window: window)
        if !own.isEmpty {
          let earlier = memory.exceptions[store.id]
          let exception = StoreException(
            branch: store.id, key: key, pattern: own,
            since: earlier.map { $0.key == key && $0.pattern == own ? $0.since : asOf } ?? asOf)
          result.memory.exceptions[store.id] = exception
          if exception.isStanding(asOf: asOf) {
            exceptions.append(exception)
            continue
          }
          // A store the researched table names as keeping these days is no news either.
          if reference?.namesException(store.id, key: key, pattern: own) == true { continue }
        } else {
          result.memory.exceptions[store.id] = nil
        }
        let patternDays = Set(pattern.patternDates(in: window))
        let knownOpen = patternDays.subtracting(store.closed).filter { day in
          !store.unknown.contains { $0.contains(day) }
        }
        result.mismatches.append(
          DesignationMismatch(
            branch: store.id, dates: store.closed.sorted(), district: pattern,
            closedOffPattern: store.closed.subtracting(patternDays).sorted(), openOnPatternDays: knownOpen.sorted()))
      }
      var withExceptions = pattern
      withExceptions.exceptions = exceptions
      result.districts.append(withExceptions)
    }
    return result
  }

  /// Whether `followers` may claim a pattern for `stores`: at least ``minimumAgreeing`` stores
  /// from ``minimumSources`` independent sources (a brand's in `sources`, else the brand itself),
  /// more than ``minimumSharePercent`` % of them.
  private static func qualifies(
    _ followers: [Following], among stores: [StoreDays], sources: [BrandSlug: String]
  ) -> Bool {
    guard followers.count >= minimumAgreeing, followers.count * 100 > stores.count * minimumSharePercent else {
      return false
    }
    // The followers' sources until there are enough, in a list: a district has few brands.
    var distinct: [String] = []
    for follower in followers {
      let brand = follower.store.id.brand
      let source = sources[brand] ?? brand.rawValue
      if !distinct.contains(source) { distinct.append(source) }
      if distinct.count >= minimumSources { return true }
    }
    return false
  }

  /// The store pattern most stores follow (ties: fewer days, then the earlier days), with its
  /// followers; `nil` when no store has a pattern.
  private static func bestPattern(_ stores: [StoreDays], window: DateWindow)
    -> (pattern: [DesignatedDay], followers: [Following])?
  {
    // Stores with the same days follow a pattern the same way (a district's stores of one chain
    // often have exactly the same days): each kind of store is worked out once.
    var kinds: [StoreDays.Days: Int] = [:]
    var representatives: [StoreDays] = []
    let kindOfStore = stores.map { store in
      let days = store.days
      if let kind = kinds[days] { return kind }
      kinds[days] = representatives.count
      representatives.append(store)
      return representatives.count - 1
    }
    let candidates = Set(representatives.map { $0.ownPattern(window: window) }).filter { !$0.isEmpty }
    var best: (pattern: [DesignatedDay], followers: [Following])?
    for candidate in candidates {
      let swapsOfKind = representatives.map { $0.follows(candidate, window: window)?.swaps }
      let followers = zip(stores, kindOfStore).compactMap { store, kind in
        swapsOfKind[kind].map { Following(store: store, swaps: $0) }
      }
      guard let current = best else {
        best = (candidate, followers)
        continue
      }
      if followers.count != current.followers.count {
        if followers.count > current.followers.count { best = (candidate, followers) }
      } else if candidate.count != current.pattern.count {
        if candidate.count < current.pattern.count { best = (candidate, followers) }
      } else if candidate.lexicographicallyPrecedes(current.pattern) {
        best = (candidate, followers)
      }
    }
    return best
  }

  /// The pattern's days in the window, each replaced by a swap day when every follower that
  /// speaks of it closed that same other day instead.
  private static func expectedDates(_ pattern: DistrictPattern, followers: [Following], window: DateWindow)
    -> [CalendarDate]
  {
    var dates = pattern.patternDates(in: window).map { day -> CalendarDate in
      // What the followers that speak of the day closed instead (`nil`: the day itself), when
      // they all agree; `.none` when none speaks of it.
      var agreed: CalendarDate??
      for following in followers where following.store.speaks(of: day) {
        let replacement = following.swaps.first { $0.replaces == day }?.date
        if agreed == nil {
          agreed = replacement
        } else if agreed! != replacement {
          return day
        }
      }
      guard let agreed else { return pattern.swaps.first { $0.replaces == day }?.date ?? day }
      return agreed ?? day
    }
    dates.sortOnceEach()
    return dates
  }

  static func isPublicHoliday(_ date: CalendarDate) -> Bool { KoreanPublicHolidays.holiday(on: date) != nil }
}

/// A store's confirmed days within the window, as the inference reads them.
struct StoreDays {
  let id: BranchID
  /// Closed days within the window.
  let closed: Set<CalendarDate>
  /// The days of the window its source says nothing about.
  let unknown: [DateWindow]

  init?(_ branch: Branch, window: DateWindow) {
    guard branch.storeStatus.isTrading, branch.closing.status == .closures else { return nil }
    let unknown = branch.closing.unknownRanges
    let unknownDays = unknown.reduce(0) { $0 + max(0, $1.through.dayNumber - $1.from.dayNumber + 1) }
    guard unknownDays < window.through.dayNumber - window.from.dayNumber + 1 else { return nil }
    self.id = branch.id
    // A store announced to close for good (GS THE FRESH 세종도담점 from 2026-12-15) is bound by no
    // designation from that day on: its shut days say nothing of the district's days.
    var closesOn = ShutDays.closingForGoodDay(of: branch.storeStatus)
    if let day = closesOn, !window.contains(day) { closesOn = nil }
    // Inserted one by one: no filtered array in between.
    var closed = Set<CalendarDate>(minimumCapacity: branch.closing.dates.count)
    for date in branch.closing.dates where window.contains(date) && closesOn.map({ date < $0 }) ?? true {
      closed.insert(date)
    }
    self.closed = closed
    if let closesOn {
      self.unknown = unknown + [DateWindow(from: closesOn, through: window.through)]
    } else {
      self.unknown = unknown
    }
  }

  func speaks(of day: CalendarDate) -> Bool { !unknown.contains { $0.contains(day) } }

  /// What the inference reads of a store, its id aside: its closed days sorted, which hash in
  /// one pass where a set hashes each of its members apart.
  struct Days: Hashable {
    let closed: [CalendarDate]
    let unknown: [DateWindow]
  }

  var days: Days { Days(closed: closed.sorted(), unknown: unknown) }

  /// The days it closes on in more than half of the months where it speaks of them, each as an
  /// nth weekday and as a day of the month, sorted.
  func ownPattern(window: DateWindow) -> [DesignatedDay] {
    var candidates = Set<DesignatedDay>(minimumCapacity: closed.count * 2)
    for date in closed {
      candidates.insert(DesignatedDay(of: date))
      candidates.insert(DesignatedDay(dayOfMonth: date.day))
    }
    let months = window.months
    return candidates.lazy.filter { day in
      var spoken = 0
      var kept = 0
      for month in months {
        guard let date = day.date(inMonthStarting: month), window.contains(date), speaks(of: date) else { continue }
        spoken += 1
        if closed.contains(date) { kept += 1 }
      }
      // A day of the month kept in one month alone is an nth weekday's date as much as a
      // designation of its own: it takes two months to tell.
      return kept * 2 > spoken && (day.dayOfMonth == nil || spoken >= 2)
    }.sorted()
  }

  /// How it follows `pattern` (its swaps), or `nil` when it breaks it.
  func follows(_ pattern: [DesignatedDay], window: DateWindow) -> Following? {
    var swaps: [Following.Swap] = []
    for month in window.months {
      // A pattern's few days of the month, sorted, in an array rather than a set.
      var patternDays: [CalendarDate] = []
      for day in pattern {
        if let date = day.date(inMonthStarting: month), window.contains(date), speaks(of: date) {
          patternDays.append(date)
        }
      }
      patternDays.sortOnceEach()
      let next = month.firstOfMonth(addingMonths: 1)
      var extra = closed.lazy.filter { $0 >= month && $0 < next && !patternDays.contains($0) }.sorted()
      for day in patternDays where !closed.contains(day) {
        // The nearest other closed day of the month, when the move concerns a public holiday.
        let candidates = extra.indices.filter {
          DistrictDesignations.isPublicHoliday(day) || DistrictDesignations.isPublicHoliday(extra[$0])
        }
        if let index = candidates.min(by: {
          abs(extra[$0].dayNumber - day.dayNumber) < abs(extra[$1].dayNumber - day.dayNumber)
        }) {
          swaps.append(Following.Swap(date: extra[index], replaces: day))
          extra.remove(at: index)
        } else if !DistrictDesignations.isPublicHoliday(day) {
          return nil
        }
      }
      if extra.contains(where: { !DistrictDesignations.isPublicHoliday($0) }) { return nil }
    }
    return Following(store: self, swaps: swaps)
  }
}

/// A store that follows a pattern, and the days it closed instead of pattern days.
struct Following {
  struct Swap: Hashable {
    var date: CalendarDate
    var replaces: CalendarDate
  }

  let store: StoreDays
  let swaps: [Swap]
}
