import MartCore

/// A month as a table: a column per weekday (with its header for screen readers), a cell per
/// day with its number and, for every day that is not a plain open day, a word: 휴무, 예상,
/// 미확인, 중단. Colour repeats the word; it never replaces it.
enum MonthCalendar {
  static let legend =
    "<p>표의 낱말: <b>휴무</b> 매장이 밝힌 휴무일 · <b>예상</b> 휴무 예상일(같은 시·군·구의 다른 매장들이 쉬는 날, 미확인) · <b>미확인</b> 알 수 없는 날(영업한다고 보지 마세요) · <b>중단</b> 영업하지 않는 기간 · 낱말 없는 날은 영업일.</p>\n"

  /// The month of `first` (its first day) for `days`.
  static func render(month first: CalendarDate, _ days: BranchDays) -> String {
    var html = "<table class=\"cal\"><caption>\(first.year)년 \(first.month)월</caption><thead><tr>"
    for weekday in Weekday.allCases { html += "<th scope=\"col\">\(weekday.koreanShortName)</th>" }
    html += "</tr></thead><tbody><tr>"
    let leading = first.weekday.rawValue - 1
    html += String(repeating: "<td></td>", count: leading)
    var column = leading
    var day = first
    while day.month == first.month {
      if column == 7 {
        html += "</tr><tr>"
        column = 0
      }
      let status = days.status(on: day)
      let isToday = day == days.asOf
      var classes = status.cellClass
      if isToday { classes += classes.isEmpty ? "today" : " today" }
      let words = [status.cellWord, isToday ? "오늘" : ""].filter { !$0.isEmpty }.joined(separator: "·")
      html += classes.isEmpty ? "<td>" : "<td class=\"\(classes)\">"
      html += "\(day.day)"
      if !words.isEmpty { html += "<span>\(words)</span>" }
      html += "</td>"
      column += 1
      day = day.adding(days: 1)
    }
    html += String(repeating: "<td></td>", count: 7 - column)
    html += "</tr></tbody></table>\n"
    return html
  }
}
