// Prints one branch's current month from an output directory, the way an app would show it.
//
//   swift run mart-holiday-client-example [OUTPUT-DIR] [BRANCH-ID] [YYYY-MM-DD]
//
// Defaults: `output`, `emart-1059` and today in Korea (the bundle's as-of day when that is later).
// Closed days are in brackets, unknown days marked `?`, shut days `x`; then how fresh the
// brand's data is and the next closing day.

import Foundation
import MartHolidayKit

let arguments = CommandLine.arguments.dropFirst()
let output = URL(fileURLWithPath: arguments.first ?? "output")
let branchID = arguments.dropFirst().first ?? "emart-1059"

do {
  let bundle = try MartBundle(contentsOf: output)
  let branch: MartBranch
  switch bundle.lookup(id: branchID) {
  case .listed(let listed):
    branch = listed
  case .removed(let lastListed):
    let since = lastListed.map { ", last listed \($0)" } ?? ""
    FileHandle.standardError.write(Data("error: \(branchID) is no longer listed by its source\(since)\n".utf8))
    exit(1)
  case .unknown:
    FileHandle.standardError.write(Data("error: no branch \(branchID) in bundle \(bundle.version)\n".utf8))
    exit(1)
  }
  let today: MartDay
  if let text = arguments.dropFirst(2).first {
    guard let day = MartDay(iso: text) else {
      FileHandle.standardError.write(Data("error: not a YYYY-MM-DD day: \(text)\n".utf8))
      exit(1)
    }
    today = day
  } else {
    today = max(MartDay.today(), bundle.asOf)
  }
  let first = today.firstOfMonth
  print("\(branch.displayName) (\(branch.id)) — \(first.year)-\(first.month < 10 ? "0" : "")\(first.month)")
  if branch.storeStatus.state != .trading || branch.storeStatus.closesOn != nil {
    print("store: \(branch.storeStatus.state.rawValue) \(branch.storeStatus.text ?? "")")
  }
  print(" Sun  Mon  Tue  Wed  Thu  Fri  Sat")
  var line = String(repeating: "     ", count: first.weekday - 1)
  for (day, status) in branch.statuses(from: first, through: first.lastOfMonth) {
    let number = day.day < 10 ? " \(day.day)" : "\(day.day)"
    switch status {
    case .closed: line += "[\(number)]"
    case .unknown: line += " \(number)?"
    case .expectedClosed: line += "(\(number))"
    case .shut: line += " \(number)x"
    case .open: line += " \(number) "
    }
    line += " "
    if day.weekday == 7 {
      print(line)
      line = ""
    }
  }
  if !line.isEmpty { print(line) }
  switch branch.freshness {
  case .fresh: print("data: fresh as of \(bundle.asOf)")
  case .stale(let lastGood): print("data: stale, last read \(lastGood.map(\.iso) ?? "never")")
  case .missing: print("data: missing")
  }
  switch branch.nextClosing(after: today) {
  case .closing(let day): print("next closing day after \(today): \(day)")
  case .unknownFrom(let day): print("next closing day after \(today): not known (unknown from \(day))")
  case .noneKnown: print("next closing day after \(today): none within a year")
  }
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
