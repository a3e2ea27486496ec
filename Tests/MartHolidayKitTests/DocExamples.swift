// swift-format-ignore-file
// (swift-format leaves this file alone: the blocks below must stay docs/client-kit.md's, byte for byte.)
// The `swift` blocks of docs/client-kit.md, compiled with the tests. Each block sits byte for
// byte between its `// docs/client-kit.md block N` and `// end of block N` lines, which
// DocExamplesTests compares with the page; the code around them gives each block what the page's
// prose gives it. Block 1, an excerpt of an app's Package.swift, is not compiled (the test checks
// its names instead). After changing a block on the page, paste it here, and the other way round.

import Foundation

// docs/client-kit.md block 2
import MartHolidayKit

let client = MartBundleClient(baseURL: URL(string: "https://data.example.com/mart-holiday/")!)

func currentBundle() async -> MartBundle? {
  do {
    return try await client.latest()
  } catch {
    // Offline, or the server holds a damaged bundle: the last good one still answers.
    return await client.lastGoodBundle()
  }
}
// end of block 2

/// Step 3 and the questions after it, which read `bundle`, `branch` and `today` from step 3.
func monthAndOtherQuestions() async {
// docs/client-kit.md block 3
guard let bundle = await currentBundle(), let branch = bundle.branch(id: "emart-1059") else { return }
let today = MartDay.today()                                   // today in Korea
if branch.storeStatus.state != .trading {
  print("\(branch.displayName): \(branch.storeStatus.text ?? "영업 중단")")
} else {
  for (day, status) in branch.statuses(from: today.firstOfMonth, through: today.lastOfMonth) {
    switch status {
    case .closed: print("\(day) 휴무")
    case .unknown: print("\(day) 정보 없음")                   // never "open"
    case .expectedClosed: print("\(day) 휴무 예상 (미확인)")      // from the district: never certain
    case .shut: print("\(day) 영업 중단")
    case .open: break
    }
  }
}
// end of block 3
// docs/client-kit.md block 4
let next = branch.nextClosing(after: today)                   // .closing(day), .unknownFrom(day), .noneKnown
let here = MartCoordinate(latitude: 37.5, longitude: 127.0)
let nearestFive = bundle.nearest(to: here, count: 5)          // nearest first, ties by id
let near = bundle.branches(near: here, withinMeters: 5_000)   // nearest first
let found = bundle.search("잠실")                              // name, brand, region
let closedTomorrow = bundle.branchesClosed(on: today.adding(days: 1))
let emart = bundle.freshness(ofBrand: "emart")                // .fresh, .stale(lastGood:), .missing
// end of block 4
  _ = (next, nearestFive, near, found, closedTomorrow, emart)
}

// docs/client-kit.md block 5
/// What to tell someone about `branch` tomorrow, and how far the data behind it can be trusted.
func tomorrowNotice(for branch: MartBranch, in bundle: MartBundle, today: MartDay) -> String {
  let tomorrow = today.adding(days: 1)
  let answer: String
  switch branch.status(on: tomorrow) {
  case .closed: answer = "내일(\(tomorrow.month)/\(tomorrow.day))은 \(branch.displayName) 휴무일입니다."
  case .open: answer = "내일은 \(branch.displayName) 영업일입니다."
  case .shut: answer = "\(branch.displayName): \(branch.storeStatus.text ?? "영업 중단")"
  case .unknown: answer = "내일 \(branch.displayName)의 휴무 여부는 알 수 없습니다."
  case .expectedClosed: answer = "내일 \(branch.displayName)은 휴무로 예상되지만 확인되지 않았습니다."
  }
  switch branch.freshness {
  case .fresh where bundle.asOf.days(to: today) <= 2:
    return answer
  case .fresh:
    return "\(answer) (\(bundle.asOf) 기준 정보)"
  case .stale(let lastGood):
    return "\(answer) (\(lastGood.map(\.iso) ?? "이전") 기준 정보이니 매장에 확인하세요)"
  case .missing:
    return "\(branch.displayName)의 휴무 정보를 지금은 받을 수 없습니다."
  }
}
// end of block 5

#if canImport(UserNotifications)
// docs/client-kit.md block 6
import UserNotifications

func scheduleReminders(for branch: MartBranch, from today: MartDay) async throws {
  let center = UNUserNotificationCenter.current()
  guard try await center.requestAuthorization(options: [.alert, .sound]) else { return }
  for day in branch.closingDays(from: today.adding(days: 1), through: today.adding(days: 60)) {
    let evening = day.adding(days: -1).date(hour: 20)         // 20:00 in Asia/Seoul
    guard evening > Date() else { continue }
    let content = UNMutableNotificationContent()
    content.title = "내일은 \(branch.displayName) 휴무일"
    content.body = "\(day.month)월 \(day.day)일은 쉬는 날입니다."
    let moment = Calendar(identifier: .gregorian).dateComponents(in: MartDay.koreaTimeZone, from: evening)
    let trigger = UNCalendarNotificationTrigger(dateMatching: moment, repeats: false)
    try await center.add(
      UNNotificationRequest(identifier: "\(branch.id)-\(day)", content: content, trigger: trigger))
  }
}
// end of block 6
#endif

// docs/client-kit.md block 7
/// A saved favourite as a line of a list: the branch, or why it is not there.
func favouriteLine(id: String, in bundle: MartBundle) -> String {
  switch bundle.lookup(id: id) {
  case .listed(let branch): return branch.displayName
  case .removed(let lastListed?): return "\(id): 목록에서 사라진 매장 (\(lastListed) 마지막 확인)"
  case .removed(nil): return "\(id): 목록에서 사라진 매장"
  case .unknown: return "\(id): 알 수 없는 매장"
  }
}
// end of block 7

// docs/client-kit.md block 8
/// A branch's month, how fresh its data is and its next closing day, in the app's language.
func branchCard(id: String, in bundle: MartBundle, today: MartDay, language: MartLanguage = .korean) -> [String] {
  guard case .listed(let branch) = bundle.lookup(id: id) else {
    return [language == .korean ? "\(id): 목록에 없는 매장" : "\(id): not listed"]
  }
  var lines = ["\(branch.displayName) · \(branch.freshness.displayText(language))"]
  for day in today.firstOfMonth.days(through: today.lastOfMonth) {
    switch branch.status(on: day) {
    case .open: continue                                      // list only the days to mind
    default: lines.append("\(day.displayText(language)) \(branch.dayText(on: day, language))")
    }
  }
  lines.append(branch.nextClosingText(after: today, language))
  return lines
}
// end of block 8
